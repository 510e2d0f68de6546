import type { Account, AccountLanguage, Session } from '../core/accounts/types.js';
import type { AccountId } from '../core/kernel/ids.js';

export interface NewAccount {
  readonly id: AccountId;
  readonly email: string | null;
  readonly emailConfirmed: boolean;
  readonly displayName: string;
  readonly language: AccountLanguage;
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
  markEmailConfirmed(id: AccountId, at: Date): Promise<void>;
  /**
   * Sets the password hash (null: the account has none, social sign-in only); with a stamp, also rotates the
   * security stamp (a rehash keeps it).
   */
  setPassword(id: AccountId, passwordHash: string | null, securityStamp: string | null, at: Date): Promise<void>;
  /** Moves the login to a new address, confirmed; 'email-taken' when another account holds it; null when gone. */
  setEmail(id: AccountId, email: string, securityStamp: string, at: Date): Promise<Account | 'email-taken' | null>;
  /** Removes the account; its sessions, tokens and identities go with it. */
  delete(id: AccountId): Promise<void>;
}

export interface SessionStore {
  /** false when the account is gone (deleted while it signed in): no session is made. */
  create(session: Session): Promise<boolean>;
  /** The session and its account in one read; null when either is gone. */
  lookup(tokenHash: string): Promise<{ session: Session; account: Account } | null>;
  extend(tokenHash: string, expiresAt: Date): Promise<void>;
  /** Re-stamps one session so it survives a stamp rotation its own caller made (password or e-mail change). */
  setSecurityStamp(tokenHash: string, stamp: string): Promise<void>;
  delete(tokenHash: string): Promise<void>;
  /** Removes sessions that expired before `now`; returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
