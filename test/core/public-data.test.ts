import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { embeddedFoodSource } from '../../adapters/foodtable/embedded-source.js';
import { SAMPLE_CATALOGUE_NOTICE } from '../../adapters/foodtable/sample-catalogue-notice.js';
import { embeddedRecipeLibrary, fixedRecipeLibrary, noRecipeLibrary } from '../../adapters/library/embedded-library.js';
import { gzipFilePacker } from '../../adapters/publicdata/gzip-packer.js';
import { memoryDeps } from '../../bootstrap/deps.js';
import { DERIVED_FILES, foodDbDocument, isShareAlike, libraryDocument, type DataNotice } from '../../core/publicdata/derived-documents.js';
import { buildDerivedFiles, buildFoodDbFile, buildLibraryFile, derivedFile, ensureDerivedFiles } from '../../core/publicdata/derived-files.js';
import { canonicalUnit } from '../../core/food/units.js';
import type { LibraryRecipe, RecipeLibrary } from '../../ports/recipe-library.js';
import { product } from '../contracts/food-table-store.contract.js';

const NOW = new Date('2026-05-04T04:41:00.000Z');
const notice: DataNotice = { licence: 'CC-BY-4.0', licenceUrl: null, sources: ['Test catalogue'], attribution: 'Test contributors', note: null };

const linesOf = (text: string) => {
  expect(text.endsWith('\n'), 'every line ends with a newline').to.equal(true);
  return text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
};
const unzipLines = (bytes: Uint8Array) => linesOf(gunzipSync(bytes).toString('utf8'));

const recipe = (id: string, licence: string, over: Partial<LibraryRecipe> = {}): LibraryRecipe => ({
  id,
  title: `Rett ${id}`,
  servings: 4,
  totalMinutes: null,
  licence,
  source: `Kilde ${licence}`,
  attribution: `Kreditt ${id}`,
  ingredients: [
    { foodKey: 'kjøttdeig', displayName: 'Kjøttdeig', quantity: 400, unit: 'g' },
    { foodKey: 'salt', displayName: 'Salt', quantity: null, unit: null },
  ],
  ...over,
});

function setup(library: RecipeLibrary = embeddedRecipeLibrary()) {
  const clock = fixedClock(NOW);
  const deps = memoryDeps(
    { adminEmails: [], publicBaseUrl: 'https://dinner.example', lockout: { attempts: 3, windowSec: 900, lockSec: 300 }, referralCodesPerHousehold: 3 },
    { clock, recipeLibrary: library },
  );
  return { deps, clock };
}

