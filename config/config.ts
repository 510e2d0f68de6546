import { createECDH, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * The one reader of process.env: every setting parsed and checked once at start. A malformed value stops
 * the process with a message naming the variable.
 */
export const RATE_CLASSES = ['auth', 'anonymous-per-ip', 'data-per-ip', 'dinner-price-signup-per-ip', 'backstop', 'token', 'recipe-import-per-household', 'planner-per-household'] as const;
export type RateClass = (typeof RATE_CLASSES)[number];
export interface RateRule {
  readonly points: number;
  readonly durationSec: number;
}
export const PLATFORMS = ['ios', 'android'] as const;
export type Platform = (typeof PLATFORMS)[number];
export type VersionMap = Readonly<Record<Platform, string | null>>;
/** Push providers this build can deliver through; log needs no account anywhere, the others their credentials. */
export const PUSH_PROVIDERS = ['log', 'fcm', 'apns', 'webpush'] as const;
export type PushProvider = (typeof PUSH_PROVIDERS)[number];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export const RECIPE_LIBRARIES = ['embedded', 'none'] as const;

export type DatabaseTarget = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseTarget;
  /** SQLite: how long a writer waits for another process's lock before the request answers 503. */
  readonly sqliteBusyTimeoutMs: number;
  /** Postgres: how long a statement may go unanswered before the request answers 503 (0: no limit). */
  readonly postgresQueryTimeoutMs: number;
  readonly publicBaseUrl: string;
  readonly problemBaseUrl: string;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly adminEmails: readonly string[];
  readonly rateLimits: Readonly<Record<RateClass, RateRule>>;
  readonly trustProxy: boolean;
  readonly billingWebhookSecret: string | null;
  readonly appVersionFloor: VersionMap;
  readonly appVersionLatest: VersionMap;
  readonly push: PushConfig;
  readonly lockout: { readonly attempts: number; readonly windowSec: number; readonly lockSec: number };
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** How many single-use referral codes a paying household holds at once (REFERRAL_CODES_PER_HOUSEHOLD). */
  readonly referralCodesPerHousehold: number;
  /** Reading ICS calendar feeds: CALENDAR_FETCH_TIMEOUT_MS, CALENDAR_MAX_BYTES, CALENDAR_CACHE_TTL_MS. */
  readonly calendar: { readonly fetchTimeoutMs: number; readonly maxBytes: number; readonly cacheTtlMs: number };
  /** Fetching recipe pages to import: RECIPE_IMPORT_TIMEOUT_MS, RECIPE_IMPORT_MAX_BYTES. */
  readonly recipeImport: { readonly timeoutMs: number; readonly maxBytes: number };
  /** The largest household document POST /api/v1/households/import takes (HOUSEHOLD_IMPORT_MAX_BYTES). */
  readonly householdImportMaxBytes: number;
  /** How long the upload of a household document may take (HOUSEHOLD_IMPORT_TIMEOUT_MS); then 408. */
  readonly householdImportTimeoutMs: number;
  /** The live stream (GET /api/v1/me/changes): LIVE_STREAMS_PER_LOGIN, LIVE_HEARTBEAT_MS. */
  readonly live: { readonly perLogin: number; readonly heartbeatMs: number };
  /** host:port pairs the outbound address guard lets through although loopback or private (OUTBOUND_ALLOW_HOSTS; tests only). */
  readonly outboundAllowHosts: readonly string[];
  /** RECIPE_LIBRARY: the recipe library behind the library download and the dinner prices (embedded: the sample set; none: no recipes). */
  readonly recipeLibrary: (typeof RECIPE_LIBRARIES)[number];
  /** Where mails go when SMTP_URL is unset. */
  readonly outboxDir: string;
  /** How often each process looks in the mail outbox for due mails (retries, other processes' mails): MAIL_SWEEP_MS. */
  readonly mailSweepMs: number;
  /** The built web app (`npm run build:web`), served at `/`; a missing folder serves a page saying so. */
  readonly webDir: string;
  /** k-anonymity range API for breached passwords (e.g. https://api.pwnedpasswords.com/range/); null: offline list only. */
  readonly pwnedRangeApiUrl: string | null;
  /** OpenID Connect providers for social sign-in (AUTH_PROVIDERS); empty: none. */
  readonly authProviders: readonly AuthProviderConfig[];
  /** Allow-list of app redirect URIs for the app sign-in flow (APP_REDIRECT_URIS). */
  readonly appRedirectUris: readonly string[];
  /** Native identity-token sign-in (IDP_NATIVE_*); null: not configured (404 idp_signin_unavailable). */
  readonly idpNative: { readonly issuer: string; readonly audiences: readonly string[]; readonly jwksUrl: string } | null;
  /**
   * The planner's optional AI: an OpenAI-compatible endpoint (AI_BASE_URL, AI_MODEL,
   * AI_API_KEY), each household's calls per month (AI_MONTHLY_CALLS, default 100) and the wait for an answer
   * (AI_TIMEOUT_MS, default 15000); null while AI_BASE_URL is unset.
   */
  readonly ai: { readonly baseUrl: string; readonly model: string; readonly apiKey: string | null; readonly monthlyCalls: number; readonly timeoutMs: number } | null;
  /** Scheduled backups (BACKUP_DIR; null: none): kept BACKUP_KEEP of them (7), taken daily at BACKUP_HOUR (3, server time). */
  readonly backup: { readonly dir: string; readonly keep: number; readonly hour: number } | null;
  /** Prometheus metrics on a port of their own (METRICS_PORT; null: off) and host (METRICS_HOST, loopback by default). */
  readonly metrics: { readonly port: number; readonly host: string } | null;
  /** BUILD_ID, or null to let the composition root find one (the git commit). */
  readonly buildId: string | null;
  /** How many password hashes run at once (PASSWORD_HASH_CONCURRENCY; default: one core fewer than the machine has, at least 1). */
  readonly passwordHashConcurrency: number;
  /** The most of one core each hashing thread uses, in percent (PASSWORD_HASH_CPU_PERCENT; default 10). */
  readonly passwordHashCpuPercent: number;
}

