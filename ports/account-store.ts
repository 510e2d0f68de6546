import type { Account, Session } from '../core/accounts/types.js';
import type { AccountId } from '../core/shared/ids.js';

export interface NewAccount {
  readonly id: AccountId;
  readonly email: string | null;
  readonly displayName: string;
  readonly passwordHash: string | null;
  readonly securityStamp: string;
  readonly createdAt: Date;
}

export interface AccountStore {
  /** 'email-taken' when another account already holds the address (compared case-insensitively). */
  create(account: NewAccount): Promise<Account | 'email-taken'>;
  byId(id: AccountId): Promise<Account | null>;
  /** Case-insensitive. */
  byEmail(email: string): Promise<Account | null>;
  /** null when the account is gone. */
  setDisplayName(id: AccountId, displayName: string, at: Date): Promise<Account | null>;
  setSecurityStamp(id: AccountId, stamp: string, at: Date): Promise<void>;
}

export interface SessionStore {
  create(session: Session): Promise<void>;
  /** The session and its account in one read; null when either is gone. */
  lookup(tokenHash: string): Promise<{ session: Session; account: Account } | null>;
  extend(tokenHash: string, expiresAt: Date): Promise<void>;
  delete(tokenHash: string): Promise<void>;
  /** Removes sessions that expired before `now`; returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
