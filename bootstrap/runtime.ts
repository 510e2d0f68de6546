import type Koa from 'koa';
import type { Config } from '../config/config.js';
import { createHttpApp } from '../adapters/http/app.js';
import { webApp } from '../adapters/http/web-app.js';
import { docsAssets } from '../adapters/http/docs-assets.js';
import { atFirstUse } from '../adapters/first-use.js';
import type { RouteSettings, ServiceDeps } from '../adapters/http/deps.js';
import type { AnyRoute } from '../adapters/http/route.js';
import { accountRoutes } from '../adapters/http/routes/accounts.js';
import { afterAnswerQueue } from '../adapters/http/after-answer.js';
import { docsRoutes } from '../adapters/http/routes/docs.js';
import { householdRoutes } from '../adapters/http/routes/households.js';
import { planRoutes } from '../adapters/http/routes/plans.js';
import { leftoversRoutes } from '../adapters/http/routes/leftovers.js';
import { plannerRoutes } from '../adapters/http/routes/planner.js';
import { recipeRoutes } from '../adapters/http/routes/recipes.js';
import { HOUSEHOLD_SCHEMA_PATH, householdJsonSchema, householdTransferRoutes } from '../adapters/http/routes/household-transfer.js';
import { eventRoutes } from '../adapters/http/routes/events.js';
import { pantryInventoryRoutes } from '../adapters/http/routes/pantry-inventory.js';
import { pantryMergeRoutes } from '../adapters/http/routes/pantry-merges.js';
import { referenceRoutes } from '../adapters/http/routes/reference.js';
import { feedbackRoutes } from '../adapters/http/routes/feedback.js';
import { socialRoutes } from '../adapters/http/routes/social.js';
import { signInProviders } from '../adapters/oidc/providers.js';
import { systemRoutes } from '../adapters/http/routes/system.js';
import { receiptRoutes } from '../adapters/http/routes/receipts.js';
import { shoppingRoutes } from '../adapters/http/routes/shopping.js';
import { aisleOrderRoutes } from '../adapters/http/routes/aisle-order.js';
import { dinnerRuleRoutes } from '../adapters/http/routes/dinner-rules.js';
import { pushDeviceRoutes } from '../adapters/http/routes/push-devices.js';
import { createPushSenders } from '../adapters/push/index.js';
import { calendarRoutes } from '../adapters/http/routes/calendar.js';
import { dinnerCalendarRoutes } from '../adapters/http/routes/dinner-calendar.js';
import { billingRoutes } from '../adapters/http/routes/billing.js';
import { mcpRoutes } from '../adapters/http/routes/mcp.js';
import { dinnerPriceListRoutes } from '../adapters/http/routes/dinner-price-list.js';
import { dinnerPriceRoutes } from '../adapters/http/routes/dinner-prices.js';
import { waitlistRoutes } from '../adapters/http/routes/waitlist.js';
import { syncFoodTableIfEmpty } from '../core/food/sync.js';
import { ensureDerivedFiles } from '../core/publicdata/derived-files.js';
import { publicDataRoutes } from '../adapters/http/routes/public-data.js';
import { openDatabase, type Database } from '../adapters/knex/database.js';
import { jsonLogger } from '../adapters/log/json-logger.js';
import { flexibleRateLimiter } from '../adapters/ratelimit/rate-limiter.js';
import { createRecipePageReader, recipeFetchUserAgent } from '../adapters/recipe-import/reader.js';
import { buildCommit, buildVersion } from './version.js';
import { recipeImportRoutes } from '../adapters/http/routes/recipe-import.js';
import { takeAiCall } from '../core/plans/planner-ai.js';
import { ingredientLineRoutes } from '../adapters/http/routes/ingredient-lines.js';
import { liveRoutes } from '../adapters/http/routes/live.js';
import { signInRoutes } from '../adapters/http/routes/sign-ins.js';
import { accessTokenRoutes } from '../adapters/http/routes/access-tokens.js';
import { liveStreams, type LiveStreams } from '../core/households/live.js';
import type { Logger } from '../ports/logger.js';
import type { Mailer } from '../ports/mailer.js';
import { databaseDeps, type DepsOverrides } from './deps.js';
import { mailDeliveryLoop } from '../adapters/mail/delivery-loop.js';
import { queueingMailer } from '../core/mail/queue.js';
import { outboxMailer } from '../adapters/mail/outbox.js';
import { smtpMailer } from '../adapters/mail/smtp.js';
import { anyOf, offlineBreachedPasswords, rangeApiBreachedPasswords } from '../adapters/passwords/breached-passwords.js';
import { boundedHasher } from '../adapters/passwords/bounded-hasher.js';
import { HASH_THREAD_NICE, lowPriorityThreads } from '../adapters/passwords/low-priority-threads.js';
import { argon2Hasher, OWASP_ARGON2ID } from '../adapters/crypto/argon2-hasher.js';

