import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { emptyTables, memoryHouseholdStore } from '../../adapters/memory/stores.js';
import type { Account } from '../../core/accounts/types.js';
import { previewRecipePicture, recipeImportChoices, type RecipePictureDeps } from '../../core/recipes/import-picture.js';
import { fail, ok } from '../../core/kernel/result.js';
import type { RecipePictureRead } from '../../ports/recipe-picture-reader.js';
import { person, storedHousehold } from './support.js';

const RECIPE: RecipePictureRead = {
  ok: true,
  recipe: { title: 'Lapskaus', ingredientLines: ['500 g storfekjøtt', '4 poteter', 'Til servering:', 'flatbrød'], steps: ['Kok alt mørt.'], yields: null, servings: null, totalMinutes: 90, activeMinutes: 20 },
};

/** A reader that answers what the test says and keeps what it was given; a quota of `calls`. */
function world(answer: RecipePictureRead = RECIPE, calls = 2, reader = true) {
  const read: string[] = [];
  const taken: string[] = [];
  const deps: RecipePictureDeps = {
    households: memoryHouseholdStore(emptyTables()),
    recipePictureReader: reader ? { read: async (file) => (read.push(file.mediaType), answer) } : null,
    takeAiCall: async (h) => (taken.push(h.id), taken.length <= calls ? ok(undefined) : fail({ type: 'ai-quota-used', retryAfterSec: 3600 })),
  };
  async function household(owner: Account, junior?: Account) {
    const now = new Date('2026-11-25T10:00:00.000Z');
    const id = await storedHousehold(deps.households, owner, now);
    if (junior) await deps.households.addMember(id, { id: randomUUID(), displayName: junior.displayName, role: 'Junior', accountId: junior.id, createdAt: now });
    return id;
  }
  return { deps, read, taken, household };
}

const jpeg = { bytes: new Uint8Array([0xff, 0xd8, 0xff]), sniffedType: 'image/jpeg' };

describe('recipe import from a picture (domain)', () => {
  it('previews what the AI read, lines parsed, read_by_ai first, servings guessed and the heading dropped', async () => {
    const { deps, read, taken, household } = world();
    const kari = person('kari');
    const h = await household(kari);
    const r = await previewRecipePicture(deps, kari, h, jpeg);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.value.warnings).to.deep.equal(['read_by_ai', 'lines_dropped', 'servings_guessed']);
    expect(r.value.recipe.ingredients.map((i) => i.displayName)).to.deep.equal(['storfekjøtt', 'poteter', 'flatbrød']);
    expect([r.value.recipe.title, r.value.recipe.servings, r.value.recipe.totalMinutes, r.value.recipe.activeMinutes, r.value.sourceUrl]).to.deep.equal(['Lapskaus', 4, 90, 20, null]);
    expect([read, taken]).to.deep.equal([['image/jpeg'], [h]]);
  });

  it('refuses before the quota: a Junior, someone outside, no reader configured, a file of another kind', async () => {
    const { deps, read, taken, household } = world();
    const [kari, junior, stranger] = [person('kari'), person('junior'), person('stranger')];
    const h = await household(kari, junior);
    expect(await previewRecipePicture(deps, junior, h, jpeg)).to.deep.equal({ ok: false, error: { type: 'adults-only' } });
    expect(await previewRecipePicture(deps, stranger, h, jpeg)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    for (const sniffedType of [null, 'image/svg+xml', 'image/gif', 'application/zip']) {
      expect(await previewRecipePicture(deps, kari, h, { bytes: new Uint8Array(4), sniffedType })).to.deep.equal({ ok: false, error: { type: 'recipe-picture-failed', reason: 'not-supported' } });
    }
    const none = world(RECIPE, 2, false);
    const h2 = await none.household(kari);
    expect(await previewRecipePicture(none.deps, kari, h2, jpeg)).to.deep.equal({ ok: false, error: { type: 'recipe-reader-unavailable' } });
    expect(await recipeImportChoices(none.deps, kari, h2)).to.deep.equal({ ok: true, value: { pictures: false } });
    expect(await recipeImportChoices(deps, junior, h)).to.deep.equal({ ok: true, value: { pictures: true } });
    expect([read, taken]).to.deep.equal([[], []]);
  });

  it('passes the quota refusal and the reader failure on as tagged values; a failed read still spent its call', async () => {
    const failing = world({ ok: false, reason: 'unreadable' }, 1);
    const kari = person('kari');
    const h = await failing.household(kari);
    expect(await previewRecipePicture(failing.deps, kari, h, jpeg)).to.deep.equal({ ok: false, error: { type: 'recipe-picture-failed', reason: 'unreadable' } });
    expect(await previewRecipePicture(failing.deps, kari, h, jpeg)).to.deep.equal({ ok: false, error: { type: 'ai-quota-used', retryAfterSec: 3600 } });
    expect(failing.read).to.have.length(1);
  });
});
