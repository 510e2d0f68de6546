import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { knexPantryObservationStore } from '../../adapters/knex/pantry-observation-store.js';
import { knexAccountStore } from '../../adapters/knex/account-store.js';
import { knexHouseholdStore } from '../../adapters/knex/household-store.js';
import { knexShoppingListStore } from '../../adapters/knex/shopping-list-store.js';
import type { PantryObservation } from '../../core/pantry/types.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';
import { newAccount } from '../contracts/fixtures.js';

for (const kind of databaseKinds()) {
  describe(`pantry log cache [${kind.name}]`, () => {
    it('a process sees observations another process added or removed, though it keeps the log in memory', async () => {
      await withTwoConnections(kind, async (a, b) => {
        const owner = newAccount();
        await knexAccountStore(a.knex).create(owner);
        const householdId = randomUUID();
        await knexHouseholdStore(a.knex).create(
          { id: householdId, name: 'H', timeZoneId: 'UTC', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], plan: 'Free', createdAt: new Date() },
          { id: randomUUID(), displayName: 'O', role: 'Owner', accountId: owner.id, createdAt: new Date() },
        );
        const here = knexPantryObservationStore(a.knex);
        const there = knexPantryObservationStore(b.knex);
        const obs = (foodKey: string, at: string): PantryObservation => ({
          id: randomUUID(), householdId, foodKey, displayName: foodKey, observationType: 'Purchased', quantity: 1, unit: 'pcs', storageLocation: 'Fridge', confidence: null, observedAt: new Date(at),
        });
        const first = obs('melk', '2026-05-01T10:00:00.000Z');
        await here.add(first);
        expect((await here.ofHousehold(householdId)).map((o) => o.foodKey)).to.deep.equal(['melk']);
        const second = obs('egg', '2026-05-02T10:00:00.000Z');
        await there.add(second);
        expect((await here.ofHousehold(householdId)).map((o) => o.foodKey)).to.deep.equal(['melk', 'egg']);
        // Remove one and add another: the count is the same, the version is not.
        await there.remove(householdId, first.id);
        await there.add(obs('ost', '2026-05-03T10:00:00.000Z'));
        expect((await here.ofHousehold(householdId)).map((o) => o.foodKey)).to.deep.equal(['egg', 'ost']);
        await there.remove(householdId, second.id);
        expect((await here.ofHousehold(householdId)).map((o) => o.foodKey)).to.deep.equal(['ost']);

        // The shopping list's derivation keeps the same log (adapters/knex/pantry-logs.ts): what one read, the other
        // takes from memory while the revision holds, the very same frozen observations; a change is read anew.
        const lists = knexShoppingListStore(a.knex);
        const planId = randomUUID();
        const kept = await here.ofHousehold(householdId);
        const derived = (await lists.inputs(householdId, planId)).observations;
        expect(derived.map((o) => o.foodKey)).to.deep.equal(['ost']);
        expect(derived[0]).to.equal(kept[0]);
        expect(Object.isFrozen(derived[0])).to.equal(true);
        await there.add(obs('smør', '2026-05-04T10:00:00.000Z'));
        const rederived = (await lists.inputs(householdId, planId)).observations;
        expect(rederived.map((o) => o.foodKey)).to.deep.equal(['ost', 'smør']);
        expect(rederived[0]).to.not.equal(kept[0]);
        const reread = await here.ofHousehold(householdId);
        expect(reread.map((o) => o.foodKey)).to.deep.equal(['ost', 'smør']);
        expect(reread[1]).to.equal(rederived[1]);
      });
    });
  });
}