export interface AuthProviderConfig {
  readonly scheme: string;
  readonly displayName: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateClass, RateRule>> = {
  auth: { points: 20, durationSec: 60 },
  'anonymous-per-ip': { points: 120, durationSec: 60 },
  'data-per-ip': { points: 30, durationSec: 60 },
  'dinner-price-signup-per-ip': { points: 5, durationSec: 3600 },
  backstop: { points: 600, durationSec: 60 },
  // Requests made with personal access tokens, per account (all its tokens together), in place of the backstop: a
  // script that polls a list every few seconds uses a tenth of it.
  token: { points: 120, durationSec: 60 },
  // Each import fetches a page from outside on the household's behalf.
  'recipe-import-per-household': { points: 30, durationSec: 3600 },
  // Each proposal reads every candidate recipe and ranks them: a few tens of milliseconds of a server's CPU.
  'planner-per-household': { points: 240, durationSec: 3600 },
};

const SEMVER = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env): Config {
  const str = (name: string, fallback: string): string => {
    const v = env[name];
    return v === undefined || v === '' ? fallback : v;
  };
  const opt = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v === '' ? null : v;
  };

  const port = Number(str('PORT', '8080'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('PORT', 'must be a port number (0-65535)');
  const host = str('HOST', '127.0.0.1');
  if (/\s/.test(host)) throw new ConfigError('HOST', 'must be a host name or address');

  const database = parseDatabaseUrl(str('DATABASE_URL', 'sqlite:./data/dinner.db'));
  if (!database) throw new ConfigError('DATABASE_URL', 'must be sqlite:<path>, sqlite::memory: or postgres://...');

  const sqliteBusyTimeoutMs = Number(str('SQLITE_BUSY_TIMEOUT_MS', '5000'));
  if (!Number.isInteger(sqliteBusyTimeoutMs) || sqliteBusyTimeoutMs < 0 || sqliteBusyTimeoutMs > 600_000) {
    throw new ConfigError('SQLITE_BUSY_TIMEOUT_MS', 'must be a whole number of milliseconds (0-600000)');
  }
  const postgresQueryTimeoutMs = Number(str('DATABASE_QUERY_TIMEOUT_MS', '30000'));
  if (!Number.isInteger(postgresQueryTimeoutMs) || postgresQueryTimeoutMs < 0 || postgresQueryTimeoutMs > 3_600_000) {
    throw new ConfigError('DATABASE_QUERY_TIMEOUT_MS', 'must be a whole number of milliseconds (0-3600000, 0 for no limit)');
  }

  const publicBaseUrl = httpUrl('PUBLIC_BASE_URL', str('PUBLIC_BASE_URL', 'http://localhost:8080'));
  const problemBaseUrl = httpUrl('PROBLEM_BASE_URL', str('PROBLEM_BASE_URL', `${publicBaseUrl}/problems`));

  const smtpUrl = opt('SMTP_URL');
  if (smtpUrl !== null) {
    let u: URL | null = null;
    try {
      u = new URL(smtpUrl);
    } catch {
      /* reported below */
    }
    if (!u || !['smtp:', 'smtps:'].includes(u.protocol) || !u.hostname) throw new ConfigError('SMTP_URL', 'must be smtp://user:pass@host:port or smtps://...');
  }

  const adminEmails = list(str('ADMIN_EMAILS', '')).map((e) => e.toLowerCase());
  for (const e of adminEmails) if (!/^[^\s@]+@[^\s@]+$/.test(e)) throw new ConfigError('ADMIN_EMAILS', `holds "${e}", which is not an address`);
  const push = parsePush(opt);


  return {
    port,
    host,
    database,
    sqliteBusyTimeoutMs,
    postgresQueryTimeoutMs,
    publicBaseUrl,
    problemBaseUrl,
    smtpUrl,
    mailFrom: str('MAIL_FROM', 'Dinner <noreply@localhost>'),
    adminEmails,
    rateLimits: parseRateLimits(opt('RATE_LIMITS')),
    trustProxy: bool('TRUST_PROXY', str('TRUST_PROXY', 'false')),
    billingWebhookSecret: opt('BILLING_WEBHOOK_SECRET'),
    appVersionFloor: parseVersions('APP_VERSION_FLOOR', opt('APP_VERSION_FLOOR')),
    appVersionLatest: parseVersions('APP_VERSION_LATEST', opt('APP_VERSION_LATEST')),
    push,
    lockout: parseLockout(str('LOCKOUT', '10/900/300')),
    logLevel: oneOf('LOG_LEVEL', str('LOG_LEVEL', 'info'), LOG_LEVELS),
    outboxDir: str('OUTBOX_DIR', './data/outbox'),
    mailSweepMs: wholeNumber('MAIL_SWEEP_MS', str('MAIL_SWEEP_MS', '5000'), 100, 3_600_000),
    webDir: str('WEB_DIR', './web/dist'),
    recipeLibrary: oneOf('RECIPE_LIBRARY', str('RECIPE_LIBRARY', 'embedded'), RECIPE_LIBRARIES),
    referralCodesPerHousehold: wholeNumber('REFERRAL_CODES_PER_HOUSEHOLD', str('REFERRAL_CODES_PER_HOUSEHOLD', '3'), 0, 100),
    calendar: {
      fetchTimeoutMs: wholeNumber('CALENDAR_FETCH_TIMEOUT_MS', str('CALENDAR_FETCH_TIMEOUT_MS', '10000'), 100, 120_000),
      maxBytes: wholeNumber('CALENDAR_MAX_BYTES', str('CALENDAR_MAX_BYTES', String(2 * 1024 * 1024)), 1024, 50 * 1024 * 1024),
      cacheTtlMs: wholeNumber('CALENDAR_CACHE_TTL_MS', str('CALENDAR_CACHE_TTL_MS', '300000'), 0, 86_400_000),
    },
    live: {
      perLogin: wholeNumber('LIVE_STREAMS_PER_LOGIN', str('LIVE_STREAMS_PER_LOGIN', '4'), 1, 32),
      heartbeatMs: wholeNumber('LIVE_HEARTBEAT_MS', str('LIVE_HEARTBEAT_MS', '20000'), 100, 120_000),
    },
    recipeImport: {
      timeoutMs: wholeNumber('RECIPE_IMPORT_TIMEOUT_MS', str('RECIPE_IMPORT_TIMEOUT_MS', '5000'), 100, 60_000),
      maxBytes: wholeNumber('RECIPE_IMPORT_MAX_BYTES', str('RECIPE_IMPORT_MAX_BYTES', String(5 * 1024 * 1024)), 1024, 50 * 1024 * 1024),
    },
    // The export of five years of a household with 2,000 pictured recipes measured 401 MiB (pictures of 150 kB on
    // average; scripts/bench/household-size.ts): 512 MiB takes it with room, and is what one export can hold.
    householdImportMaxBytes: wholeNumber('HOUSEHOLD_IMPORT_MAX_BYTES', str('HOUSEHOLD_IMPORT_MAX_BYTES', String(512 * 1024 * 1024)), 1024 * 1024, 1024 * 1024 * 1024),
    // 512 MiB in 10 minutes is an upload of about 7 Mbit/s.
    householdImportTimeoutMs: wholeNumber('HOUSEHOLD_IMPORT_TIMEOUT_MS', str('HOUSEHOLD_IMPORT_TIMEOUT_MS', '600000'), 1000, 3_600_000),
    outboundAllowHosts: parseAllowHosts(opt('OUTBOUND_ALLOW_HOSTS')),
    pwnedRangeApiUrl: opt('PWNED_RANGE_API_URL') === null ? null : httpUrl('PWNED_RANGE_API_URL', opt('PWNED_RANGE_API_URL')!) + '/',
    authProviders: parseAuthProviders(opt('AUTH_PROVIDERS')),
    appRedirectUris: parseRedirectUris(opt('APP_REDIRECT_URIS')),
    idpNative: parseIdpNative(opt('IDP_NATIVE_ISSUER'), opt('IDP_NATIVE_AUDIENCE'), opt('IDP_NATIVE_JWKS_URL')),
    ai: parseAi(opt('AI_BASE_URL'), opt('AI_MODEL'), opt('AI_API_KEY'), str('AI_MONTHLY_CALLS', '100'), str('AI_TIMEOUT_MS', '15000')),
    backup:
      opt('BACKUP_DIR') === null
        ? null
        : { dir: opt('BACKUP_DIR')!, keep: wholeNumber('BACKUP_KEEP', str('BACKUP_KEEP', '7'), 1, 1000), hour: wholeNumber('BACKUP_HOUR', str('BACKUP_HOUR', '3'), 0, 23) },
    metrics: opt('METRICS_PORT') === null ? null : { port: wholeNumber('METRICS_PORT', opt('METRICS_PORT')!, 0, 65535), host: str('METRICS_HOST', '127.0.0.1') },
    buildId: opt('BUILD_ID'),
    passwordHashConcurrency: wholeNumber('PASSWORD_HASH_CONCURRENCY', str('PASSWORD_HASH_CONCURRENCY', String(Math.max(1, availableParallelism() - 1))), 1, 256),
    passwordHashCpuPercent: wholeNumber('PASSWORD_HASH_CPU_PERCENT', str('PASSWORD_HASH_CPU_PERCENT', '10'), 1, 100),
  };
}

function parseAi(baseUrl: string | null, model: string | null, apiKey: string | null, monthlyCalls: string, timeoutMs: string): Config['ai'] {
  const calls = wholeNumber('AI_MONTHLY_CALLS', monthlyCalls, 0, 1_000_000);
  const timeout = wholeNumber('AI_TIMEOUT_MS', timeoutMs, 100, 120_000);
  if (baseUrl === null) {
    if (model !== null || apiKey !== null) throw new ConfigError('AI_BASE_URL', 'must be set when AI_MODEL or AI_API_KEY is');
    return null;
  }
  if (model === null) throw new ConfigError('AI_MODEL', 'must name the model when AI_BASE_URL is set');
  return { baseUrl: httpUrl('AI_BASE_URL', baseUrl), model, apiKey, monthlyCalls: calls, timeoutMs: timeout };
}

export function parseDatabaseUrl(url: string): DatabaseTarget | null {
  if (url === 'sqlite::memory:') return { kind: 'sqlite', filename: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length);
    return filename.length > 0 && !/[\0]/.test(filename) ? { kind: 'sqlite', filename } : null;
  }
  if (/^postgres(ql)?:\/\/\S+$/.test(url)) {
    try {
      new URL(url);
      return { kind: 'postgres', url };
    } catch {
      return null;
    }
  }
  return null;
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

function httpUrl(name: string, v: string): string {
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v.replace(/\/+$/, '');
  } catch {
    /* reported below */
  }
  throw new ConfigError(name, 'must be an absolute http(s) URL');
}

