import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { AccountDeps } from './deps.js';
import { links, mailAccount } from './mails.js';
import { acceptablePassword } from './passwords.js';
import type { Authenticated } from './sessions.js';

/**
 * Changes the password (or sets a first one on a social-only account). The security stamp rotates, so every
 * other session must sign in again; the caller's own session is re-stamped and stays.
 */
export async function changePassword(
  deps: Pick<AccountDeps, 'accounts' | 'sessions' | 'breached' | 'hasher' | 'mailer' | 'tokens' | 'clock' | 'publicBaseUrl'>,
  caller: Authenticated,
  input: { currentPassword: string | null; newPassword: string },
): Promise<Result<void, ErrorOf<'wrong-current-password' | 'password-rejected' | 'password-guessable' | 'password-pwned'>>> {
  const { account } = caller;
  if (account.passwordHash !== null) {
    if (input.currentPassword === null || !(await deps.hasher.verify(account.passwordHash, input.currentPassword))) {
      return fail({ type: 'wrong-current-password' });
    }
  }
  const acceptable = await acceptablePassword(deps, input.newPassword, { email: account.email ?? '', displayName: account.displayName });
  if (!acceptable.ok) return acceptable;
  const stamp = deps.tokens.generate();
  await deps.accounts.setPassword(account.id, await deps.hasher.hash(input.newPassword), stamp, deps.clock.now());
  await deps.sessions.setSecurityStamp(caller.session.tokenHash, stamp);
  await mailAccount(deps, account, { kind: 'password-changed', link: links.forgotPassword(deps.publicBaseUrl) });
  return ok(undefined);
}
