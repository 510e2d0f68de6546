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
 * The monthly mail of one month to one address. The claim is taken before the mail is sent and is what makes it
 * once per address and month: a claim is never taken over, only given back (released) by the run that holds it when
 * the mail server refused the mail. `sentAt` is set once the server accepted it; a claim left without it by a run
 * that died is counted as sent (at most once: core/publicdata/dinner-price-monthly-mail.ts).
 */
export interface DinnerPriceMonthlyMail {
  /** `YYYY-MM`, the month whose figures the mail carries. */
  readonly month: string;
  readonly claimedAt: Date;
  readonly sentAt: Date | null;
}

/**
 * The dinner-price list. Every token ever mailed for an address keeps working while the address is listed. When
 * the address leaves, its row is deleted; its tokens are kept as bare hashes with the reason, so that a later click
 * still answers 410 after expiry and "unsubscribed" on a repeat, until `forgetLeft` drops them.
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
  /**
   * Confirmed addresses confirmed before `confirmedBefore` with no mail of `month` (neither claimed nor sent), by
   * id (ascending), those after `afterId` only, at most `limit`: one page of a run through the list.
   */
  dueForMonthlyMail(q: { month: string; confirmedBefore: Date; afterId: string | null; limit: number }): Promise<DinnerPriceSubscriber[]>;
  /**
   * Claims the mail of `month` to a listed address and issues the mail's tokens to it, only when the address has no
   * mail of that month yet (of several simultaneous claims, also from other processes, exactly one succeeds).
   * Answers whether this call claimed it; false also when the address is no longer listed.
   */
  claimMonthlyMail(id: string, month: string, claim: { at: Date; tokens: readonly DinnerPriceToken[] }): Promise<boolean>;
  /** Records that the claimed mail of `month` was accepted by the mail server. */
  monthlyMailSent(id: string, month: string, at: Date): Promise<void>;
  /** Gives back a claim whose mail was not sent (the mail server refused it): a later run may claim it again. */
  releaseMonthlyMail(id: string, month: string): Promise<void>;
  /** The monthly mails of a listed address, by month; they go with the address when it leaves. */
  monthlyMailsOf(id: string): Promise<DinnerPriceMonthlyMail[]>;
}