function wholeNumber(name: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  return n;
}

function oneOf<T extends string>(name: string, v: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new ConfigError(name, `must be one of ${allowed.join(', ')}`);
}

function bool(name: string, v: string): boolean {
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new ConfigError(name, 'must be true or false');
}

function parseRateLimits(v: string | null): Record<RateClass, RateRule> {
  const out: Record<RateClass, RateRule> = { ...DEFAULT_RATE_LIMITS };
  if (v === null) return out;
  for (const part of list(v)) {
    const m = /^([a-z-]+)=(\d{1,9})\/(\d{1,9})$/.exec(part);
    if (!m) throw new ConfigError('RATE_LIMITS', `entry "${part}" is not name=requests/seconds`);
    const [, name, points, seconds] = m as unknown as [string, string, string, string];
    if (!(RATE_CLASSES as readonly string[]).includes(name)) throw new ConfigError('RATE_LIMITS', `names an unknown class "${name}" (known: ${RATE_CLASSES.join(', ')})`);
    if (Number(points) < 1 || Number(seconds) < 1) throw new ConfigError('RATE_LIMITS', `entry "${part}" needs at least 1 request per at least 1 second`);
    out[name as RateClass] = { points: Number(points), durationSec: Number(seconds) };
  }
  return out;
}

function parseVersions(name: string, v: string | null): VersionMap {
  const out: Record<Platform, string | null> = { ios: null, android: null };
  if (v === null) return out;
  for (const part of list(v)) {
    const m = /^([a-z]+)=(.+)$/.exec(part);
    if (!m || !(PLATFORMS as readonly string[]).includes(m[1]!) || !SEMVER.test(m[2]!)) {
      throw new ConfigError(name, `entry "${part}" is not ios=X.Y.Z or android=X.Y.Z`);
    }
    out[m[1] as Platform] = m[2]!;
  }
  return out;
}

