import cron from 'node-cron';
import type { Knex } from 'knex';
import type { Database } from '../adapters/knex/database.js';
import type { Logger } from '../ports/logger.js';
import type { Runtime } from './runtime.js';
import { syncFoodTable } from '../core/food/sync.js';
import { deliverPending } from '../core/push/delivery.js';
import { buildDerivedFiles } from '../core/publicdata/derived-files.js';
import { purgeUnconfirmedDinnerPriceSubscribers } from '../core/publicdata/dinner-price-list.js';
import { measureDinnerPrices } from '../core/dinnerprices/measure.js';
import { publishDinnerPrices } from '../core/dinnerprices/publish.js';

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
        // The public downloads follow the table they are built from (and the library of this build).
        for (const b of await buildDerivedFiles(runtime.deps)) runtime.logger.info('public data file built', { ...b });
      },
    },
    {
      // Weekly figures, triggered daily: the first run of an ISO week measures it (normally Monday's, after the
      // food table's sync), later runs find it measured, so a week missed while the service was down is caught up.
      name: 'measure-dinner-prices',
      lockKey: 7_100_021,
      cron: '0 5 * * *',
      run: async () => {
        const r = await measureDinnerPrices(runtime.deps);
        if (r.noRecipes) runtime.logger.warn('dinner prices not measured: the recipe library is empty', { week: r.week });
        else if (r.measured.length > 0) runtime.logger.info('dinner prices measured', { week: r.week, householdTypes: r.measured });
      },
    },
    {
      // Monthly figures, triggered daily: the files change (and are rewritten) only once a month has ended.
      name: 'publish-dinner-prices',
      lockKey: 7_100_022,
      cron: '0 6 * * *',
      run: async () => {
        const r = await publishDinnerPrices(runtime.deps);
        if (r.changed) runtime.logger.info('dinner prices published', { months: r.months });
      },
    },
    {
      name: 'purge-unconfirmed-dinner-price-addresses',
      lockKey: 7_100_023,
      cron: '37 * * * *',
      run: async () => {
        const { expired, forgotten } = await purgeUnconfirmedDinnerPriceSubscribers(runtime.deps);
        if (expired + forgotten > 0) runtime.logger.info('purged the dinner-price list', { expired, forgotten });
      },
    },
    pushDeliveryJob(runtime),
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

const PUSH_KEEP_MS = 7 * 86_400_000;

/**
 * Push delivery every 10 s (node-cron's seconds field): a joined, item-added or receipt push is out within about
 * 10 s of its change, a burst of ticks once it has been quiet for a minute (core/push/delivery.ts). On Postgres the
 * advisory lock keeps other processes out of a run, and the rows a run claims stay its own until its lease lapses.
 * Once an hour the run also forgets deliveries and outbox entries finished a week ago.
 */
function pushDeliveryJob(runtime: Runtime): Job {
  let purgedAt = 0;
  return {
    name: 'deliver-pushes',
    lockKey: 7_100_019,
    cron: '*/10 * * * * *',
    run: async () => {
      const r = await deliverPending(runtime.deps, { batch: 100 });
      for (const f of r.failed) runtime.logger.warn('push given up', f);
      for (const f of r.handOverFailed) runtime.logger.error('push hand-over failed', f);
      if (r.handedOver + r.sent + r.retried + r.dropped + r.gone + r.failed.length > 0) {
        runtime.logger.info('pushes delivered', { handedOver: r.handedOver, queued: r.queued, sent: r.sent, retried: r.retried, dropped: r.dropped, gone: r.gone, failed: r.failed.length });
      }
      const now = runtime.deps.clock.now().getTime();
      if (now - purgedAt >= 3_600_000) {
        purgedAt = now;
        const purged = await runtime.deps.pushDeliveries.purge(new Date(now - PUSH_KEEP_MS));
        if (purged > 0) runtime.logger.info('purged finished pushes', { rows: purged });
      }
    },
  };
}
