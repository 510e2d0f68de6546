export type WaitlistLanguage = 'nb' | 'en';

/** One address on the waitlist (one row per address). */
export interface WaitlistEntry {
  readonly id: string;
  /** Normalized: trimmed and lower-cased, as the accounts compare addresses. */
  readonly email: string;
  /** The language of the mails: the one the latest mailed request asked for. */
  readonly language: WaitlistLanguage;
  readonly createdAt: Date;
  readonly confirmedAt: Date | null;
  readonly lastMailedAt: Date;
  /** The account registered with this address, once one is: the row is then that account's. */
  readonly accountId: string | null;
}

/** A confirm-link token, stored only as its SHA-256, with the moment its link stops confirming. */
export interface WaitlistToken {
  readonly tokenHash: string;
  readonly expiresAt: Date;
}

/** What an unspent token leads to: its entry, or null once the entry went (expired, or deleted with its account). */
export interface WaitlistTokenTarget {
  readonly entry: WaitlistEntry | null;
  readonly expiresAt: Date;
}

/**
 * The waitlist. Tokens are single-use: confirming spends the token clicked and every other token of its entry.
 * When an entry goes, its unspent tokens stay as bare hashes (no address) until `forgetTokens`, so that a late
 * click can still tell an expired link from one never issued.
 */
export interface WaitlistStore {
  byEmail(email: string): Promise<WaitlistEntry | null>;
  /** Lists a new address with the token of its first mail; 'email-taken' (and nothing written) when it is listed already. */
  add(entry: WaitlistEntry, token: WaitlistToken): Promise<'added' | 'email-taken'>;
  /**
   * Records a further mail to an entry: sets lastMailedAt and language and adds the mail's token, only while the
   * entry is listed, unconfirmed, of no account, and last mailed at or before `mailedNoLaterThan` (of two
   * simultaneous calls at most one succeeds). Answers whether it did.
   */
  recordMail(id: string, mail: { at: Date; language: WaitlistLanguage; token: WaitlistToken }, mailedNoLaterThan: Date): Promise<boolean>;
  /** An unspent token; null for one never issued, spent, or forgotten. */
  byToken(tokenHash: string): Promise<WaitlistTokenTarget | null>;
  /**
   * Spends the token and every other token of its entry, and sets the entry's confirmedAt unless set already.
   * Answers false (and changes nothing) when the token is unknown, spent (also by a simultaneous call) or its
   * entry gone.
   */
  confirm(tokenHash: string, at: Date): Promise<boolean>;
  /** Deletes the entry (its tokens are kept as bare hashes). Answers whether a row went. */
  remove(id: string): Promise<boolean>;
  /** Deletes every unconfirmed entry of no account created before `createdBefore`; answers how many went. */
  removeUnconfirmed(createdBefore: Date): Promise<number>;
  /** Forgets the tokens (spendable or not) whose links expired before `expiredBefore`; answers how many. */
  forgetTokens(expiredBefore: Date): Promise<number>;
  /** Makes the entry of `email` the account's, unless it is another's already; answers whether an entry was linked. */
  linkAccount(email: string, accountId: string): Promise<boolean>;
  /**
   * Deletes the entries of the account: the one linked to it and the one of its (normalized) address. Deleting the
   * account deletes its linked entry as well (as a foreign-key cascade). Answers how many went.
   */
  removeOfAccount(accountId: string, email: string | null): Promise<number>;
}
