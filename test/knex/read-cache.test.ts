import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import knexFactory from 'knex';
import { postgresTableChanges, readCache, scopeWritten, type ChangeSource } from '../../adapters/knex/speed/read-cache.js';
import { speedOf } from '../../adapters/knex/speed/index.js';
import { startTcpProxy } from '../faults/tcp-proxy.js';
import { StoreBusyError, StoreUnavailableError } from '../../ports/store-errors.js';
import { currentStoreCall, type StoreCall } from '../../adapters/knex/store-calls.js';
import type { Database } from '../../adapters/knex/database.js';
import { runWithMetrics, type RequestMetrics } from '../../adapters/observability/request-context.js';
import { knexStores } from '../../bootstrap/stores.js';
import type { Session } from '../../core/accounts/types.js';
import { at, createdAccount, newAccount, ownedHousehold } from '../contracts/fixtures.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';
import { milkBought } from '../support/pantry.js';

/** A change source the test drives: usable or not, and syncs that finish when the test says. */
function testSource() {
  let changed = () => {};
  let householdChanged: (household: string | null) => void = () => {};
  const syncs: (() => void)[] = [];
  const source: ChangeSource & { usableNow: boolean } = {
    usableNow: true,
    start(onChange, onHouseholdChange) {
      changed = onChange;
      householdChanged = onHouseholdChange;
    },
    usable() {
      return source.usableNow;
    },
    sync: () => new Promise<void>((resolve) => syncs.push(resolve)),
    async close() {},
  };
  return { source, change: () => changed(), changeHousehold: (household: string | null) => householdChanged(household), syncs };
}

