import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import cron from 'node-cron';
import type { Knex } from 'knex';
import type { Database } from '../adapters/knex/database.js';
import type { Logger } from '../ports/logger.js';
import type { Runtime } from './runtime.js';
import { syncFoodTable } from '../core/food/sync.js';
import { deliverPending } from '../core/push/delivery.js';
import { buildDerivedFiles } from '../core/publicdata/derived-files.js';
import { purgeUnconfirmedDinnerPriceSubscribers } from '../core/publicdata/dinner-price-list.js';
import { mailDinnerPrices } from '../core/publicdata/dinner-price-monthly-mail.js';
import { measureDinnerPrices } from '../core/dinnerprices/measure.js';
import { publishDinnerPrices } from '../core/dinnerprices/publish.js';
import { purgeWaitlist } from '../core/waitlist/waitlist.js';
import { EXPIRED_KEPT_MS } from '../core/households/access-tokens.js';
import { observeJob, observePushes } from '../adapters/observability/prometheus.js';

export interface Job {
  readonly name: string;
  /** Postgres advisory-lock key (taken with the schema's): one per job, never reused, a 32-bit integer. */
  readonly lockKey: number;
  readonly cron: string;
  /**
   * The job claims each piece of its work in the database itself, so runs may overlap: on Postgres it runs without
   * the advisory lock and the transaction that holds it, and no transaction stays open while it talks to another
   * server (SMTP). Its tick is still claimed once, committed before the run, as on SQLite.
   */
  readonly claimsItsWork?: boolean;
  run(): Promise<void>;
}

/** An expired personal access token stays on its person's list a while (core/households/access-tokens.ts), then goes. */
const purgeExpiredAccessTokens = (runtime: Runtime): Job => ({
  name: 'purge-expired-access-tokens',
  lockKey: 7_100_051,
  cron: '37 * * * *',
  run: async () => {
    const n = await runtime.deps.accessTokens.deleteExpired(new Date(runtime.deps.clock.now().getTime() - EXPIRED_KEPT_MS));
    if (n > 0) runtime.logger.info('purged expired access tokens', { count: n });
  },
});

