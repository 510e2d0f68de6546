import type { Config } from '../config/config.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { intlTimeZones } from '../adapters/clock/intl-time-zones.js';
import { argon2Hasher } from '../adapters/crypto/argon2-hasher.js';
import { randomTokens, uuidIds } from '../adapters/crypto/node-crypto.js';
import type { Database } from '../adapters/knex/database.js';
import { emptyTables } from '../adapters/memory/stores.js';
import { knexStores, memoryStores, type StoreSet } from './stores.js';
import { memoryMailer } from '../adapters/mail/memory.js';
import { offlineBreachedPasswords } from '../adapters/passwords/breached-passwords.js';
import type { BreachedPasswords } from '../ports/breached-passwords.js';
import type { Mailer } from '../ports/mailer.js';
import { randomReadableCodes } from '../adapters/crypto/readable-codes.js';
import { shippedLoyaltyPrograms } from '../adapters/reference/loyalty-programs.js';
import type { ServiceDeps } from '../adapters/http/deps.js';
import { hmacPageCursors } from '../adapters/crypto/page-cursors.js';
import type { Clock } from '../ports/clock.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { FoodSource } from '../ports/food-source.js';
import { embeddedFoodSource } from '../adapters/foodtable/embedded-source.js';
import { foodTablePrices } from '../core/food/prices.js';
import type { CalendarFeedDeps } from '../core/calendar/feeds.js';
import type { CalendarFetcher, OutboundAddressGuard } from '../ports/calendar-fetcher.js';
import { memoryCalendar } from '../adapters/memory/calendar-fetcher.js';
import { createCalendarFetcher } from '../adapters/calendar/index.js';
import { createRecipeImageFetcher } from '../adapters/recipe-import/image.js';
import { sharpImageResizer } from '../adapters/images/sharp-resizer.js';
import { recipeFetchUserAgent } from '../adapters/recipe-import/reader.js';
import type { RecipeImageFetcher } from '../ports/recipe-image.js';
import { buildVersion } from './version.js';
import type { PushSender } from '../ports/push-sender.js';
import { recordingPushSenders } from '../adapters/memory/push-sender.js';
import { hmacWebhookVerifier } from '../adapters/crypto/webhook-signature.js';
import { decodeProviderEvent } from '../adapters/billing/provider-events.js';
import type { RecipeLibrary } from '../ports/recipe-library.js';
import type { PlannerAi } from '../ports/planner-ai.js';
import { openAiPlanner } from '../adapters/ai/openai-planner.js';
import { openAiRecipeReader } from '../adapters/ai/openai-recipe-reader.js';
import type { RecipePictureReader } from '../ports/recipe-picture-reader.js';
import { embeddedRecipeLibrary, noRecipeLibrary } from '../adapters/library/embedded-library.js';
import { gzipFilePacker } from '../adapters/publicdata/gzip-packer.js';
import { SAMPLE_CATALOGUE_NOTICE } from '../adapters/foodtable/sample-catalogue-notice.js';

export interface DepsOverrides {
  clock?: Clock;
  hasher?: PasswordHasher;
  mailer?: Mailer;
  breached?: BreachedPasswords;
  foodSource?: FoodSource;
  /** The recipe library (default: from config RECIPE_LIBRARY, the embedded sample set unless none). */
  recipeLibrary?: RecipeLibrary;
  /** The ICS reader and the outbound address guard (production: built from config; in memory: memoryCalendar()). */
  calendar?: { fetcher: CalendarFetcher; guard: OutboundAddressGuard };
  recipeImageFetcher?: RecipeImageFetcher;
  /** The push providers by name and the default one (production: adapters/push from config; else recording fakes). */
  push?: PushProviders;
  /** The planner's AI and each household's monthly calls (default: from config AI_*, none while AI_BASE_URL is unset). */
  plannerAi?: { ai: PlannerAi; monthlyCalls: number } | null;
  /** The AI that reads recipes from photos and PDFs (default: from config AI_*, none while AI_BASE_URL is unset). */
  recipePictureReader?: RecipePictureReader | null;
}

/** The settings the use cases read. */
export type DepsConfig = Pick<Config, 'adminEmails' | 'publicBaseUrl' | 'lockout' | 'referralCodesPerHousehold'> &
  // Optional: without a secret the billing webhook refuses every delivery.
  Partial<Pick<Config, 'billingWebhookSecret'>> &
  // Optional: the embedded library unless RECIPE_LIBRARY=none.
  Partial<Pick<Config, 'recipeLibrary'>> &
  // Optional: no AI unless configured.
  Partial<Pick<Config, 'ai'>>;

/** The least time the AI gets to read a recipe from a picture. */
const RECIPE_READ_TIMEOUT_MS = 60_000;

