import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { RecipeContent } from '../../core/recipes/types.js';
import type { RecipeImage } from '../../ports/recipe-image.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const content: RecipeContent = { title: 'Taco', servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: 'https://img.example/taco.webp' };

/** Every byte value, so that a store that reads or writes the bytes as text would show it. */
const bytes = Uint8Array.from({ length: 1024 }, (_, i) => (i * 7) % 256);
const image = (over: Partial<RecipeImage> = {}): RecipeImage => ({ sourceUrl: 'https://img.example/taco.webp', mediaType: 'image/webp', bytes, etag: '"abc"', ...over });

export function recipeImageStoreContract(backend: Backend): void {
  storeSuite(backend, 'RecipeImageStore', (s) => {
    async function recipe() {
      const { id: h } = await ownedHousehold(s, { at: at('2026-02-01T12:00:00.500Z') });
      const id = randomUUID();
      await s.recipes.create(h, id, content, at('2026-02-01T12:00:00.500Z'));
      return { h, id };
    }

    it('round-trips the bytes exactly, with type, address and ETag; the recipe reads its picture without the bytes', async () => {
      const { h, id } = await recipe();
      expect(await s.recipeImages.get(h, id)).to.equal(null);
      expect((await s.recipes.byId(h, id))!.image).to.equal(null);
      expect(await s.recipeImages.put(h, id, image())).to.equal(true);
      const got = await s.recipeImages.get(h, id);
      expect(got).to.deep.equal(image());
      expect(got!.bytes).to.be.an.instanceOf(Uint8Array);
      expect((await s.recipes.byId(h, id))!.image).to.deep.equal({ sourceUrl: 'https://img.example/taco.webp', mediaType: 'image/webp', etag: '"abc"' });
      expect((await s.recipes.page(h, { titleKeyContains: null, after: null, limit: 10 })).items[0]!.image).to.deep.equal({ sourceUrl: 'https://img.example/taco.webp', mediaType: 'image/webp', etag: '"abc"' });
    });

    it('replaces the one picture of a recipe, and removes it', async () => {
      const { h, id } = await recipe();
      await s.recipeImages.put(h, id, image());
      const next = image({ sourceUrl: 'https://img.example/b.png', mediaType: 'image/png', bytes: new Uint8Array([1, 2, 3]), etag: '"b"' });
      expect(await s.recipeImages.put(h, id, next)).to.equal(true);
      expect(await s.recipeImages.get(h, id)).to.deep.equal(next);
      await s.recipeImages.remove(h, id);
      expect(await s.recipeImages.get(h, id)).to.equal(null);
      expect((await s.recipes.byId(h, id))!.image).to.equal(null);
      await s.recipeImages.remove(h, id);
    });

    it("moves the household's revision with a picture put or removed, and the recipe summaries show it at once", async () => {
      const { h, id } = await recipe();
      const summary = async () => (await s.recipes.summaryPage(h, { titleKeyContains: null, after: null, limit: 10 })).items[0]!.image;
      expect(await summary()).to.equal(null);
      const before = await s.revisions.of(h);
      await s.recipeImages.put(h, id, image());
      const afterPut = await s.revisions.of(h);
      expect(afterPut).to.not.equal(before);
      expect(await summary()).to.deep.equal({ sourceUrl: 'https://img.example/taco.webp', mediaType: 'image/webp', etag: '"abc"' });
      await s.recipeImages.remove(h, id);
      expect(await s.revisions.of(h)).to.not.equal(afterPut);
      expect(await summary()).to.equal(null);
    });

    it('keeps every call inside the household: another household neither writes, reads nor removes it', async () => {
      const { h, id } = await recipe();
      const { h: other } = await recipe();
      expect(await s.recipeImages.put(other, id, image())).to.equal(false);
      expect(await s.recipeImages.put(h, randomUUID(), image())).to.equal(false);
      await s.recipeImages.put(h, id, image());
      expect(await s.recipeImages.get(other, id)).to.equal(null);
      await s.recipeImages.remove(other, id);
      expect(await s.recipeImages.get(h, id)).to.deep.equal(image());
    });

    it("sets the household's own picture (no address) or none in one step with the recipe: imageUrl null, updatedAt moved", async () => {
      const { h, id } = await recipe();
      await s.recipeImages.put(h, id, image());
      const own = image({ sourceUrl: null, mediaType: 'image/webp', bytes: new Uint8Array([9, 0, 255]), etag: '"own"' });
      const set = await s.recipes.setImage(h, id, own, at('2026-02-03T08:00:00.250Z'));
      expect([set!.imageUrl, set!.image, set!.updatedAt, set!.title]).to.deep.equal([null, { sourceUrl: null, mediaType: 'image/webp', etag: '"own"' }, at('2026-02-03T08:00:00.250Z'), 'Taco']);
      expect(await s.recipes.byId(h, id)).to.deep.equal(set);
      expect(await s.recipeImages.get(h, id)).to.deep.equal(own);
      const none = await s.recipes.setImage(h, id, null, at('2026-02-04T08:00:00.000Z'));
      expect([none!.imageUrl, none!.image, none!.updatedAt]).to.deep.equal([null, null, at('2026-02-04T08:00:00.000Z')]);
      expect(await s.recipeImages.get(h, id)).to.equal(null);
    });

    it("sets no picture on another household's recipe, nor on one that is not there", async () => {
      const { h, id } = await recipe();
      const { h: other } = await recipe();
      await s.recipeImages.put(h, id, image());
      expect(await s.recipes.setImage(other, id, image({ sourceUrl: null }), at('2026-02-03T08:00:00.000Z'))).to.equal(null);
      expect(await s.recipes.setImage(other, id, null, at('2026-02-03T08:00:00.000Z'))).to.equal(null);
      expect(await s.recipes.setImage(h, randomUUID(), null, at('2026-02-03T08:00:00.000Z'))).to.equal(null);
      const still = await s.recipes.byId(h, id);
      expect([still!.imageUrl, still!.image?.etag, still!.updatedAt]).to.deep.equal(['https://img.example/taco.webp', '"abc"', at('2026-02-01T12:00:00.500Z')]);
    });

    it('goes with its recipe', async () => {
      const { h, id } = await recipe();
      await s.recipeImages.put(h, id, image());
      expect(await s.recipes.delete(h, id, at('2026-02-02T12:00:00.000Z'))).to.equal(true);
      expect(await s.recipeImages.get(h, id)).to.equal(null);
    });
  });
}
