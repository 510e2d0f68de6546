import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { Authenticated } from './sessions.js';

/**
 * Ends the session and rotates the account's security stamp, so every other copy
 * of a session minted under the old stamp fails its next check.
 */
export async function logout(
  deps: { accounts: AccountStore; sessions: SessionStore; tokens: SecretTokens; clock: Clock },
  caller: Authenticated,
): Promise<void> {
  await deps.sessions.delete(caller.session.tokenHash);
  await deps.accounts.setSecurityStamp(caller.account.id, deps.tokens.generate(), deps.clock.now());
}