export function jobsOf(runtime: Runtime): Job[] {
  return [
    ...backupJobs(runtime),
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
      // An Idempotency-Key is kept for a day (adapters/http/idempotency.ts); a login's keys also go with it.
      name: 'forget-idempotency-keys',
      lockKey: 7_100_039,
      cron: '29 * * * *',
      run: async () => {
        const n = await runtime.deps.idempotency.forgetBefore(new Date(runtime.deps.clock.now().getTime() - 24 * 60 * 60 * 1000));
        if (n > 0) runtime.logger.info('forgot idempotency keys', { count: n });
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
    purgeExpiredAccessTokens(runtime),
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
    {
      // Hourly: the first run after the 06:00 publication mails the month that has just been published to every
      // confirmed address (core/publicdata/dinner-price-monthly-mail.ts); later runs send what the mail server
      // refused, and find nothing else to do until the next month. Not run by the publication job itself: that one
      // holds its lock's transaction open for its run.
      name: 'mail-dinner-prices',
      lockKey: 7_100_037,
      cron: '12 * * * *',
      claimsItsWork: true,
      run: async () => {
        const r = await mailDinnerPrices({ ...runtime.deps, mailer: runtime.mailer.direct });
        for (const f of r.refused) runtime.logger.warn('dinner-price mail refused', f);
        if (r.sent + r.refused.length > 0 || r.gaveUp) {
          runtime.logger.info('dinner prices mailed', { month: r.month, sent: r.sent, claimedElsewhere: r.claimedElsewhere, refused: r.refused.length, gaveUp: r.gaveUp });
        }
      },
    },
    {
      name: 'purge-unconfirmed-waitlist-addresses',
      lockKey: 7_100_036,
      cron: '47 * * * *',
      run: async () => {
        const { expired, forgotten } = await purgeWaitlist(runtime.deps);
        if (expired + forgotten > 0) runtime.logger.info('purged the waitlist', { expired, forgotten });
      },
    },
    {
      name: 'purge-job-runs',
      lockKey: 7_100_024,
      cron: '53 3 * * *',
      run: async () => {
        const n = await runtime.db.knex('job_runs').where('slot', '<', new Date(runtime.deps.clock.now().getTime() - JOB_RUNS_KEEP_MS).toISOString()).delete();
        if (n > 0) runtime.logger.info('purged old job runs', { rows: n });
      },
    },
    pushDeliveryJob(runtime),
    purgeMailOutboxJob(runtime),
  ];
}

/** Scheduled jobs run in the same process as the HTTP server. */
/**
 * Scheduled backups (config BACKUP_DIR): one a day at BACKUP_HOUR, once however many processes run (the tick's
 * claim), as `npm run backup` writes them (adapters/knex/backup/take.ts); the newest BACKUP_KEEP are kept.
 */
function backupJobs(runtime: Runtime): Job[] {
  const settings = runtime.config.backup;
  const database = runtime.config.database;
  if (!settings || (database.kind === 'sqlite' && database.filename === ':memory:')) return [];
  return [
    {
      name: 'backup',
      lockKey: 7_100_040,
      cron: `41 ${settings.hour} * * *`,
      run: async () => {
        mkdirSync(settings.dir, { recursive: true });
        const now = runtime.deps.clock.now();
        const to = join(settings.dir, `dinner-${now.toISOString().replace(/[:.]/g, '-')}.backup.gz`);
        const source = database.kind === 'sqlite' ? { kind: 'sqlite' as const, file: database.filename } : { kind: 'postgres' as const, url: database.url };
        // The backup code is loaded when a backup is due, not held by the idle server between nights.
        const { takeBackup } = await import('../adapters/knex/backup/take.js');
        const r = await takeBackup(source, to, now);
        const kept = readdirSync(settings.dir).filter((f) => /^dinner-.*\.backup\.gz$/.test(f)).sort();
        for (const old of kept.slice(0, Math.max(0, kept.length - settings.keep))) rmSync(join(settings.dir, old), { force: true });
        runtime.logger.info('backup written', { file: to, tables: r.tables, rows: r.rows, removed: Math.max(0, kept.length - settings.keep) });
      },
    },
  ];
}

export function scheduleJobs(runtime: Runtime): { stop(): void } {
  const tasks = jobsOf(runtime).map((job) =>
    // node-cron hands over the tick's scheduled time (not the moment its timer fired): the same slot in every process.
    cron.schedule(job.cron, (ctx) => void runExclusive(runtime.db, runtime.logger, job, slotOf(job.cron, ctx.date)), { name: job.name, noOverlap: true }),
  );
  return { stop: () => tasks.forEach((t) => void t.stop()) };
}

/** The tick a scheduled time belongs to: truncated to the cron's granularity (seconds with six fields, else minutes). */
export function slotOf(cronExpression: string, scheduled: Date): Date {
  const unit = cronExpression.trim().split(/\s+/).length >= 6 ? 1000 : 60_000;
  return new Date(Math.floor(scheduled.getTime() / unit) * unit);
}

/**
 * Runs a job unless another process is running it or has run this tick. On Postgres, a transaction-scoped
 * advisory lock keeps runs from overlapping; its key includes the schema, so deployments sharing one database in
 * schemas of their own never hold each other up. A scheduled tick (`slot`) is also claimed in job_runs, in the
 * lock's transaction: a process whose timer fires after another finished the tick finds the claim and skips, and a
 * run that fails rolls its claim back. SQLite is meant for one process, but a process of a rolling deploy may
 * overlap the one it replaces on the same file: the claim is taken there too, committed on its own before the run
 * (the one connection cannot be held in a transaction while the job uses it), so a tick is never run twice and a
 * failed one waits for the next tick. A job that claims its own work (`claimsItsWork`) is run the same way on
 * Postgres too: no lock, so a run by hand or a slow run may overlap another. Without a slot (a run by hand) nothing
 * is claimed. Answers whether this process ran it.
 */
export async function runExclusive(db: Database, logger: Logger, job: Job, slot?: Date): Promise<boolean> {
  let ran: boolean;
  const since = process.hrtime.bigint();
  const took = () => Number(process.hrtime.bigint() - since) / 1e9;
  try {
    if (db.kind !== 'postgres' || job.claimsItsWork) {
      ran = !slot || (await claimTick(db.knex, job, slot));
      if (ran) await job.run();
    } else {
      ran = await db.knex.transaction(async (trx: Knex.Transaction) => {
        const { rows } = (await trx.raw("select pg_try_advisory_xact_lock(hashtext(coalesce(current_schema(), '')), ?) as got", [job.lockKey])) as { rows: { got: boolean }[] };
        if (!rows[0]?.got) return false;
        // Under the lock no other claim of this tick is uncommitted, so the insert never waits for another run.
        if (slot && !(await claimTick(trx, job, slot))) return false;
        await job.run();
        return true;
      });
    }
  } catch (err) {
    logger.error('job failed', { job: job.name, err });
    observeJob(job.name, 'failed', took());
    return false;
  }
  observeJob(job.name, ran ? 'ran' : 'skipped', took());
  // Which process ran which tick, for an operator following a cluster (and the cluster tests).
  if (slot) logger.debug(ran ? 'scheduled job ran' : 'scheduled job skipped', { job: job.name, slot: slot.toISOString() });
  return ran;
}

/** Inserts the (job, slot) row; answers whether this call inserted it, i.e. whether the tick is this process's. */
async function claimTick(knex: Knex, job: Job, slot: Date): Promise<boolean> {
  const claimed = (await knex.raw('insert into job_runs (job, slot, claimed_at) values (?, ?, ?) on conflict (job, slot) do nothing returning job', [
    job.name,
    slot.toISOString(),
    new Date().toISOString(),
  ])) as { rows?: unknown[] } | unknown[];
  return (Array.isArray(claimed) ? claimed : claimed.rows!).length === 1;
}

const JOB_RUNS_KEEP_MS = 7 * 86_400_000;

const MAIL_KEEP_MS = 7 * 86_400_000;

/**
 * Delivered, given-up and dropped mails are kept a week (address, subject, times; their bodies were emptied), then
 * forgotten. Delivery itself is no job: each process delivers at once and on its sweep (adapters/mail/delivery-loop.ts).
 */
function purgeMailOutboxJob(runtime: Runtime): Job {
  return {
    name: 'purge-mail-outbox',
    lockKey: 7_100_050,
    cron: '7 * * * *',
    run: async () => {
      const n = await runtime.deps.mailOutbox.purge(new Date(runtime.deps.clock.now().getTime() - MAIL_KEEP_MS));
      if (n > 0) runtime.logger.info('purged finished mails', { rows: n });
    },
  };
}

const PUSH_KEEP_MS = 7 * 86_400_000;

/**
 * Push delivery every 10 s (node-cron's seconds field): a joined, item-added or receipt push is out within about
 * 10 s of its change, a burst of ticks once it has been quiet for a minute (core/push/delivery.ts). Each tick runs in
 * one process (runExclusive), and the rows a run claims stay its own until its lease lapses.
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
      observePushes(r);
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