const loader = () => {
  let loads = 0;
  return {
    load: async () => ({ n: ++loads }),
    loads: () => loads,
  };
};

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('read cache (logic)', () => {
  it('answers a kept value from memory, and reads again after a change', async () => {
    const { source, change } = testSource();
    const cache = readCache(source);
    const l = loader();
    expect(await cache.read('k', l.load, () => true)).to.deep.equal({ n: 1 });
    expect(await cache.read('k', l.load, () => true)).to.deep.equal({ n: 1 });
    expect(l.loads()).to.equal(1);
    change();
    expect(await cache.read('k', l.load, () => true)).to.deep.equal({ n: 2 });
    expect(l.loads()).to.equal(2);
  });

  it('keeps only what `keep` accepts, and nothing while the source is not usable', async () => {
    const { source } = testSource();
    const cache = readCache(source);
    const l = loader();
    await cache.read('k', l.load, () => false);
    await cache.read('k', l.load, () => false);
    expect(l.loads()).to.equal(2);
    source.usableNow = false;
    await cache.read('j', l.load, () => true);
    await cache.read('j', l.load, () => true);
    expect(l.loads()).to.equal(4);
    source.usableNow = true;
    await cache.read('j', l.load, () => true);
    await cache.read('j', l.load, () => true);
    expect(l.loads()).to.equal(5);
  });

  it('does not keep a value whose read overlapped a change (it may be older than the change)', async () => {
    const { source, change } = testSource();
    const cache = readCache(source);
    let release: () => void = () => {};
    const slow = cache.read('k', () => new Promise<string>((resolve) => (release = () => resolve('old'))), () => true);
    change();
    release();
    expect(await slow).to.equal('old');
    expect(await cache.read('k', async () => 'new', () => true)).to.equal('new');
  });

  it("after a write made outside any store call, answers from the database until a sync that started after it", async () => {
    const { source, syncs } = testSource();
    const cache = readCache(source);
    const l = loader();
    await cache.read('k', l.load, () => true);
    cache.writing();
    // Written, not yet known to be reported: every read goes to the database and nothing is kept.
    await cache.read('k', l.load, () => true);
    await cache.read('k', l.load, () => true);
    expect(l.loads()).to.equal(3);
    const settled = cache.settled();
    expect(settled, 'a write to settle').to.not.equal(null);
    expect(syncs).to.have.length(1);
    cache.writing(); // a write after the sync began: that sync does not cover it
    const later = cache.settled()!;
    let done = false;
    void settled!.then(() => (done = true));
    await ticks();
    expect(done).to.equal(false);
    syncs.shift()!();
    await settled;
    await ticks();
    expect(syncs, 'the later write waits for a sync of its own').to.have.length(1);
    await cache.read('k', l.load, () => true);
    expect(l.loads(), 'still from the database').to.equal(4);
    syncs.shift()!();
    await later;
    expect(cache.settled(), 'nothing left to settle').to.equal(null);
    await cache.read('k', l.load, () => true);
    await cache.read('k', l.load, () => true);
    expect(l.loads()).to.equal(5);
  });

  it('holds back from memory while a store call that wrote is under way, however other calls end, until it ends', async () => {
    const { source, syncs } = testSource();
    const cache = readCache(source);
    const l = loader();
    const writer = { wrote: false, wroteCached: false, wroteHouseholds: false };
    const other = { wrote: false, wroteCached: false, wroteHouseholds: false };
    cache.writing(writer);
    // Another call ends first: it wrote nothing, so it settles nothing, and the writer's transaction may still be open.
    expect(cache.settled(other)).to.equal(null);
    await cache.read('k', l.load, () => true);
    await cache.read('k', l.load, () => true);
    expect(l.loads(), 'nothing kept while the writer is under way').to.equal(2);
    // A read that began before the writer ended is not kept either.
    let release: () => void = () => {};
    const overlapping = cache.read('j', () => new Promise<string>((resolve) => (release = () => resolve('before'))), () => true);
    // The writer ends (committed): it answers once this process's listener has heard everything committed so far
    // (a sync), so that another process has most likely heard it too by the time a client asks there.
    const ended = cache.settled(writer);
    expect(ended).to.be.an.instanceOf(Promise);
    expect(syncs).to.have.length(1);
    expect(writer.wroteCached).to.equal(false);
    let answered = false;
    void ended!.then(() => (answered = true));
    await ticks();
    expect(answered, 'not before the listener has heard it').to.equal(false);
    syncs.shift()!();
    await ticks();
    expect(answered).to.equal(true);
    release();
    await overlapping;
    expect(await cache.read('j', async () => 'after', () => true)).to.equal('after');
    await cache.read('k', l.load, () => true);
    await cache.read('k', l.load, () => true);
    expect(l.loads(), 'kept again').to.equal(3);
  });

  it("answers a write to a cached table even when the listener's sync fails, without waiting for it", async () => {
    const { source } = testSource();
    const cache = readCache({ ...source, sync: () => Promise.reject(new Error('listening connection lost')) });
    const writer = { wrote: false, wroteCached: false, wroteHouseholds: false };
    cache.writing(writer);
    // The write has committed: the failure of the listener only means the cache reads the database for a while.
    await cache.settled(writer);
    expect(writer.wroteCached).to.equal(false);
  });

  it("drops a household's values on that household's change (or every household's), leaving the rest", async () => {
    const { source, change, changeHousehold } = testSource();
    const cache = readCache(source);
    const l = loader();
    const readAll = async () => {
      await cache.read('state:a', l.load, () => true, 'a');
      await cache.read('state:b', l.load, () => true, 'b');
      await cache.read('session', l.load, () => true);
    };
    await readAll();
    await readAll();
    expect(l.loads()).to.equal(3);
    changeHousehold('a');
    await readAll();
    expect(l.loads(), "only a's value read again").to.equal(4);
    changeHousehold(null);
    await readAll();
    expect(l.loads(), "both households' values read again").to.equal(6);
    change();
    await readAll();
    expect(l.loads(), 'a change of the cached tables drops everything').to.equal(9);
    // A household's value whose read overlapped that household's change is not kept; another household's change does not matter.
    let release: () => void = () => {};
    const slow = cache.read('state:a', () => new Promise<{ n: number }>((resolve) => (release = () => resolve({ n: 0 }))), () => true, 'a');
    const slowB = cache.read('state:b2', () => new Promise<{ n: number }>((resolve) => setImmediate(() => resolve({ n: -1 }))), () => true, 'b');
    changeHousehold('a');
    release();
    await slow;
    await slowB;
    expect(await cache.read('state:a', l.load, () => true, 'a')).to.deep.equal({ n: 10 });
    expect(await cache.read('state:b2', l.load, () => true, 'b')).to.deep.equal({ n: -1 });
  });

  it("holds back households' values, and only those, while a store call writing their tables is under way", async () => {
    const { source } = testSource();
    const cache = readCache(source);
    const l = loader();
    await cache.read('session', l.load, () => true);
    await cache.read('state', l.load, () => true, 'a');
    const writer = { wrote: false, wroteCached: false, wroteHouseholds: false };
    cache.writing(writer, 'households');
    await cache.read('session', l.load, () => true);
    expect(l.loads(), 'the session stays in memory').to.equal(2);
    await cache.read('state', l.load, () => true, 'a');
    await cache.read('state', l.load, () => true, 'a');
    expect(l.loads(), "households' values from the database while the call runs").to.equal(4);
    expect(cache.settled(writer)).to.equal(null);
    expect(writer.wroteHouseholds).to.equal(false);
    await cache.read('state', l.load, () => true, 'a');
    await cache.read('state', l.load, () => true, 'a');
    expect(l.loads(), 'kept again once it ended').to.equal(5);
  });

  it("after a write of households' tables outside any store call, holds back only households' values until a sync", async () => {
    const { source, syncs } = testSource();
    const cache = readCache(source);
    const l = loader();
    await cache.read('session', l.load, () => true);
    await cache.read('state', l.load, () => true, 'a');
    cache.writing(undefined, 'households');
    await cache.read('session', l.load, () => true);
    await cache.read('state', l.load, () => true, 'a');
    await cache.read('state', l.load, () => true, 'a');
    expect(l.loads(), 'the session from memory, the state from the database').to.equal(4);
    const settled = cache.settled();
    expect(settled).to.not.equal(null);
    syncs.shift()!();
    await settled;
    expect(cache.settled(), 'nothing left to settle').to.equal(null);
    await cache.read('state', l.load, () => true, 'a');
    await cache.read('state', l.load, () => true, 'a');
    await cache.read('session', l.load, () => true);
    expect(l.loads(), 'kept again after the sync').to.equal(5);
  });

  it('reads again after its time to live, and lets the oldest go past its size', async () => {
    let now = 0;
    const { source } = testSource();
    const cache = readCache(source, { ttlMs: 1000, maxEntries: 2, now: () => now });
    const l = loader();
    await cache.read('a', l.load, () => true);
    now = 999;
    await cache.read('a', l.load, () => true);
    expect(l.loads()).to.equal(1);
    now = 1000;
    await cache.read('a', l.load, () => true);
    expect(l.loads()).to.equal(2);
    await cache.read('b', l.load, () => true);
    await cache.read('c', l.load, () => true); // 'a' (the oldest) goes
    await cache.read('c', l.load, () => true);
    await cache.read('b', l.load, () => true);
    expect(l.loads()).to.equal(4);
    await cache.read('a', l.load, () => true);
    expect(l.loads()).to.equal(5);
  });

  it('hands out kept values read-only, all the way down', async () => {
    const { source } = testSource();
    const cache = readCache(source);
    const value = await cache.read('k', async () => ({ account: { name: 'x' }, list: [{ role: 'Owner' }] }), () => true);
    expect(Object.isFrozen(value.account)).to.equal(true);
    expect(Object.isFrozen(value.list[0])).to.equal(true);
    expect(() => {
      (value.account as { name: string }).name = 'y';
    }).to.throw(TypeError);
  });

  it('knows what a statement may change of the cached values', () => {
    expect(scopeWritten('delete from "sessions" where "token_hash" = ?')).to.equal('all');
    expect(scopeWritten('update "accounts" set "security_stamp" = ?')).to.equal('all');
    expect(scopeWritten('insert into "household_members" ("id") values (?)')).to.equal('all');
    expect(scopeWritten('delete from "households" where "id" = ?')).to.equal('all');
    expect(scopeWritten('select * from "sessions" where "token_hash" = ?')).to.equal(null);
    // A new session or account is in no cached value; a new membership or merge is.
    expect(scopeWritten('insert into "sessions" ("token_hash", "account_id") values (?, ?)')).to.equal(null);
    expect(scopeWritten('insert into "accounts" ("id") values (?)')).to.equal(null);
    expect(scopeWritten('insert into "accounts" ("id") values (?) on conflict ("id") do update set "display_name" = ?')).to.equal('all');
    expect(scopeWritten('insert into "pantry_merges" ("household_id") values (?)')).to.equal('all');
    // Only households' values (a list's inputs and state): a new household is one of those, not in a session's.
    expect(scopeWritten('insert into "pantry_observations" ("id") values (?)')).to.equal('households');
    expect(scopeWritten('update "shopping_lists" set "version" = version + 1')).to.equal('households');
    expect(scopeWritten('insert into "households" ("id") values (?)')).to.equal('households');
    expect(scopeWritten('update "food_table_syncs" set "synced_at" = ?')).to.equal('households');
    expect(scopeWritten('select * from "pantry_observations" where "household_id" = ?')).to.equal(null);
  });
});