function parseAuthProviders(v: string | null): AuthProviderConfig[] {
  if (v === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new ConfigError('AUTH_PROVIDERS', 'must be a JSON array of { scheme, displayName, issuer, clientId, clientSecret }');
  }
  if (!Array.isArray(parsed)) throw new ConfigError('AUTH_PROVIDERS', 'must be a JSON array');
  const seen = new Set<string>();
  return parsed.map((p: unknown, i) => {
    const o = (p ?? {}) as Record<string, unknown>;
    for (const k of ['scheme', 'displayName', 'issuer', 'clientId', 'clientSecret']) {
      if (typeof o[k] !== 'string' || (o[k] as string).length === 0) throw new ConfigError('AUTH_PROVIDERS', `entry ${i} needs a non-empty string "${k}"`);
    }
    const scheme = o['scheme'] as string;
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(scheme)) throw new ConfigError('AUTH_PROVIDERS', `entry ${i}: scheme "${scheme}" must be letters, digits, - or _`);
    if (seen.has(scheme.toLowerCase())) throw new ConfigError('AUTH_PROVIDERS', `scheme "${scheme}" appears twice`);
    seen.add(scheme.toLowerCase());
    return {
      scheme,
      displayName: o['displayName'] as string,
      issuer: httpUrl('AUTH_PROVIDERS', o['issuer'] as string),
      clientId: o['clientId'] as string,
      clientSecret: o['clientSecret'] as string,
    };
  });
}

