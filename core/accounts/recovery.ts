import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { issueAccountToken } from './account-tokens.js';
import type { AccountDeps } from './deps.js';
import { isEmailAddress, normalizeEmail } from './email.js';
import { throttleKey } from './login.js';
import { links, mailAccount } from './mails.js';
import { acceptablePassword } from './passwords.js';

/** A second request for the same account within this window is dropped silently. */
export const FORGOT_PASSWORD_REPEAT_MS = 5 * 60 * 1000;

/** Always answers the same: a known address gets a reset link (at most one per five minutes), others nothing. */
export async function forgotPassword(
  deps: Pick<AccountDeps, 'accounts' | 'accountTokens' | 'mailer' | 'tokens' | 'clock' | 'publicBaseUrl'>,
  input: { email: string },
): Promise<void> {
  if (!isEmailAddress(input.email)) return;
  const account = await deps.accounts.byEmail(input.email.trim());
  if (!account?.email) return;
  const last = await deps.accountTokens.lastIssuedAt(account.id, 'reset-password');
  if (last && deps.clock.now().getTime() - last.getTime() < FORGOT_PASSWORD_REPEAT_MS) return;
  const { token, expiresAt } = await issueAccountToken(deps, account, 'reset-password');
  await mailAccount(deps, account, { kind: 'reset-password', link: links.resetPassword(deps.publicBaseUrl, account.email, token), expiresAt });
}

/**
 * Sets a new password with a reset link: the token is used up whatever follows, the address counts as
 * confirmed (the mail reached it), every session of the account ends, and the login lock is lifted.
 */
export async function resetPassword(
  deps: Pick<AccountDeps, 'accounts' | 'accountTokens' | 'loginThrottle' | 'breached' | 'hasher' | 'tokens' | 'clock'>,
  input: { email: string; token: string; newPassword: string },
): Promise<Result<void, ErrorOf<'invalid-token' | 'password-rejected' | 'password-guessable' | 'password-pwned'>>> {
  // The address the link was sent to stands for the person (the account is known only once the token is spent).
  const acceptable = await acceptablePassword(deps, input.newPassword, { email: input.email });
  if (!acceptable.ok) return acceptable;
  const now = deps.clock.now();
  const token = await deps.accountTokens.consume(deps.tokens.hash(input.token), 'reset-password', now);
  if (!token) return fail({ type: 'invalid-token' });
  const account = await deps.accounts.byId(token.accountId);
  if (!account?.email || normalizeEmail(account.email) !== normalizeEmail(input.email)) return fail({ type: 'invalid-token' });
  await deps.accounts.setPassword(account.id, await deps.hasher.hash(input.newPassword), deps.tokens.generate(), now);
  await deps.accounts.markEmailConfirmed(account.id, now);
  await deps.accountTokens.revokeAll(account.id, 'reset-password');
  await deps.loginThrottle.clear(throttleKey(deps, account.email));
  return ok(undefined);
}