describe('public data downloads (core)', () => {
  describe('the food db document', () => {
    it('starts with a header naming licence, sources and attribution, then every product row ordered by id', () => {
      const b = product('b', { ean: '7010000000026', foodKey: 'lettmelk', nutriScore: null });
      const a = product('a', { ean: '7010000000019', name: 'Norvegia 500 g', foodKey: 'norvegia', foodGroup: 'Dairy', novaGroup: 3 });
      const lines = linesOf(foodDbDocument([b, a], notice));
      expect(lines[0]).to.deep.equal({
        type: 'header',
        file: 'food-db-derived.jsonl.gz',
        format: 1,
        licence: 'CC-BY-4.0',
        licenceUrl: null,
        sources: ['Test catalogue'],
        attribution: 'Test contributors',
        note: null,
        products: 2,
        barcodes: 2,
      });
      expect(lines[1]).to.deep.equal({ type: 'product', ...a, prices: a.prices.map((p) => ({ ...p })) });
      expect(lines.slice(1, 3).map((l) => l['id'])).to.deep.equal(['a', 'b']);
      expect(lines[2]).to.include({ nutriScore: null, foodKey: 'lettmelk' });
    });

    it('adds one barcode line per distinct EAN-to-food-key mapping, ordered by EAN; a product without EAN has none', () => {
      const products = [
        product('3', { ean: '7010000000033', foodKey: 'brus' }),
        product('1', { ean: '7010000000019', foodKey: 'lettmelk' }),
        product('2', { ean: '7010000000019', foodKey: 'lettmelk' }),
        product('4', { ean: '7010000000019', foodKey: 'skummet-melk' }),
        product('5', { ean: null, foodKey: 'banan' }),
      ];
      const lines = linesOf(foodDbDocument(products, notice));
      expect(lines.filter((l) => l['type'] === 'product')).to.have.length(5);
      expect(lines.filter((l) => l['type'] === 'barcode')).to.deep.equal([
        { type: 'barcode', ean: '7010000000019', foodKey: 'lettmelk' },
        { type: 'barcode', ean: '7010000000019', foodKey: 'skummet-melk' },
        { type: 'barcode', ean: '7010000000033', foodKey: 'brus' },
      ]);
      expect(lines[0]).to.include({ products: 5, barcodes: 3 });
      // Products first, then the mappings.
      expect(lines.map((l) => l['type'])).to.deep.equal(['header', 'product', 'product', 'product', 'product', 'product', 'barcode', 'barcode', 'barcode']);
    });

    it('gives the same text for the same rows in any order', () => {
      const rows = [product('1'), product('2', { ean: null }), product('3')];
      expect(foodDbDocument([...rows].reverse(), notice)).to.equal(foodDbDocument(rows, notice));
    });
  });

  describe('the library document', () => {
    it('holds only the share-alike recipes, ordered by id, each with its licence, source and credit', () => {
      const recipes = [recipe('c', 'CC-BY-SA-4.0'), recipe('a', 'CC0-1.0'), recipe('b', 'CC-BY-4.0'), recipe('d', 'CC-BY-SA-3.0')];
      const lines = linesOf(libraryDocument(recipes));
      expect(lines.slice(1).map((l) => l['id'])).to.deep.equal(['c', 'd']);
      expect(lines[1]).to.deep.equal({ type: 'recipe', ...recipe('c', 'CC-BY-SA-4.0') });
      expect(lines[0]).to.deep.include({ type: 'header', file: 'library-derived.jsonl.gz', format: 1, licence: 'CC-BY-SA-3.0 AND CC-BY-SA-4.0', recipes: 2 });
      expect(lines[0]!['sources']).to.deep.equal(['Kilde CC-BY-SA-3.0', 'Kilde CC-BY-SA-4.0']);
      expect(String(lines[0]!['attribution'])).to.contain('Kilde CC-BY-SA-3.0; Kilde CC-BY-SA-4.0');
    });

    it('is the header line alone when no share-alike recipe is seeded, still naming licence, sources and attribution', () => {
      for (const recipes of [[], [recipe('a', 'CC0-1.0')]]) {
        const lines = linesOf(libraryDocument(recipes));
        expect(lines).to.have.length(1);
        expect(lines[0]).to.deep.equal({
          type: 'header',
          file: 'library-derived.jsonl.gz',
          format: 1,
          licence: 'CC-BY-SA-4.0',
          sources: [],
          attribution: 'No share-alike recipe is seeded on this server.',
          recipes: 0,
        });
      }
    });

    it('tells share-alike licences from the others', () => {
      for (const l of ['CC-BY-SA-4.0', 'CC-BY-SA-3.0', 'CC-BY-SA-2.5', 'CC-BY-NC-SA-4.0', 'CC-BY-SA-3.0-DE']) expect(isShareAlike(l), l).to.equal(true);
      for (const l of ['CC-BY-4.0', 'CC0-1.0', 'MIT', 'CC-BY-ND-4.0', 'cc-by-sa-4.0', 'CC-BY-SA-4.0 OR MIT', '']) expect(isShareAlike(l), l).to.equal(false);
    });
  });

  describe('gzip and SHA-256', () => {
    it('gives the same bytes and sha256 for the same text, and the sha256 is that of the bytes', async () => {
      const text = foodDbDocument(await embeddedFoodSource().load(), SAMPLE_CATALOGUE_NOTICE);
      const one = await gzipFilePacker().gzip(text);
      const two = await gzipFilePacker().gzip(text);
      expect(Buffer.from(one.bytes).equals(Buffer.from(two.bytes))).to.equal(true);
      expect(one.sha256).to.equal(two.sha256).and.to.match(/^[0-9a-f]{64}$/);
      expect(createHash('sha256').update(one.bytes).digest('hex')).to.equal(one.sha256);
      expect(gunzipSync(one.bytes).toString('utf8')).to.equal(text);
      // No file name (FLG 0) and no modification time (MTIME 0) in the gzip header: nothing of the moment of the build.
      expect([...one.bytes.subarray(0, 8)]).to.deep.equal([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
    });
  });

  describe('building and storing the files', () => {
    it('builds no food db before the first sync, and reads as food-db-not-built', async () => {
      const { deps } = setup();
      expect(await buildFoodDbFile(deps)).to.deep.equal({ name: DERIVED_FILES.foodDb, state: 'not-synced', sha256: null, size: null });
      expect(await deps.publicDataFiles.head(DERIVED_FILES.foodDb)).to.equal(null);
      const read = await derivedFile(deps, DERIVED_FILES.foodDb);
      expect(read.ok ? 'ok' : read.error.type).to.equal('food-db-not-built');
    });

    it('at start: builds the library, but not the food db before a sync; once synced, builds it if none is stored', async () => {
      const { deps, clock } = setup();
      const start = await ensureDerivedFiles(deps);
      expect(start.map((b) => [b.name, b.state])).to.deep.equal([
        [DERIVED_FILES.foodDb, 'not-synced'],
        [DERIVED_FILES.library, 'written'],
      ]);
      const library = await derivedFile(deps, DERIVED_FILES.library);
      if (!library.ok) throw new Error('no library file');
      expect(library.value.builtAt).to.deep.equal(NOW);
      expect(unzipLines(library.value.bytes)[0]).to.include({ type: 'header', licence: 'CC-BY-SA-4.0' });

      await deps.foodTable.replaceAll(await embeddedFoodSource().load(), clock.now());
      clock.advance(60_000);
      const again = await ensureDerivedFiles(deps);
      expect(again.map((b) => [b.name, b.state])).to.deep.equal([
        [DERIVED_FILES.foodDb, 'written'],
        [DERIVED_FILES.library, 'unchanged'],
      ]);
      expect((await ensureDerivedFiles(deps)).map((b) => b.state)).to.deep.equal(['kept', 'unchanged']);
      // The library's builtAt stays that of its bytes.
      expect((await deps.publicDataFiles.head(DERIVED_FILES.library))?.builtAt).to.deep.equal(NOW);
    });

    it('after a sync: rebuilds both, storing only bytes that changed', async () => {
      const { deps, clock } = setup();
      const catalogue = await embeddedFoodSource().load();
      await deps.foodTable.replaceAll(catalogue, clock.now());
      const first = await buildDerivedFiles(deps);
      expect(first.map((b) => b.state)).to.deep.equal(['written', 'written']);
      clock.advance(86_400_000);
      await deps.foodTable.replaceAll(catalogue, clock.now());
      const same = await buildDerivedFiles(deps);
      expect(same.map((b) => b.state)).to.deep.equal(['unchanged', 'unchanged']);
      expect(same.map((b) => b.sha256)).to.deep.equal(first.map((b) => b.sha256));
      expect((await deps.publicDataFiles.head(DERIVED_FILES.foodDb))?.builtAt).to.deep.equal(NOW);

      await deps.foodTable.replaceAll(catalogue.slice(1), clock.now());
      const changed = await buildFoodDbFile(deps);
      expect(changed.state).to.equal('written');
      expect(changed.sha256).to.not.equal(first[0]!.sha256);
      const read = await derivedFile(deps, DERIVED_FILES.foodDb);
      if (!read.ok) throw new Error('no food db');
      expect(read.value.sha256).to.equal(changed.sha256);
      expect(read.value.builtAt).to.deep.equal(clock.now());
      const lines = unzipLines(read.value.bytes);
      expect(lines[0]).to.deep.include({ licence: SAMPLE_CATALOGUE_NOTICE.licence, sources: SAMPLE_CATALOGUE_NOTICE.sources, products: catalogue.length - 1 });
      expect(lines.filter((l) => l['type'] === 'product')).to.have.length(catalogue.length - 1);
    });

    it('reads a food table of several pages whole', async () => {
      const { deps, clock } = setup(noRecipeLibrary());
      const many = Array.from({ length: 2345 }, (_, i) => product(`p-${String(i).padStart(5, '0')}`));
      await deps.foodTable.replaceAll(many, clock.now());
      await buildFoodDbFile(deps);
      const read = await derivedFile(deps, DERIVED_FILES.foodDb);
      if (!read.ok) throw new Error('no food db');
      const products = unzipLines(read.value.bytes).filter((l) => l['type'] === 'product');
      expect(products.map((p) => p['id'])).to.deep.equal(many.map((p) => p.id));
    });

    it('builds the library of RECIPE_LIBRARY=none as the header line alone', async () => {
      const { deps } = setup(noRecipeLibrary());
      await buildLibraryFile(deps);
      const read = await derivedFile(deps, DERIVED_FILES.library);
      if (!read.ok) throw new Error('no library file');
      expect(unzipLines(read.value.bytes)).to.have.length(1);
    });
  });

  describe('the embedded recipe library', () => {
    const UNITS = new Set(['g', 'kg', 'dl', 'l', 'stk', 'ss', 'ts']);

    it('holds about 60 Nordic dinners: servings 2 to 6, 5 to 12 ingredients each with a known unit, ordered by id', async () => {
      const all = await embeddedRecipeLibrary().all();
      expect(all.length).to.be.within(55, 70);
      expect(all.map((r) => r.id)).to.deep.equal([...new Set(all.map((r) => r.id))].sort());
      for (const r of all) {
        expect(r.servings, r.id).to.be.within(2, 6);
        expect(r.ingredients.length, r.id).to.be.within(5, 12);
        expect(r.title.trim(), r.id).to.not.equal('');
        for (const i of r.ingredients) {
          if (i.quantity === null) expect(i.unit, `${r.id} ${i.displayName}`).to.equal(null);
          else {
            expect(i.quantity, `${r.id} ${i.displayName}`).to.be.above(0);
            expect(UNITS.has(i.unit!), `${r.id} ${i.displayName} ${i.unit}`).to.equal(true);
            expect(canonicalUnit(i.unit!), `${r.id} ${i.unit}`).to.not.equal(null);
          }
        }
      }
    });

    it('uses the food keys of the sample catalogue, so most recipes are fully priced and a few are not', async () => {
      const keys = new Set((await embeddedFoodSource().load()).map((p) => p.foodKey));
      const all = await embeddedRecipeLibrary().all();
      const bought = (r: LibraryRecipe) => r.ingredients.filter((i) => i.quantity !== null);
      const unpriced = all.filter((r) => bought(r).some((i) => !keys.has(i.foodKey)));
      expect(unpriced.length).to.be.within(1, Math.floor(all.length / 10));
      // Food keys are the service's normalized keys: "Hakkede tomater" meets the catalogue's hakkede-tomat.
      expect(all.flatMap((r) => r.ingredients).find((i) => i.displayName === 'Hakkede tomater')?.foodKey).to.equal('hakkede-tomat');
    });

    it('carries a licence, a source and a credit on every recipe: most share-alike, some not', async () => {
      const all = await embeddedRecipeLibrary().all();
      for (const r of all) for (const f of [r.licence, r.source, r.attribution]) expect(f.trim(), r.id).to.not.equal('');
      const shareAlike = all.filter((r) => isShareAlike(r.licence));
      expect(shareAlike.length).to.be.above(all.length / 2);
      expect(new Set(all.filter((r) => !isShareAlike(r.licence)).map((r) => r.licence))).to.deep.equal(new Set(['CC-BY-4.0', 'CC0-1.0']));
      expect(linesOf(libraryDocument(all))).to.have.length(shareAlike.length + 1);
    });

    it('names its version by its content', async () => {
      const all = await embeddedRecipeLibrary().all();
      const sample = all.map((r) => ({ ...r, ingredients: r.ingredients.map(({ foodKey: _k, ...i }) => i) }));
      const version = await embeddedRecipeLibrary().version();
      expect(version).to.match(/^[0-9a-f]{64}$/);
      expect(await fixedRecipeLibrary(sample).version()).to.equal(version);
      expect(await fixedRecipeLibrary([...sample].reverse()).version()).to.equal(version);
      expect(await fixedRecipeLibrary(sample.slice(1)).version()).to.not.equal(version);
      expect(await fixedRecipeLibrary([{ ...sample[0]!, servings: 5 }, ...sample.slice(1)]).version()).to.not.equal(version);
      expect(await noRecipeLibrary().all()).to.deep.equal([]);
      expect(await noRecipeLibrary().version()).to.not.equal(version);
    });

    it('refuses a recipe it could not serve', () => {
      const good = { ...recipe('ok', 'CC0-1.0') };
      expect(() => fixedRecipeLibrary([good, good])).to.throw(/twice/);
      expect(() => fixedRecipeLibrary([{ ...good, licence: ' ' }])).to.throw(/licence/);
      expect(() => fixedRecipeLibrary([{ ...good, ingredients: [{ displayName: '—', quantity: 1, unit: 'g' }] }])).to.throw(/names no food/);
    });
  });
});