function parseAllowHosts(v: string | null): string[] {
  if (v === null) return [];
  return list(v).map((h) => {
    if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(h)) throw new ConfigError('OUTBOUND_ALLOW_HOSTS', `entry "${h}" is not host:port`);
    return h.toLowerCase();
  });
}

function parseRedirectUris(v: string | null): string[] {
  if (v === null) return [];
  return list(v).map((u) => {
    try {
      const url = new URL(u);
      if (url.hash) throw new Error('fragment');
      return u;
    } catch {
      throw new ConfigError('APP_REDIRECT_URIS', `"${u}" is not an absolute URI without a fragment`);
    }
  });
}

function parseIdpNative(issuer: string | null, audience: string | null, jwksUrl: string | null): Config['idpNative'] {
  const given = [issuer, audience, jwksUrl].filter((x) => x !== null).length;
  if (given === 0) return null;
  if (given !== 3) throw new ConfigError(issuer === null ? 'IDP_NATIVE_ISSUER' : audience === null ? 'IDP_NATIVE_AUDIENCE' : 'IDP_NATIVE_JWKS_URL', 'must be set together with the other IDP_NATIVE_* variables');
  const audiences = list(audience!);
  if (audiences.length === 0) throw new ConfigError('IDP_NATIVE_AUDIENCE', 'must name at least one audience');
  return { issuer: issuer!, audiences, jwksUrl: httpUrl('IDP_NATIVE_JWKS_URL', jwksUrl!) };
}

