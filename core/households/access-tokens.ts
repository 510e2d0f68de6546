import type { AccessTokenStore } from '../../ports/access-token-store.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { Authenticated } from '../accounts/sessions.js';
import type { Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { AccessToken, AccessTokenScope, ListedAccessToken } from './types.js';

/**
 * Personal access tokens: a person makes one for one household they are a member of, to let a script, a home
 * automation or an assistant act as them there, reading only or reading and writing. The secret is shown once and
 * kept only as its SHA-256. Which routes a token reaches is the HTTP layer's (each route declares it); this file
 * holds who may make one, for how long, and what a token sent with a request stands for.
 */

/** Every secret starts so, for people and secret scanners to tell what it is. */
export const ACCESS_TOKEN_PREFIX = 'dp_pat_';
export const ACCESS_TOKEN_NAME_MAX = 80;
/** A token lives 1 to 365 days; 90 unless said. */
export const ACCESS_TOKEN_DAYS = { min: 1, max: 365, default: 90 } as const;
/** Unexpired tokens an account may hold at once. */
export const ACCESS_TOKENS_MAX_LIVE = 20;
/** A token's last use is written at most this often (not on every request of a script that polls). */
export const LAST_USE_EVERY_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an expired token stays on its person's list (so they see why a script stopped) before it is removed. */
export const EXPIRED_KEPT_MS = 30 * DAY_MS;

/** The caller of a request made with a personal access token: its person, and the token (its household and scope). */
export interface TokenCaller {
  readonly account: Account;
  readonly token: AccessToken;
}

/** Who calls a route that a token may call: a session's person, or a token's. */
export type Caller = Authenticated | TokenCaller;

export const isTokenCaller = (caller: Caller): caller is TokenCaller => 'token' in caller;

export interface AccessTokenDeps {
  accessTokens: AccessTokenStore;
  households: HouseholdStore;
  tokens: SecretTokens;
  ids: IdGenerator;
  clock: Clock;
}

export interface NewAccessToken {
  readonly name: string;
  readonly householdId: HouseholdId;
  readonly scope: AccessTokenScope;
  /** ACCESS_TOKEN_DAYS.default when left out. */
  readonly expiresInDays?: number;
}

/** A token just made: its secret, shown this once, and the token as the list shows it. */
export interface MadeAccessToken {
  readonly secret: string;
  readonly token: ListedAccessToken;
}

/** Makes a token for one of the caller's households ('household-not-found' for any other), within the account's limit. */
export async function createAccessToken(
  deps: AccessTokenDeps,
  caller: Account,
  input: NewAccessToken,
): Promise<Result<MadeAccessToken, ErrorOf<'household-not-found' | 'access-token-limit'>>> {
  const membership = (await deps.households.membershipsOf(caller.id)).find((m) => m.householdId === input.householdId);
  if (!membership) return fail({ type: 'household-not-found' });
  const secret = `${ACCESS_TOKEN_PREFIX}${deps.tokens.generate()}`;
  const now = deps.clock.now();
  const token: AccessToken = {
    id: deps.ids.newId(),
    accountId: caller.id,
    householdId: input.householdId,
    name: input.name.trim(),
    scope: input.scope,
    tokenHash: deps.tokens.hash(secret),
    createdAt: now,
    expiresAt: new Date(now.getTime() + (input.expiresInDays ?? ACCESS_TOKEN_DAYS.default) * DAY_MS),
    lastUsedAt: null,
  };
  const made = await deps.accessTokens.create(token, { maxLive: ACCESS_TOKENS_MAX_LIVE, now });
  if (made === 'limit') return fail({ type: 'access-token-limit', max: ACCESS_TOKENS_MAX_LIVE });
  // The household went (or the account) between the check and the write: as if it had never been the caller's.
  if (made === 'gone') return fail({ type: 'household-not-found' });
  const { tokenHash: _secretHash, ...shown } = token;
  return ok({ secret, token: { ...shown, householdName: membership.householdName, member: true } });
}

/** The caller's tokens, newest first, expired ones included (until EXPIRED_KEPT_MS after they expired). */
export async function accessTokensOf(deps: Pick<AccessTokenDeps, 'accessTokens'>, caller: Account): Promise<ListedAccessToken[]> {
  return deps.accessTokens.listOf(caller.id);
}

/** Revokes one of the caller's tokens: the next request with it fails, whichever server answers it. */
export async function revokeAccessToken(deps: Pick<AccessTokenDeps, 'accessTokens'>, caller: Account, tokenId: string): Promise<Result<void, ErrorOf<'access-token-not-found'>>> {
  return (await deps.accessTokens.revoke(caller.id, tokenId)) ? ok(undefined) : fail({ type: 'access-token-not-found' });
}

/** The credentials of an Authorization header of the Bearer scheme (RFC 6750; the scheme in any case), or null. */
export function bearerCredentials(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const m = BEARER.exec(authorization);
  return m ? m[1]! : null;
}

const BEARER = /^Bearer +(\S+) *$/i;
/** The prefix and the URL-safe text SecretTokens makes; anything else is never looked up. */
const SECRET = new RegExp(`^${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]{16,128}$`);

/**
 * What the Authorization header of a request stands for: the token's person, household and scope, or why not.
 * 'token-missing' without a Bearer header; 'token-invalid' for a token never made, revoked, or whose person is no
 * longer a member of its household (or whose account or household is gone); 'token-expired' once it has expired.
 * A use is noted at most once a minute per token. For every caller that takes tokens: the routes that declare it
 * (adapters/http/app.ts) and any other door.
 */
export async function accessTokenCaller(
  deps: Pick<AccessTokenDeps, 'accessTokens' | 'tokens' | 'clock'>,
  authorization: string | undefined,
): Promise<Result<TokenCaller, ErrorOf<'token-missing' | 'token-invalid' | 'token-expired'>>> {
  const secret = bearerCredentials(authorization);
  if (secret === null) return fail({ type: 'token-missing' });
  if (!SECRET.test(secret)) return fail({ type: 'token-invalid' });
  const found = await deps.accessTokens.lookup(deps.tokens.hash(secret));
  if (!found || !found.member) return fail({ type: 'token-invalid' });
  const now = deps.clock.now();
  if (found.token.expiresAt.getTime() <= now.getTime()) return fail({ type: 'token-expired' });
  const since = new Date(now.getTime() - LAST_USE_EVERY_MS);
  const last = found.token.lastUsedAt;
  if (!last || last.getTime() <= since.getTime()) await deps.accessTokens.touch(found.token.id, now, since);
  return ok({ account: found.account, token: found.token });
}

/** Whether a token's scope lets it write (a read token may only read). */
export const tokenMayWrite = (token: Pick<AccessToken, 'scope'>): boolean => token.scope === 'read-write';
