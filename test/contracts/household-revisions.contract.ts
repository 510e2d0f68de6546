import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MealEvent } from '../../core/events/types.js';
import type { RecipeContent } from '../../core/recipes/types.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const recipe = (title: string): RecipeContent => ({ title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null });

export function householdRevisionsContract(backend: Backend): void {
  storeSuite(backend, 'HouseholdRevisions', (s) => {
    async function household() {
      const { id, owner } = await ownedHousehold(s);
      return { id, owner };
    }

    /** Runs `write` and answers whether the household's revision moved, and whether the other household's stayed. */
    async function moves(mine: string, theirs: string, write: () => Promise<unknown>): Promise<[boolean, boolean]> {
      const [a, b] = [await s.revisions.of(mine), await s.revisions.of(theirs)];
      await write();
      const [a2, b2] = [await s.revisions.of(mine), await s.revisions.of(theirs)];
      return [a2 !== a, b2 === b];
    }

    it('answers a token for a household and null for an unknown one, the same on reads that change nothing', async () => {
      const h = await household();
      const r = await s.revisions.of(h.id);
      expect(r).to.be.a('string');
      await s.households.byId(h.id);
      await s.pantry.ofHousehold(h.id);
      await s.recipes.page(h.id, { titleKeyContains: null, after: null, limit: 10 });
      expect(await s.revisions.of(h.id)).to.equal(r);
      expect(await s.revisions.of(randomUUID())).to.equal(null);
    });

    it('moves on every write to a list input, for that household only', async () => {
      const h = await household();
      const other = await household();
      const t0 = at('2026-05-01T10:00:00.000Z');
      const memberId = randomUUID();
      const recipeId = randomUUID();
      const event = (): MealEvent => ({
        id: randomUUID(), householdId: h.id, date: '2026-05-05', eventType: 'Guests', servingTime: null, availableCookingMinutes: null, notes: null,
        participants: [{ id: randomUUID(), householdMemberId: null, isPresent: true, guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: [] }],
        createdAt: t0, updatedAt: t0,
      });
      const e = event();
      let planId = '';
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['household settings', () => s.households.update(h.id, { dinnerTime: '17:30' }, t0)],
        ['member added', () => s.households.addMember(h.id, { id: memberId, displayName: 'Ola', role: 'Junior', accountId: null, createdAt: t0 })],
        ['member changed', () => s.households.updateMember(h.id, memberId, { displayName: 'Ola N' })],
        ['member removed', () => s.households.removeMember(h.id, memberId)],
        ['recipe created', () => s.recipes.create(h.id, recipeId, recipe('Taco'), t0)],
        ['recipe replaced', () => s.recipes.replace(h.id, recipeId, recipe('Taco!'), t0)],
        ['event created', () => s.events.create([e])],
        ['event rewritten', () => s.events.rewrite(h.id, [{ ...e, notes: 'late' }], [])],
        ['event removed', () => s.events.rewrite(h.id, [], [e.id])],
        ['plan made', async () => (planId = (await s.plans.getOrCreate(h.id, '2026-05-04', { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: t0 })).id)],
        ['plan day set', () => s.plans.setDay(h.id, planId, '2026-05-05', { recipeId, portionsOverride: 3, note: null }, t0)],
        ['recipe deleted', () => s.recipes.delete(h.id, recipeId, t0)],
        ['observation added', () => s.pantry.add({ id: randomUUID(), householdId: h.id, foodKey: 'melk', displayName: 'Melk', observationType: 'Purchased', quantity: 1, unit: 'l', storageLocation: 'Fridge', confidence: null, bestBefore: null, observedAt: t0 })],
        ['observations removed', () => s.pantry.removeOfFoods(h.id, ['melk'])],
        ['merge', () => s.pantryMerges.merge({ householdId: h.id, fromKey: 'lett-melk', toKey: 'melk', fromDisplayName: 'Lettmelk', toDisplayName: 'Melk', mergedAt: t0 })],
        ['split', () => s.pantryMerges.split(h.id, 'lett-melk', t0)],
        ['unit weight put', () => s.unitWeights.put({ householdId: h.id, foodKey: 'egg', unit: 'pcs', displayName: 'Egg', grams: 60, updatedAt: t0 })],
        ['unit weight removed', () => s.unitWeights.remove(h.id, 'egg', 'pcs')],
      ];
      const seen: string[] = [];
      for (const [name, write] of writes) {
        const [moved, otherKept] = await moves(h.id, other.id, write);
        seen.push(`${name}: ${moved && otherKept ? 'ok' : `moved=${moved} other kept=${otherKept}`}`);
      }
      expect(seen).to.deep.equal(writes.map(([name]) => `${name}: ok`));
    });

    it('stays when only the shopping list is written', async () => {
      const h = await household();
      const p = await s.plans.getOrCreate(h.id, '2026-05-04', { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
      const r = await s.revisions.of(h.id);
      await s.shoppingLists.change(h.id, p.id, { listId: randomUUID() }, () => ({
        write: { generatedAt: at('2026-05-01T00:00:00.000Z'), completedAt: null, skippedReferences: [], addedReferences: [], trip: null, lines: [], madeFor: {}, wouldAdd: [], staleSince: null },
        result: null,
        derivation: { from: 'x', until: at('2026-05-02T00:00:00.000Z') },
      }));
      expect(await s.revisions.of(h.id)).to.equal(r);
    });
  });
}
