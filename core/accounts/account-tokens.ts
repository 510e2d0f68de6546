import type { AccountTokenStore, TokenPurpose } from '../../ports/account-token-store.js';
import type { Clock } from '../../ports/clock.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { Account } from './types.js';

const HOUR_MS = 60 * 60 * 1000;

/** How long a mail link works (stated in the OpenAPI document). */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  'confirm-email': 48 * HOUR_MS,
  'reset-password': 1 * HOUR_MS,
  'change-email': 24 * HOUR_MS,
};

/** Mints a single-use mail-link token; only its hash is stored. Answers the token for the link, and when it expires (the mail's expiry). */
export async function issueAccountToken(
  deps: { accountTokens: AccountTokenStore; tokens: SecretTokens; clock: Clock },
  account: Account,
  purpose: TokenPurpose,
  newEmail: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = deps.tokens.generate();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]);
  await deps.accountTokens.issue({ tokenHash: deps.tokens.hash(token), accountId: account.id, purpose, newEmail, createdAt: now, expiresAt });
  return { token, expiresAt };
}