function parseLockout(v: string): Config['lockout'] {
  const m = /^(\d{1,4})\/(\d{1,7})\/(\d{1,7})$/.exec(v);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1 || Number(m[3]) < 1) throw new ConfigError('LOCKOUT', 'must be attempts/windowSeconds/lockSeconds, e.g. 10/900/300');
  return { attempts: Number(m[1]), windowSec: Number(m[2]), lockSec: Number(m[3]) };
}

/** Default WEBPUSH_ENDPOINT_HOSTS: the push services of Chrome, Firefox, Edge and Safari (and their subdomains). */
export const DEFAULT_WEBPUSH_ENDPOINT_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'] as const;

/** The push providers a sender is built for; a provider left unset is null (log is always there). */
export interface PushConfig {
  /** PUSH_PROVIDER: for devices registered with provider null; must be log or a configured one. */
  readonly defaultProvider: PushProvider;
  /** PUSH_TIMEOUT_MS: one request to a provider, connect included. */
  readonly timeoutMs: number;
  /** FCM_SERVICE_ACCOUNT (the JSON or a path to it), FCM_ENDPOINT. */
  readonly fcm: {
    readonly serviceAccount: { readonly projectId: string; readonly clientEmail: string; readonly privateKey: string; readonly privateKeyId: string | null; readonly tokenUri: string };
    readonly endpoint: string;
  } | null;
  /** APNS_KEY_ID, APNS_TEAM_ID, APNS_BUNDLE_ID, APNS_PRIVATE_KEY (PEM or a path to the .p8), APNS_ORIGIN. */
  readonly apns: { readonly keyId: string; readonly teamId: string; readonly bundleId: string; readonly privateKey: string; readonly origin: string } | null;
  /** VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY (base64url), VAPID_SUBJECT, WEBPUSH_ENDPOINT_HOSTS. */
  readonly webpush: { readonly subject: string; readonly publicKey: string; readonly privateKey: string; readonly endpointHosts: readonly string[] } | null;
}

function parsePush(opt: (name: string) => string | null): PushConfig {
  const timeoutMs = wholeNumber('PUSH_TIMEOUT_MS', opt('PUSH_TIMEOUT_MS') ?? '10000', 100, 120_000);
  const fcmJson = opt('FCM_SERVICE_ACCOUNT');
  const fcm = fcmJson === null ? null : { serviceAccount: parseServiceAccount(textOrFile('FCM_SERVICE_ACCOUNT', fcmJson, '{')), endpoint: httpUrl('FCM_ENDPOINT', opt('FCM_ENDPOINT') ?? 'https://fcm.googleapis.com') };

  const apnsNames = ['APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_BUNDLE_ID', 'APNS_PRIVATE_KEY'] as const;
  const apnsGiven = apnsNames.filter((n) => opt(n) !== null);
  if (apnsGiven.length > 0 && apnsGiven.length < apnsNames.length) throw new ConfigError(apnsNames.find((n) => opt(n) === null)!, 'must be set together with the other APNS_* variables');
  let apns: PushConfig['apns'] = null;
  if (apnsGiven.length > 0) {
    const [keyId, teamId, bundleId] = [opt('APNS_KEY_ID')!, opt('APNS_TEAM_ID')!, opt('APNS_BUNDLE_ID')!];
    if (!/^[A-Z0-9]{10}$/.test(keyId)) throw new ConfigError('APNS_KEY_ID', 'must be the 10-character key id');
    if (!/^[A-Z0-9]{10}$/.test(teamId)) throw new ConfigError('APNS_TEAM_ID', 'must be the 10-character team id');
    if (!/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(bundleId)) throw new ConfigError('APNS_BUNDLE_ID', 'must be a bundle id such as com.example.dinner');
    const privateKey = pkcs8(textOrFile('APNS_PRIVATE_KEY', opt('APNS_PRIVATE_KEY')!, '-----BEGIN').replace(/\\n/g, '\n'), 'ec', 'prime256v1');
    if (privateKey === null) throw new ConfigError('APNS_PRIVATE_KEY', 'must be the .p8 token key (PKCS#8 PEM, P-256) or a path to it');
    apns = { keyId, teamId, bundleId, privateKey, origin: httpUrl('APNS_ORIGIN', opt('APNS_ORIGIN') ?? 'https://api.push.apple.com') };
  }

  const vapidNames = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;
  const vapidGiven = vapidNames.filter((n) => opt(n) !== null);
  if (vapidGiven.length > 0 && vapidGiven.length < vapidNames.length) throw new ConfigError(vapidNames.find((n) => opt(n) === null)!, 'must be set together with the other VAPID_* variables');
  let webpush: PushConfig['webpush'] = null;
  if (vapidGiven.length > 0) {
    const [publicKey, privateKey, subject] = [opt('VAPID_PUBLIC_KEY')!, opt('VAPID_PRIVATE_KEY')!, opt('VAPID_SUBJECT')!];
    const pub = base64url(publicKey);
    if (pub?.length !== 65 || pub[0] !== 0x04) throw new ConfigError('VAPID_PUBLIC_KEY', 'must be an uncompressed P-256 public key in base64url (65 bytes)');
    const priv = base64url(privateKey);
    if (priv?.length !== 32) throw new ConfigError('VAPID_PRIVATE_KEY', 'must be a P-256 private key in base64url (32 bytes)');
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(priv);
      if (!ecdh.getPublicKey().equals(pub)) throw new Error('mismatch');
    } catch {
      throw new ConfigError('VAPID_PRIVATE_KEY', 'does not belong to VAPID_PUBLIC_KEY');
    }
    if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject)) throw new ConfigError('VAPID_SUBJECT', 'must be a mailto: address or an https: URL');
    const hosts = opt('WEBPUSH_ENDPOINT_HOSTS');
    const endpointHosts = hosts === null ? [...DEFAULT_WEBPUSH_ENDPOINT_HOSTS] : list(hosts).map((h) => h.toLowerCase());
    for (const h of endpointHosts) if (!/^[a-z0-9.-]+$/.test(h)) throw new ConfigError('WEBPUSH_ENDPOINT_HOSTS', `entry "${h}" is not a host name`);
    webpush = { subject, publicKey, privateKey, endpointHosts };
  }

  const defaultProvider = oneOf('PUSH_PROVIDER', opt('PUSH_PROVIDER') ?? 'log', PUSH_PROVIDERS);
  const configured: Record<PushProvider, boolean> = { log: true, fcm: fcm !== null, apns: apns !== null, webpush: webpush !== null };
  if (!configured[defaultProvider]) throw new ConfigError('PUSH_PROVIDER', `is ${defaultProvider}, which is not configured`);
  return { defaultProvider, timeoutMs, fcm, apns, webpush };
}