export interface Runtime {
  readonly config: Config;
  readonly app: Koa;
  readonly db: Database;
  readonly deps: ServiceDeps;
  readonly logger: Logger;
  readonly routes: readonly AnyRoute[];
  /**
   * Mails wait in the mail outbox (database) and go out from the delivery loop, some from work done after an answer;
   * drain() waits for that work and delivers what is due (not what waits for a retry). `direct` sends without the
   * outbox: it answers once the mail server accepted a mail and throws when it refused it, for jobs that record
   * what was sent (the monthly dinner-price mail).
   */
  readonly mailer: { drain(): Promise<void>; readonly direct: Mailer };
  /** The open live streams (GET /api/v1/me/changes), ended before the server stops. */
  readonly live: LiveStreams;
  close(): Promise<void>;
}

export interface RuntimeOptions extends DepsOverrides {
  logger?: Logger;
  /** Postgres schema to work in (tests). */
  schema?: string;
}

/** The database of the config, migrated; closed again when the migrations fail. */
async function migratedDatabase(config: Config, options: RuntimeOptions) {
  const db = openDatabase(config.database, {
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    queryTimeoutMs: config.postgresQueryTimeoutMs,
    ...(options.schema ? { schema: options.schema } : {}),
  });
  try {
    await db.migrate();
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/**
 * argon2 shares the CPU with the event loop: a bounded number at once (PASSWORD_HASH_CONCURRENCY), on threads of
 * lower priority that each work at most PASSWORD_HASH_CPU_PERCENT of the time, so a burst of sign-ins cannot hold
 * up the requests being served (W7 in docs/performance.md).
 */
function passwordHasher(config: Config) {
  const hashThreads = config.passwordHashConcurrency;
  const hashEngine = lowPriorityThreads({ threads: hashThreads, nice: HASH_THREAD_NICE, cpuShare: config.passwordHashCpuPercent / 100 });
  return boundedHasher(argon2Hasher(OWASP_ARGON2ID, hashEngine), hashThreads);
}

/** What must hold before the server listens; a failure is logged, and the scheduled jobs or the next start try again. */
async function prepareData(deps: ServiceDeps, logger: Logger): Promise<void> {
  // A fresh install gets the embedded food table at once.
  try {
    if (await syncFoodTableIfEmpty(deps)) logger.info('food table synced at start', { products: await deps.foodTable.count() });
  } catch (err) {
    logger.warn('food table sync at start failed', { err });
  }
  // The public downloads: the library always ("always 200"), the food db only after a sync.
  try {
    for (const b of await ensureDerivedFiles(deps)) if (b.state === 'written') logger.info('public data file built', { ...b });
  } catch (err) {
    logger.warn('public data files at start failed', { err });
  }
}

/** The composition root: config in, a migrated database and a ready Koa app out. */
export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? jsonLogger(config.logLevel);
  const db = await migratedDatabase(config, options);
  const smtp = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : null;
  const direct = smtp ?? outboxMailer(config.outboxDir, config.mailFrom, logger);
  // The use cases' mailer writes to the outbox and wakes the delivery loop: both are made once the stores are.
  let queue: Mailer | undefined;
  const mailer: Mailer = { send: (mail) => queue!.send(mail) };
  const breached = config.pwnedRangeApiUrl
    ? anyOf(offlineBreachedPasswords(), rangeApiBreachedPasswords(config.pwnedRangeApiUrl, logger))
    : offlineBreachedPasswords();
  // The push providers from config, unless the caller brings its own (tests: recording senders).
  const pushSenders = options.push ? null : createPushSenders(config.push, { logger, ...(options.clock ? { clock: options.clock } : {}) });
  // options.mailer (tests) stands in for the mail server behind the outbox, not for the outbox.
  const deps = databaseDeps(db, config, { breached, hasher: passwordHasher(config), ...options, mailer, push: options.push ?? pushSenders! });
  const delivery = mailDeliveryLoop({ ...deps, transport: options.mailer ?? direct }, { logger, sweepMs: config.mailSweepMs });
  queue = queueingMailer(deps, () => delivery.wake());
  await prepareData(deps, logger);
  const afterAnswer = afterAnswerQueue(logger);
  const version = buildVersion();
  const settings: RouteSettings = {
    publicBaseUrl: config.publicBaseUrl,
    version,
    buildId: config.buildId ?? buildCommit() ?? 'unknown',
    appVersionFloor: config.appVersionFloor,
    appVersionLatest: config.appVersionLatest,
    logger,
    afterAnswer,
    readiness: () => db.readiness(),
  };
  const rateLimiter = flexibleRateLimiter(config.rateLimits, db.kind === 'postgres' ? { kind: 'postgres', knex: db.knex } : { kind: 'memory' }, logger);
  const recipeImport = {
    households: deps.households,
    recipePages: createRecipePageReader({
      allowHosts: config.outboundAllowHosts,
      timeoutMs: config.recipeImport.timeoutMs,
      maxBytes: config.recipeImport.maxBytes,
      userAgent: recipeFetchUserAgent(config.publicBaseUrl, version),
    }),
    importGate: async (householdId: string) => rateLimiter.consume('recipe-import-per-household', `household:${householdId}`),
    recipePictureReader: deps.recipePictureReader,
    // One call of the household's monthly AI quota, the planner's.
    takeAiCall: (household: { id: string; timeZoneId: string }) => takeAiCall(deps.aiQuota, household, config.ai?.monthlyCalls ?? 0, deps.clock.now()),
  };
  const live = liveStreams(deps, { perLogin: config.live.perLogin, onError: (err) => logger.warn('live stream check failed', { err }) });
  // The OpenAPI document and its builder are made at the first request of the reference, not at start.
  const document = atFirstUse(async () => (await import('../adapters/http/openapi.js')).buildOpenApi(routes, { version: settings.version, publicBaseUrl: config.publicBaseUrl, problemBaseUrl: config.problemBaseUrl }));
  const plannerGate = async (householdId: string) => rateLimiter.consume('planner-per-household', `household:${householdId}`);
  const routes: AnyRoute[] = [
    ...systemRoutes(settings, deps.timeZones),
    ...docsRoutes(document),
    ...accountRoutes(deps, settings),
    ...socialRoutes({ ...deps, ...signInProviders(config, logger, deps.clock) }, settings),
    ...signInRoutes(deps, config.authProviders),
    ...accessTokenRoutes(deps),
    ...householdRoutes(deps),
    ...householdTransferRoutes(deps, { publicBaseUrl: config.publicBaseUrl, importMaxBytes: config.householdImportMaxBytes, importTimeoutMs: config.householdImportTimeoutMs, imageMaxBytes: config.recipeImport.maxBytes }),
    ...planRoutes(deps),
    ...leftoversRoutes(deps),
    ...plannerRoutes({ ...deps, plannerGate }),
    ...mcpRoutes({ ...deps, plannerGate }, logger, version),
    ...recipeRoutes(deps),
    ...recipeImportRoutes(recipeImport),
    ...ingredientLineRoutes(),
    ...eventRoutes(deps),
    ...pantryInventoryRoutes(deps),
    ...pantryMergeRoutes(deps),
    ...referenceRoutes(deps),
    ...billingRoutes(deps, logger),
    ...feedbackRoutes(deps, settings),
    ...receiptRoutes(deps),
    ...shoppingRoutes(deps, logger),
    ...aisleOrderRoutes(deps),
    ...dinnerRuleRoutes(deps),
    ...pushDeviceRoutes(deps, config.push.webpush?.publicKey ?? null),
    ...calendarRoutes(deps, logger),
    ...dinnerCalendarRoutes(deps, settings),
    ...dinnerPriceListRoutes(deps),
    ...dinnerPriceRoutes(deps),
    ...waitlistRoutes(deps),
    ...liveRoutes(live, { heartbeatMs: config.live.heartbeatMs }),
    ...publicDataRoutes(deps),
  ];
  const householdSchemaAsset = {
    [HOUSEHOLD_SCHEMA_PATH]: { type: 'application/schema+json', text: () => JSON.stringify(householdJsonSchema({ publicBaseUrl: config.publicBaseUrl, imageMaxBytes: config.recipeImport.maxBytes })) },
  };
  const app = createHttpApp({ config, logger, rateLimiter, sessions: deps, accessTokens: deps, idempotency: { store: deps.idempotency, clock: deps.clock }, web: orElse(docsAssets(householdSchemaAsset), webApp(config.webDir)) }, routes);
  return {
    config,
    app,
    db,
    deps,
    logger,
    routes,
    live,
    // Some mails come from work done after an answer: draining waits for that work, then delivers the mails.
    mailer: {
      direct: options.mailer ?? direct,
      async drain() {
        await afterAnswer.drain();
        await delivery.drain();
      },
    },
    async close() {
      live.closeAll();
      // Shutdown waits a little for work after answers and for the one mail being handed over, never for the queue
      // (it waits in the database for the next start or another process) nor for a mail server that does not answer.
      await afterAnswer.drain(10_000);
      await delivery.stop(10_000);
      await rateLimiter.close();
      smtp?.close();
      await pushSenders?.close();
      await db.close();
    },
  };
}

/** The first of two answerers (where no route matched) that answers. */
const orElse =
  (first: (ctx: Koa.Context) => boolean, second: (ctx: Koa.Context) => boolean) =>
  (ctx: Koa.Context): boolean =>
    first(ctx) || second(ctx);
