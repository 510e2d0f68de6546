/**
 * Postgres' statement time limit (DATABASE_QUERY_TIMEOUT_MS, adapters/knex/database.ts): a statement with no answer
 * within it fails as the database out of reach (503 store_unavailable at the HTTP edge), and the connection it left
 * waiting is not handed out again, so the next statement does not queue behind it. Migrations run without the limit.
 * The fault suite (test/faults/unreachable.fault.ts) shows the same through a network gone silent.
 */
import { expect } from 'chai';
import knexFactory from 'knex';
import { isUnavailable } from '../../adapters/knex/store-error.js';
import { databaseKinds, withDatabase } from '../support/databases.js';

const postgres = databaseKinds().find((k) => k.name === 'postgres');

(postgres ? describe : describe.skip)('Postgres statement time limit [postgres]', function () {
  this.timeout(20_000);
  const LIMIT_MS = 300;

  it('a statement unanswered within the limit fails as unreachable, and the next one gets a connection that answers', () =>
    withDatabase(
      postgres!,
      async (db) => {
        // One connection in the pool, warm.
        expect(((await db.knex.raw('select 1 as one')) as { rows: { one: number }[] }).rows[0]!.one).to.equal(1);
        const t0 = performance.now();
        const err = await db.knex.raw('select pg_sleep(2)').then(
          () => null,
          (e: unknown) => e,
        );
        const waited = performance.now() - t0;
        expect(err, 'the sleep outlasted the limit').to.be.instanceOf(Error);
        expect(isUnavailable(err), String(err)).to.equal(true);
        expect(waited).to.be.within(LIMIT_MS - 50, 1500);
        // The sleeping connection is still busy for more than a second (its pg_sleep(2) ends 1.7 s from here): a
        // statement queued behind it would wait that long, or out the limit. It answers on another connection instead;
        // the bound tells the two apart with room for a loaded machine (a run under load took 517 ms).
        const t1 = performance.now();
        expect(((await db.knex.raw('select 2 as two')) as { rows: { two: number }[] }).rows[0]!.two).to.equal(2);
        expect(performance.now() - t1).to.be.below(1200);
        // A statement within the limit is untouched.
        await db.knex.raw('select pg_sleep(0.05)');
      },
      { queryTimeoutMs: LIMIT_MS },
    ));

  it('migrations run without the limit: a process waiting for another to finish migrating still starts', async () => {
    const database = await postgres!.create({ empty: true });
    // Another process migrating: the lock the migrations take, held longer than the limit.
    const other = knexFactory({ client: 'pg', connection: database.target.kind === 'postgres' ? database.target.url : '', pool: { min: 0, max: 1 } });
    try {
      const held = other.transaction(async (trx) => {
        await trx.raw("select pg_advisory_xact_lock(hashtext(?), 7100000)", [database.schema!]);
        await trx.raw('select pg_sleep(?)', [(3 * LIMIT_MS) / 1000]);
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const t0 = performance.now();
      const db = await database.open({ queryTimeoutMs: LIMIT_MS });
      try {
        expect(performance.now() - t0, 'it waited for the lock').to.be.above(LIMIT_MS);
        expect(await db.readiness()).to.deep.equal({ ready: true });
      } finally {
        await db.close();
      }
      await held;
    } finally {
      await other.destroy();
      await database.cleanup();
    }
  });
});