/** A value given inline (it starts with `marker`) or as a path to a file holding it. */
function textOrFile(name: string, v: string, marker: string): string {
  if (v.trimStart().startsWith(marker)) return v;
  try {
    return readFileSync(v, 'utf8');
  } catch {
    throw new ConfigError(name, 'is neither the value itself nor a readable file');
  }
}

function parseServiceAccount(text: string): NonNullable<PushConfig['fcm']>['serviceAccount'] {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ConfigError('FCM_SERVICE_ACCOUNT', 'is not a service account JSON');
  }
  const field = (k: string) => (typeof j?.[k] === 'string' && (j[k] as string).length > 0 ? (j[k] as string) : null);
  for (const k of ['project_id', 'client_email', 'private_key']) if (field(k) === null) throw new ConfigError('FCM_SERVICE_ACCOUNT', `needs "${k}"`);
  const privateKey = pkcs8(field('private_key')!, 'rsa');
  if (privateKey === null) throw new ConfigError('FCM_SERVICE_ACCOUNT', 'has a "private_key" that is not an RSA key in PEM');
  return {
    projectId: field('project_id')!,
    clientEmail: field('client_email')!,
    privateKey,
    privateKeyId: field('private_key_id'),
    tokenUri: httpUrl('FCM_SERVICE_ACCOUNT', field('token_uri') ?? 'https://oauth2.googleapis.com/token'),
  };
}

/** The key as PKCS#8 PEM (what the JWT signer imports) when it is a private key of that type, else null. */
function pkcs8(pem: string, type: string, curve?: string): string | null {
  try {
    const k = createPrivateKey(pem);
    if (k.asymmetricKeyType !== type || (curve !== undefined && k.asymmetricKeyDetails?.namedCurve !== curve)) return null;
    return k.export({ type: 'pkcs8', format: 'pem' }).toString();
  } catch {
    return null;
  }
}

function base64url(v: string): Buffer | null {
  return /^[A-Za-z0-9_-]+$/.test(v) ? Buffer.from(v, 'base64url') : null;
}
