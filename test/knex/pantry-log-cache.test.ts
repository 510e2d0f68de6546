import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { knexPantryObservationStore } from '../../adapters/knex/pantry-observation-store.js';
import { foodLogs } from '../../adapters/knex/speed/pantry-logs.js';
import { knexAccountStore } from '../../adapters/knex/account-store.js';
import { knexHouseholdStore } from '../../adapters/knex/household-store.js';
import { knexShoppingListStore } from '../../adapters/knex/shopping-list-store.js';
import type { PantryObservation } from '../../core/pantry/types.js';
import type { Database } from '../../adapters/knex/database.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';
import { newAccount } from '../contracts/fixtures.js';

/** An owned household on `db`, and observations of it. */
async function household(db: Database) {
  const owner = newAccount();
  await knexAccountStore(db.knex).create(owner);
  const householdId = randomUUID();
  await knexHouseholdStore(db.knex).create(
    { id: householdId, name: 'H', timeZoneId: 'UTC', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], plan: 'Free', createdAt: new Date() },
    { id: randomUUID(), displayName: 'O', role: 'Owner', accountId: owner.id, createdAt: new Date() },
  );
  const obs = (foodKey: string, at: string): PantryObservation => ({
    id: randomUUID(), householdId, foodKey, displayName: foodKey, observationType: 'Purchased', quantity: 1, unit: 'pcs', storageLocation: 'Fridge', confidence: null, bestBefore: null, observedAt: new Date(at),
  });
  return { householdId, obs };
}

describe('kept food logs', () => {
  it('keep the 5,000 foods used last, dropping the one used longest ago', () => {
    const logs = foodLogs();
    for (let i = 0; i < 5000; i++) logs.keep('h', `food ${i}`, 1n, []);
    // Food 0 was kept first but is used now; food 1 becomes the one used longest ago.
    expect(logs.held('h', 'food 0')?.version).to.equal(1n);
    logs.keep('h', 'food 5000', 1n, []);
    expect(logs.held('h', 'food 0')).to.not.equal(undefined);
    expect(logs.held('h', 'food 1')).to.equal(undefined);
    expect(logs.held('h', 'food 2')).to.not.equal(undefined);
    expect(logs.held('h', 'food 5000')).to.not.equal(undefined);
  });
});