const common = (config: DepsConfig, o: DepsOverrides) => ({
  hasher: o.hasher ?? argon2Hasher(),
  breached: o.breached ?? offlineBreachedPasswords(),
  mailer: o.mailer ?? memoryMailer(),
  publicBaseUrl: config.publicBaseUrl,
  lockout: { attempts: config.lockout.attempts, windowMs: config.lockout.windowSec * 1000, lockMs: config.lockout.lockSec * 1000 },
  ids: uuidIds,
  codes: randomReadableCodes,
  tokens: randomTokens,
  clock: o.clock ?? systemClock,
  timeZones: intlTimeZones(),
  platformAdmins: new Set(config.adminEmails),
  loyaltyPrograms: shippedLoyaltyPrograms(),
  pageCursors: hmacPageCursors(),
  referralCodesPerHousehold: config.referralCodesPerHousehold,
  foodSource: o.foodSource ?? embeddedFoodSource(),
  recipeLibrary: o.recipeLibrary ?? (config.recipeLibrary === 'none' ? noRecipeLibrary() : embeddedRecipeLibrary()),
  filePacker: gzipFilePacker(),
  // sharp is loaded at the first photo, not here (adapters/images/sharp-resizer.ts).
  imageResizer: sharpImageResizer(),
  foodDataNotice: SAMPLE_CATALOGUE_NOTICE,
  webhookVerifier: hmacWebhookVerifier(config.billingWebhookSecret ?? null),
  billingEvents: decodeProviderEvent,
  ...pushOf(o.push ?? recordingPushSenders()),
  // Unlimited unless the runtime rations it (bootstrap/runtime.ts: rate class planner-per-household).
  plannerGate: async () => ({ allowed: true }) as const,
  plannerAi: o.plannerAi !== undefined ? o.plannerAi : config.ai ? { ai: openAiPlanner(config.ai), monthlyCalls: config.ai.monthlyCalls } : null,
  // Reading a page of a recipe takes longer than a week's tips: at least a minute.
  recipePictureReader: o.recipePictureReader !== undefined ? o.recipePictureReader : config.ai ? openAiRecipeReader({ ...config.ai, timeoutMs: Math.max(config.ai.timeoutMs, RECIPE_READ_TIMEOUT_MS) }) : null,
});

export interface PushProviders {
  readonly senders: ReadonlyMap<string, PushSender>;
  readonly defaultProvider: string;
}
const pushOf = (p: PushProviders) => ({ pushSenders: p.senders, defaultPushProvider: p.defaultProvider });

/** Production wiring: the Knex stores on the configured database. */
export function databaseDeps(db: Database, config: DepsConfig & CalendarConfig, o: DepsOverrides = {}): ServiceDeps & CalendarFeedDeps {
  return {
    ...common(config, o),
    recipeImageFetcher: o.recipeImageFetcher ?? outboundRecipeImages(config),
    ...withPrices(knexStores(db.knex)),
    ...calendarOf(o.calendar ?? outboundCalendar(config, o.clock ?? systemClock)),
  };
}

/** The in-memory composition root: the same dependency object over memory stores, for fast tests. */
export function memoryDeps(config: DepsConfig, o: DepsOverrides = {}): ServiceDeps & CalendarFeedDeps {
  return {
    ...common(config, o),
    // Fast tests reach nothing outside: an image address gives no image unless a test brings a fetcher.
    recipeImageFetcher: o.recipeImageFetcher ?? { fetch: async () => ({ ok: false, reason: 'unreachable' }) },
    ...withPrices(memoryStores(emptyTables())),
    ...calendarOf(o.calendar ?? memoryCalendar()),
  };
}

/** The default price provider reads the synced food table of the same stores. */
const withPrices = (stores: StoreSet) => ({ ...stores, prices: foodTablePrices(stores) });

/** The settings of the ICS reader and its outbound guard. */
export type CalendarConfig = Pick<Config, 'calendar' | 'outboundAllowHosts' | 'recipeImport' | 'publicBaseUrl'>;

/** Recipe pictures, fetched through the outbound guard with recipe import's budget and cap. */
const outboundRecipeImages = (config: CalendarConfig) =>
  createRecipeImageFetcher({
    allowHosts: config.outboundAllowHosts,
    timeoutMs: config.recipeImport.timeoutMs,
    maxBytes: config.recipeImport.maxBytes,
    userAgent: recipeFetchUserAgent(config.publicBaseUrl, buildVersion()),
  });

/** The real ICS reader: guarded outbound fetches with a timeout, a size cap and a short cache. */
const outboundCalendar = (config: CalendarConfig, clock: Clock) =>
  createCalendarFetcher({
    clock,
    allowHosts: config.outboundAllowHosts,
    timeoutMs: config.calendar.fetchTimeoutMs,
    maxBytes: config.calendar.maxBytes,
    cacheTtlMs: config.calendar.cacheTtlMs,
  });

const calendarOf = (c: { fetcher: CalendarFetcher; guard: OutboundAddressGuard }) => ({ calendarFetcher: c.fetcher, outboundGuard: c.guard });
