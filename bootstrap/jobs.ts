import cron from 'node-cron';
import type { Knex } from 'knex';
import type { Runtime } from './runtime.js';

/**
 * Scheduled jobs run in the same process as the server. On Postgres each run takes a transaction-scoped
 * advisory lock first, so when several processes share one database only one of them does the work.
 */
export function scheduleJobs(runtime: Runtime): { stop(): void } {
  const tasks = [
    cron.schedule('17 * * * *', () => runExclusive(runtime, 'purge-expired-sessions', async () => {
      const n = await runtime.deps.sessions.deleteExpired(runtime.deps.clock.now());
      if (n > 0) runtime.logger.info('purged expired sessions', { count: n });
    })),
  ];
  return { stop: () => tasks.forEach((t) => t.stop()) };
}

const lockIds: Record<string, number> = { 'purge-expired-sessions': 7_100_001 };

export async function runExclusive(runtime: Runtime, job: string, work: () => Promise<void>): Promise<boolean> {
  try {
    if (runtime.db.kind !== 'postgres') {
      await work();
      return true;
    }
    return await runtime.db.knex.transaction(async (trx: Knex.Transaction) => {
      const { rows } = (await trx.raw('select pg_try_advisory_xact_lock(?) as got', [lockIds[job] ?? 7_100_000])) as { rows: { got: boolean }[] };
      if (!rows[0]?.got) return false;
      await work();
      return true;
    });
  } catch (err) {
    runtime.logger.error('job failed', { job, err });
    return false;
  }
}