for (const kind of databaseKinds()) {
  describe(`pantry log cache [${kind.name}]`, () => {
    it('a process sees observations another process added or removed, though it keeps the log in memory', async () => {
      await withTwoConnections(kind, async (a, b) => {
        const { householdId, obs } = await household(a);
        const here = knexPantryObservationStore(a.knex);
        const there = knexPantryObservationStore(b.knex);
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

        // The shopping list's derivation keeps the same log (adapters/knex/speed/pantry-logs.ts): what one read, the other
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

    it("answers a food's log from memory after its own write, and reads it again after another process's", async () => {
      await withTwoConnections(kind, async (a, b) => {
        const { householdId, obs } = await household(a);
        const here = knexPantryObservationStore(a.knex);
        const there = knexPantryObservationStore(b.knex);
        const ids = (log: readonly PantryObservation[]) => log.map((o) => o.id);
        const add = (o: PantryObservation) => here.addToFoodLog(o, [o.foodKey]);
        const first = obs('melk', '2026-05-01T10:00:00.000Z');
        const second = obs('melk', '2026-05-02T10:00:00.000Z');
        expect(ids(await add(first))).to.deep.equal([first.id]);
        const read = await add(second);
        expect(ids(read)).to.deep.equal([first.id, second.id]);
        // Kept (the very same frozen observations come back), and the next write's observation joins at its place in
        // log order: observed before the second, written after it.
        const between = obs('melk', '2026-05-01T12:00:00.000Z');
        const kept = await add(between);
        expect(ids(kept)).to.deep.equal([first.id, between.id, second.id]);
        expect(kept[0]).to.equal(read[0]);
        // Another food's writes, here or in another process, leave this food's kept log standing.
        await there.add(obs('egg', '2026-05-03T10:00:00.000Z'));
        await add(obs('egg', '2026-05-03T11:00:00.000Z'));
        const third = obs('melk', '2026-05-03T12:00:00.000Z');
        const still = await add(third);
        expect(ids(still)).to.deep.equal([first.id, between.id, second.id, third.id]);
        expect(still[0]).to.equal(read[0]);
        // Another process adds to this food and removes from it: the log is read again, and kept again after.
        const theirs = obs('melk', '2026-05-04T10:00:00.000Z');
        await there.add(theirs);
        await there.remove(householdId, between.id);
        const fourth = obs('melk', '2026-05-04T11:00:00.000Z');
        const reread = await add(fourth);
        expect(ids(reread)).to.deep.equal([first.id, second.id, third.id, theirs.id, fourth.id]);
        expect(reread[0]).to.not.equal(read[0]);
        const fifth = obs('melk', '2026-05-04T12:00:00.000Z');
        const keptAgain = await add(fifth);
        expect(ids(keptAgain)).to.deep.equal([...ids(reread), fifth.id]);
        expect(keptAgain[0]).to.equal(reread[0]);
        // Every observation of the food gone, then a new one: its log is that one alone.
        await there.removeOfFoods(householdId, ['melk']);
        const anew = obs('melk', '2026-05-05T10:00:00.000Z');
        expect(ids(await add(anew))).to.deep.equal([anew.id]);
        expect(ids(await here.ofFoods(householdId, ['melk']))).to.deep.equal([anew.id]);
      });
    });

    it('answers each of many writes to one food, made at once by two processes, its log with the write in it', async () => {
      await withTwoConnections(kind, async (a, b) => {
        const { householdId, obs } = await household(a);
        const stores = [knexPantryObservationStore(a.knex), knexPantryObservationStore(b.knex)];
        // Each store's log kept first, so that the writes below race against kept logs.
        for (const [i, store] of stores.entries()) await store.addToFoodLog(obs('melk', `2026-05-01T0${i}:00:00.000Z`), ['melk']);
        const writes = Array.from({ length: 40 }, (_, i) => obs('melk', `2026-05-02T10:${String(i).padStart(2, '0')}:00.000Z`));
        const answers = await Promise.all(writes.map((o, i) => stores[i % 2]!.addToFoodLog(o, ['melk'])));
        const order = (await stores[0]!.ofFoods(householdId, ['melk'])).map((o) => o.id);
        expect(order).to.have.length(42);
        for (const [i, answer] of answers.entries()) {
          const answered = answer.map((o) => o.id);
          expect(answered).to.include(writes[i]!.id);
          // What each answer holds is the log as it was at some moment: the log's own order, nothing twice.
          expect(answered).to.deep.equal(order.filter((id) => answered.includes(id)));
          expect(new Set(answered).size).to.equal(answered.length);
        }
        // Each answer is the log as it was at one moment after its write (a log only grew here), so by size they nest.
        const bySize = answers.map((answer) => answer.map((o) => o.id)).sort((x, y) => x.length - y.length);
        for (const [i, answered] of bySize.entries()) expect(bySize[i + 1] ?? order).to.include.members(answered);
        // After them all, each process's next write answers the whole log.
        for (const [i, store] of stores.entries()) {
          const last = obs('melk', `2026-05-03T0${i}:00:00.000Z`);
          order.push(last.id);
          expect((await store.addToFoodLog(last, ['melk'])).map((o) => o.id)).to.deep.equal(order);
        }
      });
    });

    if (kind.name === 'postgres') {
      it("takes a household's locks in the order a deletion of the household does, so the two never deadlock", async () => {
        await withTwoConnections(kind, async (a, b) => {
          const { householdId, obs } = await household(a);
          const trx = await a.knex.transaction();
          // A deletion's first lock: the household's row.
          await trx.raw('select id from households where id = ? for update', [householdId]);
          const adding = knexPantryObservationStore(b.knex).addToFoodLog(obs('melk', '2026-05-01T10:00:00.000Z'), ['melk']);
          adding.catch(() => undefined);
          // The insert waits for that row before it locks the household's revision row, which the deletion takes
          // next. Had the insert locked that first, Postgres would find the deadlock and fail one of the two.
          await new Promise((resolve) => setTimeout(resolve, 200));
          await trx.raw('update household_revisions set revision = revision + 1 where household_id = ?', [householdId]);
          await trx.commit();
          expect((await adding).map((o) => o.foodKey)).to.deep.equal(['melk']);
        });
      });
    }
  });
}
