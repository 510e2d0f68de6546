import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { issueAccountToken } from './account-tokens.js';
import type { AccountDeps } from './deps.js';
import { isEmailAddress, normalizeEmail } from './email.js';
import { links, mailAccount } from './mails.js';
import type { Authenticated } from './sessions.js';

/**
 * All that the answer to an e-mail change may depend on: whether the new address is an address at all. Whether it
 * is taken must not show, so a caller may answer on this and leave the rest of `requestEmailChange` for later.
 */
export function checkEmailChange(input: { newEmail: string }): Result<void, ErrorOf<'email-not-an-address'>> {
  return isEmailAddress(input.newEmail) ? ok(undefined) : fail({ type: 'email-not-an-address' });
}

/**
 * Asks to move the login to a new address. Nothing changes until the link mailed to the new address is used;
 * the old address gets a notice with a reset link. A taken address answers the same and mails nothing.
 */
export async function requestEmailChange(
  deps: Pick<AccountDeps, 'accounts' | 'accountTokens' | 'mailer' | 'tokens' | 'clock' | 'publicBaseUrl'>,
  caller: Authenticated,
  input: { newEmail: string },
): Promise<Result<void, ErrorOf<'email-not-an-address'>>> {
  const checked = checkEmailChange(input);
  if (!checked.ok) return checked;
  const newEmail = input.newEmail.trim();
  const { account } = caller;
  if (account.email !== null && normalizeEmail(account.email) === normalizeEmail(newEmail)) return ok(undefined);
  if (await deps.accounts.byEmail(newEmail)) return ok(undefined);
  const { token, expiresAt } = await issueAccountToken(deps, account, 'change-email', newEmail);
  await mailAccount(deps, account, { kind: 'confirm-email-change', newEmail, link: links.confirmEmailChange(deps.publicBaseUrl, account.id, newEmail, token), expiresAt }, newEmail);
  if (account.email !== null) {
    const reset = await issueAccountToken(deps, account, 'reset-password');
    // No expiry: the warning matters more than its reset link (an expired link's page offers a new one), so a notice
    // held up for over an hour still goes.
    await mailAccount(deps, account, { kind: 'email-change-notice', newEmail, link: links.resetPassword(deps.publicBaseUrl, account.email, reset.token) });
  }
  return ok(undefined);
}

/**
 * Moves the login to the confirmed new address. Every other session is revoked; a browser signed in as this
 * account (`keepSession`) keeps its own.
 */
export async function confirmEmailChange(
  deps: Pick<AccountDeps, 'accounts' | 'sessions' | 'accountTokens' | 'tokens' | 'clock'>,
  input: { userId: string; newEmail: string; token: string; keepSession?: Authenticated | null },
): Promise<Result<void, ErrorOf<'invalid-token'>>> {
  const now = deps.clock.now();
  const token = await deps.accountTokens.consume(deps.tokens.hash(input.token), 'change-email', now);
  if (!token || token.accountId !== input.userId || token.newEmail === null || normalizeEmail(token.newEmail) !== normalizeEmail(input.newEmail)) {
    return fail({ type: 'invalid-token' });
  }
  const stamp = deps.tokens.generate();
  const moved = await deps.accounts.setEmail(token.accountId, token.newEmail, stamp, now);
  if (moved === null || moved === 'email-taken') return fail({ type: 'invalid-token' });
  if (input.keepSession && input.keepSession.account.id === moved.id) await deps.sessions.setSecurityStamp(input.keepSession.session.tokenHash, stamp);
  return ok(undefined);
}