/** How many queries `fn` ran, as Server-Timing counts them. */
async function queriesOf<T>(fn: () => Promise<T>): Promise<{ value: T; queries: number }> {
  const metrics: RequestMetrics = { traceId: 't', spanId: 's', startedAt: process.hrtime.bigint(), dbMs: 0, dbQueries: 0, steps: [] };
  const value = await runWithMetrics(metrics, fn);
  return { value, queries: metrics.dbQueries };
}

/** Another process's change reaches this one by NOTIFY on Postgres: soon, not in the same instant. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within 3 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The Postgres listening connection is up (the cache answers a repeated read without a query). */
async function cacheAnswers(read: () => Promise<unknown>): Promise<void> {
  await eventually(async () => (await queriesOf(read)).queries === 0 && (await queriesOf(read)).queries === 0, 'the cache answering');
}

for (const kind of databaseKinds()) {
  describe(`read cache [${kind.name}]`, () => {
    const session = (accountId: string, securityStamp: string): Session => ({
      tokenHash: randomUUID().replace(/-/g, '').repeat(2),
      accountId,
      securityStamp,
      createdAt: at('2026-04-01T08:00:00.250Z'),
      expiresAt: at('2026-05-01T08:00:00.250Z'),
    });

    /** This process's stores and another's on the same database, with two households made by this one. */
    const withTwoProcesses = (run: (p: { s: ReturnType<typeof knexStores>; other: ReturnType<typeof knexStores>; h: { id: string }; elsewhere: { id: string } }) => Promise<void>) =>
      withTwoConnections(kind, async (a, b) => {
        const s = knexStores(a.knex);
        await run({ s, other: knexStores(b.knex), h: await ownedHousehold(s), elsewhere: await ownedHousehold(s) });
      });

    async function signedIn(db: Database) {
      const s = knexStores(db.knex);
      const account = await createdAccount(s);
      const input = session(account.id, account.securityStamp);
      await s.sessions.create(input);
      return { s, account, session: input };
    }

    it("answers a repeated session lookup from memory, and sees this process's own revocation at once", async () => {
      await withTwoConnections(kind, async (a) => {
        const { s, account, session: own } = await signedIn(a);
        await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
        const first = await queriesOf(() => s.sessions.lookup(own.tokenHash));
        expect(first.value?.account.id).to.equal(account.id);
        expect(first.queries).to.equal(0);
        await s.accounts.setSecurityStamp(account.id, 'rotated', at('2026-04-02T00:00:00Z'));
        const after = await queriesOf(() => s.sessions.lookup(own.tokenHash));
        expect(after.value?.account.securityStamp).to.equal('rotated');
        expect(after.queries, 'read from the database after the change').to.equal(1);
        await s.sessions.delete(own.tokenHash);
        expect(await s.sessions.lookup(own.tokenHash)).to.equal(null);
      });
    });

    it("sees another process's revocation, account change, membership change and pantry merge", async () => {
      await withTwoConnections(kind, async (a, b) => {
        const { s, account, session: own } = await signedIn(a);
        const other = knexStores(b.knex);
        const h = await ownedHousehold(other);
        await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
        await cacheAnswers(() => s.households.membershipsOf(account.id));
        expect(await s.households.membershipsOf(account.id)).to.deep.equal([]);

        await other.households.addMember(h.id, { id: randomUUID(), displayName: 'Kari', role: 'Adult', accountId: account.id, createdAt: at('2026-04-01T09:00:00Z') });
        const joined = async () => (await s.households.membershipsOf(account.id)).length === 1 && (await s.households.memberByAccount(h.id, account.id)) !== null;
        if (kind.name === 'sqlite') expect(await joined(), 'seen at once').to.equal(true);
        else await eventually(joined, 'the new membership');

        await other.accounts.setDisplayName(account.id, 'Kari N.', at('2026-04-02T00:00:00Z'));
        const renamed = async () => (await s.sessions.lookup(own.tokenHash))?.account.displayName === 'Kari N.';
        if (kind.name === 'sqlite') expect(await renamed(), 'seen at once').to.equal(true);
        else await eventually(renamed, 'the new name');

        await cacheAnswers(() => s.pantryMerges.activeMerges(h.id));
        await other.pantryMerges.merge({ householdId: h.id, fromKey: 'melk', toKey: 'lettmelk', fromDisplayName: 'Melk', toDisplayName: 'Lettmelk', mergedAt: at('2026-04-02T00:00:00Z') });
        const merged = async () => (await s.pantryMerges.activeMerges(h.id)).map((m) => m.fromKey).join() === 'melk';
        if (kind.name === 'sqlite') expect(await merged(), 'seen at once').to.equal(true);
        else await eventually(merged, 'the new merge');

        await other.sessions.delete(own.tokenHash);
        const revoked = async () => (await s.sessions.lookup(own.tokenHash)) === null;
        if (kind.name === 'sqlite') expect(await revoked(), 'seen at once').to.equal(true);
        else await eventually(revoked, 'the revocation');
      });
    });

    if (kind.name === 'sqlite') {
      it("checks once for a request under way: later reads of it answer as of that check, unless this process wrote since; the next request checks again", async () => {
        await withTwoConnections(kind, async (a, b) => {
          const { s, account, session: own } = await signedIn(a);
          const other = knexStores(b.knex);
          await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
          const arriving = (): RequestMetrics => ({ traceId: 't', spanId: 's', startedAt: process.hrtime.bigint(), dbMs: 0, dbQueries: 0, steps: [] });
          await runWithMetrics(arriving(), async () => {
            expect(await s.sessions.lookup(own.tokenHash), 'checked for this request').to.not.equal(null);
            // Another process renames the account while the request is under way: the request reads as of its check.
            await other.accounts.setDisplayName(account.id, 'Kari N.', at('2026-04-02T00:00:00Z'));
            expect((await s.sessions.lookup(own.tokenHash))?.account.displayName).to.equal(account.displayName);
            // This process writes: its own commit is read back at once.
            await s.accounts.setSecurityStamp(account.id, 'rotated', at('2026-04-02T00:00:00Z'));
            const after = await s.sessions.lookup(own.tokenHash);
            expect([after?.account.securityStamp, after?.account.displayName]).to.deep.equal(['rotated', 'Kari N.']);
          });
          await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
          // Another process revokes the session: the very next request does not get in.
          await other.sessions.delete(own.tokenHash);
          await runWithMetrics(arriving(), async () => expect(await s.sessions.lookup(own.tokenHash)).to.equal(null));
        });
      });
    }

    it("keeps what it holds when another process signs in (a new session changes no cached value)", async () => {
      await withTwoConnections(kind, async (a, b) => {
        const { s, account, session: own } = await signedIn(a);
        await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
        await cacheAnswers(() => s.households.membershipsOf(account.id));
        await knexStores(b.knex).sessions.create(session(account.id, account.securityStamp));
        await knexStores(b.knex).accounts.create(newAccount());
        // Time for a notification to arrive, were one sent (Postgres); SQLite sees the commit at once.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await queriesOf(() => s.sessions.lookup(own.tokenHash))).queries).to.equal(0);
        expect((await queriesOf(() => s.households.membershipsOf(account.id))).queries).to.equal(0);
      });
    });

    it("keeps a list's state per household: its own and another process's writes to the household's inputs are seen, another household's leave it", async () => {
      await withTwoProcesses(async ({ s, other, h, elsewhere }) => {
        const owner = (await s.households.byId(h.id))!.members[0]!.accountId!;
        const planId = randomUUID();
        const state = () => s.shoppingLists.state(h.id, planId, owner);
        await cacheAnswers(state);
        const observed = (householdId: string) => milkBought(randomUUID(), householdId, at('2026-05-04T09:00:00.123Z'));
        // This process's write: seen by the next read.
        const before = (await state()).householdRevision;
        await s.pantry.add(observed(h.id));
        const own = await queriesOf(state);
        expect(own.value.householdRevision).to.not.equal(before);
        expect(own.value.householdRevision).to.equal(await s.revisions.of(h.id));
        expect(own.queries, 'read from the database after the write').to.equal(1);
        // The same for the write POST observations makes (on Postgres one prepared statement, not sent through knex).
        await cacheAnswers(state);
        const beforeFood = (await state()).householdRevision;
        expect(await s.pantry.addToFoodLog({ ...observed(h.id), id: randomUUID() }, ['melk'])).to.have.length(2);
        const afterFood = await queriesOf(state);
        expect(afterFood.value.householdRevision).to.not.equal(beforeFood);
        expect(afterFood.value.householdRevision).to.equal(await s.revisions.of(h.id));
        expect(afterFood.queries, 'read from the database after the write').to.equal(1);
        // Another process's write, and its price sync.
        await cacheAnswers(state);
        await other.pantry.add(observed(h.id));
        const moved = async () => (await state()).householdRevision === (await other.revisions.of(h.id));
        if (kind.name === 'sqlite') expect(await moved(), 'seen at once').to.equal(true);
        else await eventually(moved, "the household's new revision");
        await other.foodTable.replaceAll([], at('2026-05-04T04:41:00.123Z'));
        const synced = async () => (await state()).foodTableSyncedAt?.getTime() === at('2026-05-04T04:41:00.123Z').getTime();
        if (kind.name === 'sqlite') expect(await synced(), 'seen at once').to.equal(true);
        else await eventually(synced, 'the food table sync');
        if (kind.name === 'postgres') {
          // Another household's write announces a change of that household only.
          await cacheAnswers(state);
          await other.pantry.add(observed(elsewhere.id));
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect((await queriesOf(state)).queries).to.equal(0);
        }
        // The caller leaves the household (another process): the kept state no longer lets it in.
        const member = (await s.households.byId(h.id))!.members[0]!;
        await cacheAnswers(state);
        await other.households.removeMember(h.id, member.id);
        const left = async () => !(await state()).member;
        if (kind.name === 'sqlite') expect(await left(), 'seen at once').to.equal(true);
        else await eventually(left, 'the removed membership');
      });
    });

    it("keeps a household's list, plan, weeks and events: its own and another process's writes to each are seen, another household's leave them", async () => {
      await withTwoProcesses(async ({ s, other, h, elsewhere }) => {
        const fresh = () => ({ planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
        const plan = await s.plans.getOrCreate(h.id, '2026-05-04', fresh());
        const reads = {
          list: () => s.shoppingLists.byPlan(h.id, plan.id),
          plan: () => s.plans.byId(h.id, plan.id),
          weeks: () => s.plans.weeksBetween(h.id, '2026-05-04', '2026-05-11'),
          events: () => s.events.eventsBetween(h.id, '2026-05-04', '2026-05-10'),
        };
        const allKept = async () => {
          for (const read of Object.values<() => Promise<unknown>>(reads)) await cacheAnswers(read);
        };
        const seen = async (check: () => Promise<boolean>, what: string) => {
          if (kind.name === 'sqlite') expect(await check(), `${what}, seen at once`).to.equal(true);
          else await eventually(check, what);
        };
        const listContent = (name: string) => ({
          generatedAt: at('2026-05-04T09:00:00.123Z'), completedAt: null, skippedReferences: [], addedReferences: [], trip: null, madeFor: {}, wouldAdd: [], staleSince: null,
          lines: [{
            id: randomUUID(), foodKey: name.toLowerCase(), displayName: name, requiredQuantity: 1, unit: 'pcs', extraQuantity: 0, status: 'Buy' as const, purchasedQuantity: 0, purchasedUnit: null,
            reasonCode: 'Manual' as const, haveQuantity: 0, relatedPlanEntryIds: [], isManual: true, addedAfterShopping: false, aisle: 'Dairy' as const, suggestedPrice: null,
            suggestedProductName: null, suggestedPriceSource: 'None' as const, suggestedPriceIsAggregate: false, tickNotified: false, preferenceFit: 'NotAssessed' as const,
          }],
        });
        const listed = (by: typeof s, name: string) => by.shoppingLists.change(h.id, plan.id, { listId: randomUUID() }, () => ({ write: listContent(name), result: null }));
        // This process's writes: seen by the next read, from the database.
        await allKept();
        await listed(s, 'Melk');
        const own = await queriesOf(reads.list);
        expect(own.value?.lines.map((l) => l.displayName)).to.deep.equal(['Melk']);
        expect(own.queries, 'read from the database after the write').to.be.above(0);
        await s.plans.setDay(h.id, plan.id, '2026-05-05', { recipeId: null, portionsOverride: 3, note: 'Taco' }, at('2026-05-01T01:00:00.000Z'));
        expect((await reads.plan())!.days[1]!.note).to.equal('Taco');
        expect((await reads.weeks())[0]!.days[1]!.note).to.equal('Taco');
        // Another process's writes: each kept value is read again.
        await allKept();
        await listed(other, 'Brød');
        await seen(async () => (await reads.list())?.lines[0]?.displayName === 'Brød', "the other process's list");
        await other.plans.setDay(h.id, plan.id, '2026-05-06', { recipeId: null, portionsOverride: null, note: 'Suppe' }, at('2026-05-01T02:00:00.000Z'));
        await seen(async () => (await reads.plan())!.days[2]!.note === 'Suppe', "the other process's day, by id");
        await seen(async () => (await reads.weeks())[0]!.days[2]!.note === 'Suppe', "the other process's day, in the weeks");
        const next = await other.plans.getOrCreate(h.id, '2026-05-11', fresh());
        await seen(async () => (await reads.weeks()).map((p) => p.id).join() === [plan.id, next.id].join(), "the other process's new week");
        await other.events.create([{
          id: randomUUID(), householdId: h.id, date: '2026-05-07', eventType: 'Custom', servingTime: null, availableCookingMinutes: null, notes: 'Besøk', participants: [],
          createdAt: at('2026-05-01T03:00:00.000Z'), updatedAt: at('2026-05-01T03:00:00.000Z'),
        }]);
        await seen(async () => (await reads.events()).map((e) => e.notes).join() === 'Besøk', "the other process's event");
        if (kind.name === 'postgres') {
          // Another household's writes leave this household's values kept.
          await allKept();
          await other.plans.getOrCreate(elsewhere.id, '2026-05-04', fresh());
          await new Promise((resolve) => setTimeout(resolve, 200));
          for (const read of Object.values<() => Promise<unknown>>(reads)) expect((await queriesOf(read)).queries).to.equal(0);
        }
      });
    });

    it('answers from memory again once a store call on a transaction’s stores (as the household import makes) has written a cached table and ended', async () => {
      await withTwoConnections(kind, async (a) => {
        const { s, session: own } = await signedIn(a);
        const h = await ownedHousehold(s);
        const lookup = () => s.sessions.lookup(own.tokenHash);
        await cacheAnswers(lookup);
        const member = (await s.households.byId(h.id))!.members[0]!;
        await a.knex.transaction(async (trx) => {
          expect(await knexStores(trx).households.updateMember(h.id, member.id, { displayName: 'Kari' })).to.not.equal(null);
        });
        // The write held the cache back while it was under way; its end lets it answer from memory again.
        await cacheAnswers(lookup);
        expect((await s.households.byId(h.id))!.members[0]!.displayName).to.equal('Kari');
      });
    });

    it('sees a change made without the stores (plain SQL on another connection, cascades included)', async () => {
      await withTwoConnections(kind, async (a, b) => {
        const { s, account, session: own } = await signedIn(a);
        await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
        // The account goes; its session goes with it by the foreign key's cascade.
        await b.knex.raw('delete from accounts where id = ?', [account.id]);
        const gone = async () => (await s.sessions.lookup(own.tokenHash)) === null;
        if (kind.name === 'sqlite') expect(await gone(), 'seen at once').to.equal(true);
        else await eventually(gone, 'the deleted account');
      });
    });

    if (kind.name === 'postgres') {
      it('counts a write of a cached table for the store call it ran under, in and out of a transaction', async () => {
        await withTwoConnections(kind, async (a) => {
          const { s, account, session: own } = await signedIn(a);
          const seen: (StoreCall | undefined)[] = [];
          const listener = (q: { sql: string }) => void (scopeWritten(q.sql) === 'all' && seen.push(currentStoreCall()));
          a.knex.on('query', listener);
          try {
            await s.sessions.delete(own.tokenHash);
            const h = await ownedHousehold(s); // a transaction: the household and its Owner
            await s.households.addMember(h.id, { id: randomUUID(), displayName: 'Kari', role: 'Adult', accountId: account.id, createdAt: at('2026-04-01T09:00:00Z') });
          } finally {
            a.knex.off('query', listener);
          }
          expect(seen.length).to.be.at.least(3);
          for (const call of seen) expect(call, 'the store call of the write').to.not.equal(undefined);
        });
      });

      it('answers nothing from memory once another connection found the database out of reach, until its listening connection has answered', async () => {
        await withTwoConnections(kind, async (a) => {
          const { s, session: own } = await signedIn(a);
          await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
          // A statement of this process met a refused connection: its listening connection may be just as dead and
          // not know it yet (its socket's close comes turns later, or never when packets are dropped).
          const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          expect(speedOf(a.knex).storeError(refused)).to.be.instanceOf(StoreUnavailableError);
          const next = await queriesOf(() => s.sessions.lookup(own.tokenHash));
          expect(next.queries, 'the very next read asks the database').to.equal(1);
          // A busy database is not an unreachable one: it does not stop the cache.
          await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
          expect(speedOf(a.knex).storeError(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).to.be.instanceOf(StoreBusyError);
          expect((await queriesOf(() => s.sessions.lookup(own.tokenHash))).queries).to.equal(0);
        });
      });

      it('stops answering from memory when its listening connection goes silent (packets dropped), and listens again once the network is back', async () => {
        const target = new URL(process.env['DATABASE_URL_PG']!);
        const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
        const via = new URL(target);
        via.hostname = '127.0.0.1';
        via.port = String(proxy.port);
        const cache = readCache(postgresTableChanges(via.toString(), undefined, { heartbeatMs: 100, answerWithinMs: 300 }));
        let loads = 0;
        const read = () => cache.read('k', async () => ++loads, () => true);
        const fromMemory = async () => {
          const before = loads;
          await read();
          await read();
          return loads === before;
        };
        try {
          await eventually(fromMemory, 'listening');
          proxy.freeze();
          // Nothing tells the connection it is cut off: its heartbeat goes unanswered.
          const frozenAt = Date.now();
          await eventually(async () => !(await fromMemory()), 'reading the database');
          expect(Date.now() - frozenAt, 'within heartbeat + answer time, with room').to.be.below(2000);
          expect(await fromMemory(), 'still reading the database').to.equal(false);
          await proxy.restore();
          await eventually(fromMemory, 'listening again');
        } finally {
          await cache.close();
          await proxy.close();
        }
      });

      it('reads the database while its listening connection is down, and caches again once it is back', async () => {
        await withTwoConnections(kind, async (a, b) => {
          const { s, session: own } = await signedIn(a);
          await cacheAnswers(() => s.sessions.lookup(own.tokenHash));
          const admin = knexFactory({ client: 'pg', connection: process.env['DATABASE_URL_PG'], pool: { min: 0, max: 1 } });
          try {
            const schema = (await a.knex.raw('select current_schema() as s')).rows[0].s as string;
            const killed = await admin.raw('select pg_terminate_backend(pid) from pg_stat_activity where application_name = ?', [`dinner-read-cache:${schema}`]);
            expect(killed.rows.length, 'listening connections found').to.be.at.least(1);
          } finally {
            await admin.destroy();
          }
          // Until it listens again, a change by another process would go unnoticed: nothing is answered from memory.
          await eventually(async () => (await queriesOf(() => s.sessions.lookup(own.tokenHash))).queries === 1, 'reading the database');
          await knexStores(b.knex).sessions.delete(own.tokenHash);
          expect(await s.sessions.lookup(own.tokenHash)).to.equal(null);
          const again = await signedIn(a);
          await cacheAnswers(() => again.s.sessions.lookup(again.session.tokenHash));
        });
      });
    }
  });
}
