import type { AccountId } from '../kernel/ids.js';

export interface Account {
  readonly id: AccountId;
  /** As the person typed it; null for a social account that shared no address. */
  readonly email: string | null;
  readonly emailConfirmed: boolean;
  readonly displayName: string;
  /** Language of the account's mails: from Accept-Language at sign-up, Norwegian unless English is preferred. */
  readonly language: AccountLanguage;
  /** argon2id PHC string; null for a social-only account. */
  readonly passwordHash: string | null;
  /** Rotated by logout, password and e-mail change: sessions minted under an older stamp fail their next check. */
  readonly securityStamp: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface Session {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  readonly tokenHash: string;
  readonly accountId: AccountId;
  readonly securityStamp: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export type AccountLanguage = 'nb' | 'en';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const DISPLAY_NAME_MAX = 80;
export const EMAIL_MAX = 254;
