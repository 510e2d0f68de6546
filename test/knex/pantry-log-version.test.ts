import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { observationRow } from '../../adapters/knex/pantry-observation-store.js';
import { knexStores } from '../../bootstrap/stores.js';
import type { PantryObservation } from '../../core/pantry/types.js';
import { at, ownedHousehold } from '../contracts/fixtures.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';

const observed = (householdId: string, foodKey: string, observedAt: string): PantryObservation => ({
  id: randomUUID(),
  householdId,
  foodKey,
  displayName: null,
  observationType: 'Purchased',
  quantity: 1,
  unit: 'pcs',
  storageLocation: 'Fridge',
  confidence: null,
  bestBefore: null,
  observedAt: at(observedAt),
});

/**
 * The pantry store and the shopping-list store keep a household's pantry log in the process while its version
 * holds. On Postgres a sequence hands out `seq` outside transactions, so an insert can commit after one with a higher
 * seq: a version made of the row count and the newest seq then comes back to an earlier value once an old row is
 * deleted meanwhile, and a kept log would be answered without the late row and with the deleted one. SQLite has
 * one writer at a time, so the interleaving cannot happen there.
 */
for (const kind of databaseKinds().filter((k) => k.name === 'postgres')) {
  describe(`pantry log kept in the process [${kind.name}]`, () => {
    it('sees an insert that commits late and a deletion in between, in the pantry and in a list\'s inputs', async () => {
      await withTwoConnections(kind, async (a, b) => {
        const s = knexStores(a.knex);
        const { id: householdId } = await ownedHousehold(s);
        const plan = await s.plans.getOrCreate(householdId, '2026-05-04', { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
        const old = observed(householdId, 'melk', '2026-05-01T09:00:00.000Z');
        await s.pantry.add(old);
        // Another writer takes its seq now (a sequence hands it out at once) and inserts with it later, as an
        // insert whose statement is slow to reach its household's revision row does.
        const late = observed(householdId, 'egg', '2026-05-02T09:00:00.000Z');
        const seq = Number((await b.knex.raw("select nextval(pg_get_serial_sequence('pantry_observations', 'seq')) as v")).rows[0].v);
        await s.pantry.add(observed(householdId, 'brød', '2026-05-03T09:00:00.000Z'));
        // Both logs are read (and kept) before the late row commits.
        expect((await s.pantry.ofHousehold(householdId)).map((o) => o.foodKey)).to.deep.equal(['melk', 'brød']);
        expect((await s.shoppingLists.inputs(householdId, plan.id)).observations.map((o) => o.foodKey)).to.deep.equal(['melk', 'brød']);
        await b.knex('pantry_observations').insert({ ...observationRow(late), seq });
        // One row more, one row fewer: as many rows as before, and the newest seq is the same.
        expect(await s.pantry.remove(householdId, old.id)).to.equal(true);
        expect((await s.pantry.ofHousehold(householdId)).map((o) => o.foodKey)).to.deep.equal(['egg', 'brød']);
        expect((await s.shoppingLists.inputs(householdId, plan.id)).observations.map((o) => o.foodKey)).to.deep.equal(['egg', 'brød']);
      });
    });
  });
}
