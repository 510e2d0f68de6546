import cron from 'node-cron';
import type { Knex } from 'knex';
import type { Database } from '../adapters/knex/database.js';
import type { Logger } from '../ports/logger.js';
import type { Runtime } from './runtime.js';
import { syncFoodTable } from '../core/food/sync.js';

export interface Job {
  readonly name: string;
  /** Postgres advisory-lock key: one per job, never reused. */
  readonly lockKey: number;
  readonly cron: string;
  run(): Promise<void>;
}

export function jobsOf(runtime: Runtime): Job[] {
  return [
    {
      name: 'purge-expired-sessions',
      lockKey: 7_100_001,
      cron: '17 * * * *',
      run: async () => {
        const n = await runtime.deps.sessions.deleteExpired(runtime.deps.clock.now());
        if (n > 0) runtime.logger.info('purged expired sessions', { count: n });
      },
    },
    {
      name: 'purge-expired-sign-in-state',
      lockKey: 7_100_002,
      cron: '23 * * * *',
      run: async () => {
        const now = runtime.deps.clock.now();
        const tokens = await runtime.deps.accountTokens.deleteExpired(now);
        const counts = await runtime.deps.loginThrottle.purge(now, runtime.deps.lockout.windowMs);
        const flows = await runtime.deps.signInFlows.deleteExpired(now);
        const codes = await runtime.deps.signInCodes.deleteExpired(now);
        if (tokens + counts + flows + codes > 0) runtime.logger.info('purged expired sign-in state', { tokens, counts, flows, codes });
      },
    },
    {
      name: 'sync-food-table',
      lockKey: 7_100_013,
      cron: '41 4 * * *',
      run: async () => {
        const result = await syncFoodTable(runtime.deps);
        runtime.logger.info('food table synced', result);
      },
    },
  ];
}

/** Scheduled jobs run in the same process as the HTTP server. */
export function scheduleJobs(runtime: Runtime): { stop(): void } {
  const tasks = jobsOf(runtime).map((job) =>
    cron.schedule(job.cron, () => void runExclusive(runtime.db, runtime.logger, job), { name: job.name, noOverlap: true }),
  );
  return { stop: () => tasks.forEach((t) => void t.stop()) };
}

/**
 * Runs a job unless another process is running it: on Postgres under a transaction-scoped advisory lock, so when
 * several processes share one database exactly one of them does each run. SQLite is one process. Answers
 * whether this process ran it.
 */
export async function runExclusive(db: Database, logger: Logger, job: Job): Promise<boolean> {
  try {
    if (db.kind !== 'postgres') {
      await job.run();
      return true;
    }
    return await db.knex.transaction(async (trx: Knex.Transaction) => {
      const { rows } = (await trx.raw('select pg_try_advisory_xact_lock(?) as got', [job.lockKey])) as { rows: { got: boolean }[] };
      if (!rows[0]?.got) return false;
      await job.run();
      return true;
    });
  } catch (err) {
    logger.error('job failed', { job: job.name, err });
    return false;
  }
}
