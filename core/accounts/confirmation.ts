import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { issueAccountToken } from './account-tokens.js';
import type { AccountDeps } from './deps.js';
import { links, mailAccount } from './mails.js';
import type { Account } from './types.js';

/** A confirmation mail may be sent again five minutes after the last one. */
export const RESEND_COOLDOWN_MS = 5 * 60 * 1000;

/** Confirms the address with the mailed token; an address already confirmed answers success again. */
export async function confirmEmail(
  deps: Pick<AccountDeps, 'accounts' | 'accountTokens' | 'tokens' | 'clock'>,
  input: { userId: string; token: string },
): Promise<Result<void, ErrorOf<'invalid-token'>>> {
  const now = deps.clock.now();
  const account = await deps.accounts.byId(input.userId);
  if (!account) return fail({ type: 'invalid-token' });
  const token = await deps.accountTokens.consume(deps.tokens.hash(input.token), 'confirm-email', now);
  if (token && token.accountId === account.id) {
    await deps.accounts.markEmailConfirmed(account.id, now);
    return ok(undefined);
  }
  return account.emailConfirmed ? ok(undefined) : fail({ type: 'invalid-token' });
}

/** Sends a fresh confirmation link, unless the address is confirmed (nothing sent) or one went out recently. */
export async function resendConfirmation(
  deps: Pick<AccountDeps, 'accountTokens' | 'mailer' | 'tokens' | 'clock' | 'publicBaseUrl'>,
  account: Account,
): Promise<Result<{ sent: boolean }, ErrorOf<'resend-cooldown'>>> {
  if (account.emailConfirmed || account.email === null) return ok({ sent: false });
  const last = await deps.accountTokens.lastIssuedAt(account.id, 'confirm-email');
  const since = last ? deps.clock.now().getTime() - last.getTime() : Infinity;
  if (since < RESEND_COOLDOWN_MS) return fail({ type: 'resend-cooldown', retryAfterSec: Math.ceil((RESEND_COOLDOWN_MS - since) / 1000) });
  const { token, expiresAt } = await issueAccountToken(deps, account, 'confirm-email');
  await mailAccount(deps, account, { kind: 'confirm-email', link: links.confirmEmail(deps.publicBaseUrl, account.id, token), expiresAt });
  return ok({ sent: true });
}
