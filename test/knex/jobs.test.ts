import { expect } from 'chai';
import { runExclusive, type Job } from '../../bootstrap/jobs.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';
import { captureLog } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`scheduled jobs [${kind.name}]`, () => {
    it('runs a job, and only once at a time when processes share the database', async () => {
      const log = captureLog();
      await withTwoConnections(kind, async (a, b) => {
        let runs = 0;
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const slow: Job = { name: 'test-job', lockKey: 9_900_001, cron: '* * * * *', run: async () => { runs++; await gate; } };
        const first = runExclusive(a, log.logger, slow);
        await new Promise((r) => setTimeout(r, 200));
        if (kind.name === 'postgres') {
          // The second "process" finds the lock taken and skips this run.
          expect(await runExclusive(b, log.logger, slow)).to.equal(false);
          release();
          expect(await first).to.equal(true);
          expect(runs).to.equal(1);
          // The lock went with the first run's transaction.
          expect(await runExclusive(b, log.logger, { ...slow, run: async () => void runs++ })).to.equal(true);
          expect(runs).to.equal(2);
        } else {
          release();
          expect(await first).to.equal(true);
          expect(runs).to.equal(1);
        }
      });
    });

    it('logs a failing job instead of crashing the process', async () => {
      const database = await kind.create();
      const db = await database.open();
      const log = captureLog();
      try {
        const failing: Job = { name: 'failing', lockKey: 9_900_002, cron: '* * * * *', run: async () => { throw new Error('boom'); } };
        expect(await runExclusive(db, log.logger, failing)).to.equal(false);
        expect(log.lines.some((l) => l['msg'] === 'job failed' && l['job'] === 'failing')).to.equal(true);
      } finally {
        await db.close();
        await database.cleanup();
      }
    });
  });
}
