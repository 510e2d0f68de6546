export type DinnerPriceLanguage = 'nb' | 'en';

/** Every mail carries two links with tokens of their own: a forwarded unsubscribe link must not confirm. */
export type DinnerPriceTokenPurpose = 'confirm' | 'unsubscribe';

/** Why an address left the list; its links answer by this afterwards. */
export type DinnerPriceListExit = 'expired' | 'unsubscribed';

/** One address on the dinner-price list (one row per address). */
export interface DinnerPriceSubscriber {
  readonly id: string;
  /** Normalized: trimmed and lower-cased. */
  readonly email: string;
  /** The language of the mails: the one the latest accepted request asked for. */
  readonly language: DinnerPriceLanguage;
  readonly createdAt: Date;
  readonly confirmedAt: Date | null;
  readonly lastMailedAt: Date;
}

/** A link token, stored only as its SHA-256. */
export interface DinnerPriceToken {
  readonly tokenHash: string;
  readonly purpose: DinnerPriceTokenPurpose;
}

/** What a token leads to: an address still on the list, or the memory of one that left (the address itself is gone). */
export type DinnerPriceTokenTarget =
  | { readonly state: 'listed'; readonly subscriber: DinnerPriceSubscriber }
  | { readonly state: 'left'; readonly exit: DinnerPriceListExit };

/**
 * The dinner-price list. Every token ever mailed for an address keeps working while the address is listed. When
 * the address leaves, its row is deleted; its tokens are kept as bare hashes with the reason, so that a later click
 * answers as api.md says (410 after expiry, "unsubscribed" on a repeat), until `forgetLeft` drops them.
 */
export interface DinnerPriceSubscriberStore {
  byEmail(email: string): Promise<DinnerPriceSubscriber | null>;
  /** Lists a new address with the tokens of its first mail; 'email-taken' (and nothing written) when it is listed already. */
  add(subscriber: DinnerPriceSubscriber, tokens: readonly DinnerPriceToken[]): Promise<'added' | 'email-taken'>;
  /**
   * Records a further mail to an unconfirmed address: sets lastMailedAt and language and adds the mail's tokens,
   * only while the address is listed, unconfirmed and last mailed at or before `mailedNoLaterThan` (of two
   * simultaneous calls at most one succeeds). Answers whether it did.
   */
  recordMail(id: string, mail: { at: Date; language: DinnerPriceLanguage; tokens: readonly DinnerPriceToken[] }, mailedNoLaterThan: Date): Promise<boolean>;
  byToken(tokenHash: string, purpose: DinnerPriceTokenPurpose): Promise<DinnerPriceTokenTarget | null>;
  /** Sets confirmedAt unless set already; answers whether the address is still listed. */
  confirm(id: string, at: Date): Promise<boolean>;
  /** Deletes the address's row; its tokens are remembered as having left for `exit`. Answers whether a row went. */
  remove(id: string, exit: DinnerPriceListExit, at: Date): Promise<boolean>;
  /** Removes (as 'expired') every unconfirmed address created before `createdBefore`; answers how many went. */
  removeUnconfirmed(createdBefore: Date, at: Date): Promise<number>;
  /** Forgets the tokens of addresses that left before `leftBefore`; answers how many. */
  forgetLeft(leftBefore: Date): Promise<number>;
}
