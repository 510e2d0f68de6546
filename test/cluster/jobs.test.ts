/**
 * A scheduled tick runs once across processes (bootstrap/jobs.ts runExclusive with a slot): two connections to
 * one database stand for two processes firing the same job at the same tick.
 */
import { expect } from 'chai';
import knexFactory from 'knex';
import { jobsOf, runExclusive, slotOf, type Job } from '../../bootstrap/jobs.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';
import { captureLog, startTestServer } from '../support/server.js';

const T0 = Date.parse('2031-03-03T10:00:00Z');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('slotOf', () => {
  it('truncates to the second for a six-field cron and to the minute for a five-field one', () => {
    const at = new Date('2031-03-03T10:07:13.456Z');
    expect(slotOf('*/10 * * * * *', at).toISOString()).to.equal('2031-03-03T10:07:13.000Z');
    expect(slotOf('17 * * * *', at).toISOString()).to.equal('2031-03-03T10:07:00.000Z');
  });
});

for (const kind of databaseKinds()) {
  describe(`scheduled ticks run once across processes [${kind.name}]`, function () {
    this.timeout(60_000);

    it('of two processes firing the same tick at once, many times, exactly one runs each tick; every later tick runs again', async () => {
      const log = captureLog();
      await withTwoConnections(kind, async (a, b) => {
        const runsPerSlot = new Map<string, number>();
        let current = '';
        const job = (process: string): Job => ({
          name: 'tick-test',
          lockKey: 9_900_101,
          cron: '*/10 * * * * *',
          run: async () => {
            runsPerSlot.set(current, (runsPerSlot.get(current) ?? 0) + 1);
            // A short, uneven body: sometimes one process is done before the other tries.
            await pause(process === 'a' ? 0 : 3);
          },
        });
        const ticks = 40;
        for (let i = 0; i < ticks; i++) {
          const slot = new Date(T0 + i * 10_000);
          current = slot.toISOString();
          // Both fire; then a's timer fires late, after the tick was run (the case the lock alone let through).
          const [ranA, ranB] = await Promise.all([runExclusive(a, log.logger, job('a'), slot), runExclusive(b, log.logger, job('b'), slot)]);
          const late = await runExclusive(a, log.logger, job('a'), slot);
          expect([ranA, ranB, late].filter(Boolean), `tick ${current}`).to.have.length(1);
        }
        expect(log.lines.filter((l) => l['level'] === 'error'), 'no job failed').to.deep.equal([]);
        expect([...runsPerSlot.keys()]).to.have.length(ticks);
        for (const [slot, n] of runsPerSlot) expect(n, `runs of ${slot}`).to.equal(1);
        // Each run left its claim, and the debug line says which tick ran.
        const rows = (await a.knex('job_runs').where({ job: 'tick-test' }).count({ n: '*' })) as { n: number | string }[];
        expect(Number(rows[0]!.n)).to.equal(ticks);
        expect(log.lines.filter((l) => l['msg'] === 'scheduled job ran')).to.have.length(ticks);
        expect(log.lines.filter((l) => l['msg'] === 'scheduled job skipped')).to.have.length(2 * ticks);
      });
    });

    it('a tick already run is skipped by a process firing it later; the next tick runs there', async () => {
      const log = captureLog();
      await withTwoConnections(kind, async (a, b) => {
        let runs = 0;
        const job: Job = { name: 'late-test', lockKey: 9_900_102, cron: '17 * * * *', run: async () => void runs++ };
        const slot = slotOf(job.cron, new Date(T0 + 17 * 60_000 + 250));
        expect(await runExclusive(a, log.logger, job, slot)).to.equal(true);
        expect(await runExclusive(b, log.logger, job, slot)).to.equal(false);
        expect(await runExclusive(b, log.logger, job, slotOf(job.cron, new Date(T0 + 17 * 60_000 + 999)))).to.equal(false);
        expect(runs).to.equal(1);
        expect(await runExclusive(b, log.logger, job, new Date(slot.getTime() + 3_600_000))).to.equal(true);
        expect(runs).to.equal(2);
        // A run by hand (no slot) is not a tick: it claims nothing and always runs.
        expect(await runExclusive(b, log.logger, job)).to.equal(true);
        expect(await runExclusive(a, log.logger, job)).to.equal(true);
        expect(runs).to.equal(4);
      });
    });

    it(kind.name === 'postgres' ? 'a failed tick gives its claim back, so another process may run it' : 'a failed tick keeps its claim (one process: the next tick runs)', async () => {
      const log = captureLog();
      await withTwoConnections(kind, async (a, b) => {
        const slot = new Date(T0);
        const failing: Job = { name: 'fail-test', lockKey: 9_900_103, cron: '* * * * *', run: async () => { throw new Error('boom'); } };
        expect(await runExclusive(a, log.logger, failing, slot)).to.equal(false);
        expect(log.lines.some((l) => l['msg'] === 'job failed' && l['job'] === 'fail-test')).to.equal(true);
        let runs = 0;
        const ran = await runExclusive(b, log.logger, { ...failing, run: async () => void runs++ }, slot);
        expect(ran).to.equal(kind.name === 'postgres');
        expect(runs).to.equal(kind.name === 'postgres' ? 1 : 0);
      });
    });

    it('a job that claims its own work runs each tick once but holds no lock: runs by hand overlap it and each other', async () => {
      const log = captureLog();
      await withTwoConnections(kind, async (a, b) => {
        let running = 0;
        let most = 0;
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const job: Job = {
          name: 'claims-test',
          lockKey: 9_900_106,
          cron: '* * * * *',
          claimsItsWork: true,
          run: async () => {
            most = Math.max(most, ++running);
            await gate;
            running--;
          },
        };
        const slot = new Date(T0);
        const ticks = Promise.all([runExclusive(a, log.logger, job, slot), runExclusive(b, log.logger, job, slot)]);
        const byHand = Promise.all([runExclusive(a, log.logger, job), runExclusive(b, log.logger, job)]);
        for (let i = 0; i < 100 && running < 3; i++) await pause(20);
        release();
        expect((await ticks).filter(Boolean), 'the tick').to.have.length(1);
        expect(await byHand).to.deep.equal([true, true]);
        expect(most, 'runs at once').to.equal(3);
      });
    });

    it('purge-job-runs forgets the claims of ticks over a week old', async () => {
      const server = await startTestServer(kind);
      try {
        const { db, logger } = server.runtime;
        const now = server.runtime.deps.clock.now().getTime();
        const noop: Job = { name: 'purge-test', lockKey: 9_900_104, cron: '* * * * *', run: async () => {} };
        const old = new Date(Math.floor((now - 8 * 86_400_000) / 60_000) * 60_000);
        const recent = new Date(Math.floor((now - 6 * 86_400_000) / 60_000) * 60_000);
        expect(await runExclusive(db, logger, noop, old)).to.equal(true);
        expect(await runExclusive(db, logger, noop, recent)).to.equal(true);
        const purge = jobsOf(server.runtime).find((j) => j.name === 'purge-job-runs')!;
        expect(await runExclusive(db, logger, purge)).to.equal(true);
        const left = (await db.knex('job_runs').where({ job: 'purge-test' }).select('slot')) as { slot: Date | string }[];
        expect(left.map((r) => new Date(r.slot).toISOString())).to.deep.equal([recent.toISOString()]);
        // The old tick, forgotten, could be claimed again; it is a week past any process's timer, so none does.
      } finally {
        await server.stop();
      }
    });

    if (kind.name === 'postgres') {
      it("the advisory lock is the schema's: a run in another schema is not held up, one in the same schema is", async () => {
        const first = await kind.create();
        const second = await kind.create();
        const a = await first.open();
        const b = await first.open();
        const other = await second.open();
        const log = captureLog();
        const pg = knexFactory({ client: 'pg', connection: process.env['DATABASE_URL_PG']!, pool: { min: 0, max: 1 } });
        try {
          let release!: () => void;
          const gate = new Promise<void>((r) => (release = r));
          const slow: Job = { name: 'lock-test', lockKey: 9_900_105, cron: '* * * * *', run: () => gate };
          const running = runExclusive(a, log.logger, slow);
          // The lock is (hash of the schema, the job's key), held by a's transaction.
          let held: { classid: string; objid: string; objsubid: number; expected: number }[] = [];
          for (let i = 0; i < 50 && held.length === 0; i++) {
            held = (
              await pg.raw(
                `select classid::text, objid::text, objsubid, hashtext(?) as expected from pg_locks
                 where locktype = 'advisory' and objsubid = 2 and objid::bigint = ? and granted`,
                [first.schema!, slow.lockKey],
              )
            ).rows;
            if (held.length === 0) await pause(20);
          }
          expect(held, 'the lock is taken').to.have.length(1);
          // pg_locks shows the first key as an unsigned 32-bit oid.
          expect(Number(held[0]!.classid)).to.equal(held[0]!.expected >>> 0);
          let otherRuns = 0;
          expect(await runExclusive(other, log.logger, { ...slow, run: async () => void otherRuns++ }), 'another schema').to.equal(true);
          expect(otherRuns).to.equal(1);
          expect(await runExclusive(b, log.logger, { ...slow, run: async () => {} }), 'the same schema').to.equal(false);
          release();
          expect(await running).to.equal(true);
        } finally {
          await pg.destroy();
          await a.close();
          await b.close();
          await other.close();
          await first.cleanup();
          await second.cleanup();
        }
      });
    }
  });
}
