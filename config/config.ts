/**
 * The one reader of process.env: every setting parsed and checked once at start. A malformed value stops
 * the process with a message naming the variable (extensions.md > Configuration).
 */
export const RATE_CLASSES = ['auth', 'anonymous-per-ip', 'data-per-ip', 'dinner-price-signup-per-ip', 'backstop'] as const;
export type RateClass = (typeof RATE_CLASSES)[number];
export interface RateRule {
  readonly points: number;
  readonly durationSec: number;
}
export const PLATFORMS = ['ios', 'android'] as const;
export type Platform = (typeof PLATFORMS)[number];
export type VersionMap = Readonly<Record<Platform, string | null>>;
/** Push providers this build can deliver through (issue-by-issue more join). */
export const PUSH_PROVIDERS = ['log'] as const;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

export type DatabaseTarget = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseTarget;
  /** SQLite: how long a writer waits for another process's lock before the request answers 503. */
  readonly sqliteBusyTimeoutMs: number;
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
  readonly pushProvider: (typeof PUSH_PROVIDERS)[number];
  readonly lockout: { readonly attempts: number; readonly windowSec: number; readonly lockSec: number };
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** How many single-use referral codes a paying household holds at once (REFERRAL_CODES_PER_HOUSEHOLD). */
  readonly referralCodesPerHousehold: number;
  /** Where mails go when SMTP_URL is unset. */
  readonly outboxDir: string;
  /** k-anonymity range API for breached passwords (e.g. https://api.pwnedpasswords.com/range/); null: offline list only. */
  readonly pwnedRangeApiUrl: string | null;
  /** OpenID Connect providers for social sign-in (AUTH_PROVIDERS); empty: none. */
  readonly authProviders: readonly AuthProviderConfig[];
  /** Allow-list of app redirect URIs for the app sign-in flow (APP_REDIRECT_URIS). */
  readonly appRedirectUris: readonly string[];
  /** Native identity-token sign-in (IDP_NATIVE_*); null: not configured (404 idp_signin_unavailable). */
  readonly idpNative: { readonly issuer: string; readonly audiences: readonly string[]; readonly jwksUrl: string } | null;
  /** BUILD_ID, or null to let the composition root find one (the git commit). */
  readonly buildId: string | null;
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


  return {
    port,
    host,
    database,
    sqliteBusyTimeoutMs,
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
    pushProvider: oneOf('PUSH_PROVIDER', str('PUSH_PROVIDER', 'log'), PUSH_PROVIDERS),
    lockout: parseLockout(str('LOCKOUT', '10/900/300')),
    logLevel: oneOf('LOG_LEVEL', str('LOG_LEVEL', 'info'), LOG_LEVELS),
    outboxDir: str('OUTBOX_DIR', './data/outbox'),
    referralCodesPerHousehold: wholeNumber('REFERRAL_CODES_PER_HOUSEHOLD', str('REFERRAL_CODES_PER_HOUSEHOLD', '3'), 0, 100),
    pwnedRangeApiUrl: opt('PWNED_RANGE_API_URL') === null ? null : httpUrl('PWNED_RANGE_API_URL', opt('PWNED_RANGE_API_URL')!) + '/',
    authProviders: parseAuthProviders(opt('AUTH_PROVIDERS')),
    appRedirectUris: parseRedirectUris(opt('APP_REDIRECT_URIS')),
    idpNative: parseIdpNative(opt('IDP_NATIVE_ISSUER'), opt('IDP_NATIVE_AUDIENCE'), opt('IDP_NATIVE_JWKS_URL')),
    buildId: opt('BUILD_ID'),
  };
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
