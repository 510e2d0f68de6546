import type { Clock } from '../../ports/clock.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { SessionStore } from '../../ports/account-store.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { Account, Session } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session lives 30 days from its last use; it is pushed out when less than half of that is left. */
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** However much it is used, a session ends 90 days after sign-in. */
export const SESSION_ABSOLUTE_MS = 90 * DAY_MS;
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;

export interface IssuedSession {
  /** Goes into the cookie; only its hash is stored. */
  readonly token: string;
  readonly session: Session;
}

/** A new session for the account; null when the account is gone (deleted at the same moment). */
export async function startSession(
  deps: { sessions: SessionStore; tokens: SecretTokens; clock: Clock },
  account: Account,
): Promise<IssuedSession | null> {
  const token = deps.tokens.generate();
  const now = deps.clock.now();
  const session: Session = {
    tokenHash: deps.tokens.hash(token),
    accountId: account.id,
    securityStamp: account.securityStamp,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  };
  return (await deps.sessions.create(session)) ? { token, session } : null;
}

export interface Authenticated {
  readonly account: Account;
  readonly session: Session;
  /** Set when the expiry moved, so the cookie is sent again with the new lifetime. */
  readonly renewed: boolean;
}

/** A session still counts: unexpired, within its absolute lifetime, and its account's security stamp unchanged. */
export function sessionLive(session: Session, account: Account, now: Date): boolean {
  const cap = session.createdAt.getTime() + SESSION_ABSOLUTE_MS;
  return session.expiresAt.getTime() > now.getTime() && cap > now.getTime() && session.securityStamp === account.securityStamp;
}

/** Checks a cookie token: known, unexpired, its account still there and its security stamp current. */
export async function authenticate(
  deps: { sessions: SessionStore; tokens: SecretTokens; clock: Clock },
  token: string,
): Promise<Result<Authenticated, ErrorOf<'unauthenticated'>>> {
  const tokenHash = deps.tokens.hash(token);
  const found = await deps.sessions.lookup(tokenHash);
  if (!found) return fail({ type: 'unauthenticated' });
  const now = deps.clock.now();
  const { session, account } = found;
  const cap = session.createdAt.getTime() + SESSION_ABSOLUTE_MS;
  if (!sessionLive(session, account, now)) {
    await deps.sessions.delete(tokenHash);
    return fail({ type: 'unauthenticated' });
  }
  if (session.expiresAt.getTime() - now.getTime() < RENEW_WHEN_LEFT_MS && session.expiresAt.getTime() < cap) {
    const expiresAt = new Date(Math.min(now.getTime() + SESSION_LIFETIME_MS, cap));
    await deps.sessions.extend(tokenHash, expiresAt);
    return ok({ account, session: { ...session, expiresAt }, renewed: true });
  }
  return ok({ account, session, renewed: false });
}
