/**
 * The double-opt-in mailing lists: an address asks to be listed, is mailed a link, and is on the list once it
 * clicked. Two lists keep this shape, each in tables of its own:
 * - 'dinner-prices': the monthly dinner-price mail. Every mail carries a confirm and an unsubscribe link with tokens
 *   of their own (a forwarded unsubscribe link must not confirm); a link works while its address is listed, however
 *   often it is clicked; when the address leaves, its links remember why (a later click answers 410 or
 *   "unsubscribed").
 * - 'waitlist': the waitlist for accounts. Its links only confirm, once: confirming spends every link of the
 *   address; a link expires. An address becomes the account's that registers with it.
 */
export type MailingList = 'dinner-prices' | 'waitlist';

/** How a list's links behave (the header above, as data both adapters follow). */
export interface MailingListRules {
  /** The purposes its links may have. */
  readonly purposes: readonly LinkPurpose[];
  /** Its links carry an expiry (and must); else they work while their address is listed. */
  readonly linksExpire: boolean;
  /** Confirming spends every link of the address. */
  readonly confirmSpendsLinks: boolean;
  /** An address that leaves leaves its links the reason. */
  readonly remembersExit: boolean;
  /** An address can become an account's. */
  readonly linksAccounts: boolean;
}

export const MAILING_LISTS: Readonly<Record<MailingList, MailingListRules>> = {
  'dinner-prices': { purposes: ['confirm', 'unsubscribe'], linksExpire: false, confirmSpendsLinks: false, remembersExit: true, linksAccounts: false },
  waitlist: { purposes: ['confirm'], linksExpire: true, confirmSpendsLinks: true, remembersExit: false, linksAccounts: true },
};

export type ListLanguage = 'nb' | 'en';

export type LinkPurpose = 'confirm' | 'unsubscribe';

/** Why an address left a list. */
export type ListExit = 'expired' | 'unsubscribed';

/** One address on a list (one row per address). */
export interface ListedAddress {
  readonly id: string;
  /** Normalized: trimmed and lower-cased, as the accounts compare addresses. */
  readonly email: string;
  /** The language of the mails: the one the latest mailed request asked for. */
  readonly language: ListLanguage;
  readonly createdAt: Date;
  readonly confirmedAt: Date | null;
  readonly lastMailedAt: Date;
  /** The account registered with this address, once one is (the row is then that account's); null on a list that links none. */
  readonly accountId: string | null;
}

/** A link's token, stored only as its SHA-256. */
export interface ListToken {
  readonly tokenHash: string;
  readonly purpose: LinkPurpose;
  /** When the link stops working: set on a list whose links expire, null on the others. */
  readonly expiresAt: Date | null;
}

/** What a token leads to. */
export interface ListTokenTarget {
  /** The address while it is listed; null once it left (only the token's hash is kept). */
  readonly address: ListedAddress | null;
  readonly expiresAt: Date | null;
  /** Why the address left, on a list that remembers it; null while listed, and on the others. */
  readonly exit: ListExit | null;
}

/**
 * One mailing list. When an address leaves, its row is deleted and its tokens are kept as bare hashes (with the
 * reason, where the list remembers it), so that a later click can tell a link that stopped working from one never
 * issued, until `forgetTokens`.
 */
export interface MailingListStore {
  byEmail(email: string): Promise<ListedAddress | null>;
  /** Lists a new address with the tokens of its first mail; 'email-taken' (and nothing written) when it is listed already. */
  add(address: ListedAddress, tokens: readonly ListToken[]): Promise<'added' | 'email-taken'>;
  /**
   * Records a further mail: sets lastMailedAt and language and adds the mail's tokens, only while the address is
   * listed, unconfirmed, of no account, and last mailed at or before `mailedNoLaterThan` (of two simultaneous calls
   * at most one succeeds). Answers whether it did.
   */
  recordMail(id: string, mail: { at: Date; language: ListLanguage; tokens: readonly ListToken[] }, mailedNoLaterThan: Date): Promise<boolean>;
  /** The token, if issued for `purpose` and neither spent nor forgotten. */
  byToken(tokenHash: string, purpose: LinkPurpose): Promise<ListTokenTarget | null>;
  /**
   * Confirms the address of a confirm token (its confirmedAt is set unless set already) and, on a list whose
   * confirming spends links, spends every token of the address. False (and nothing changed) when the token is no
   * confirm token, spent (also by a simultaneous call), or its address gone.
   */
  confirm(tokenHash: string, at: Date): Promise<boolean>;
  /** Deletes the address's row; its tokens stay as bare hashes, with `exit` where the list remembers it. Answers whether a row went. */
  remove(id: string, exit: ListExit, at: Date): Promise<boolean>;
  /** Removes (as 'expired') every unconfirmed address of no account created before `createdBefore`; answers how many went. */
  removeUnconfirmed(createdBefore: Date, at: Date): Promise<number>;
  /**
   * Forgets the tokens whose links stopped working before `before`: on a list whose links expire, those expired
   * then (spendable or not); on the others, those whose address left then. Answers how many.
   */
  forgetTokens(before: Date): Promise<number>;
  /** Makes the address `email` the account's, unless it is another's already; false on a list that links no accounts. */
  linkAccount(email: string, accountId: string): Promise<boolean>;
  /**
   * Deletes the addresses of the account: the one linked to it and the unlinked one of its (normalized) address.
   * Deleting the account deletes its linked address as well (as a foreign-key cascade). Answers how many went; 0 on
   * a list that links no accounts.
   */
  removeOfAccount(accountId: string, email: string | null): Promise<number>;
}
