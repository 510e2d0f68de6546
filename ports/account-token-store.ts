import type { AccountId } from '../core/kernel/ids.js';

export type TokenPurpose = 'confirm-email' | 'reset-password' | 'change-email';

export interface AccountToken {
  /** SHA-256 of the token in the mail link; the token itself is never stored. */
  readonly tokenHash: string;
  readonly accountId: AccountId;
  readonly purpose: TokenPurpose;
  /** The address a change-email token is bound to; null otherwise. */
  readonly newEmail: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export interface AccountTokenStore {
  issue(token: AccountToken): Promise<void>;
  /**
   * Uses a token up: deletes it and answers it, in one step, so that of two simultaneous uses exactly one
   * succeeds. null when unknown, already used, expired (at `now`) or of another purpose.
   */
  consume(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<AccountToken | null>;
  /** When the newest token of this purpose was issued to the account (cooldowns), or null. */
  lastIssuedAt(accountId: AccountId, purpose: TokenPurpose): Promise<Date | null>;
  /** Drops every token of this purpose of the account (after a reset, older links stop working). */
  revokeAll(accountId: AccountId, purpose: TokenPurpose): Promise<void>;
  /** Removes tokens that expired before `now`; answers how many went. */
  deleteExpired(now: Date): Promise<number>;
}
