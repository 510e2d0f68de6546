import type { ListedAddress, ListToken, MailingListStore } from './mailing-list-store.js';

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

/** The monthly mails of the dinner-price list ('dinner-prices' in ports/mailing-list-store.ts). */
export interface DinnerPriceMonthlyMails {
  /**
   * Confirmed addresses confirmed before `confirmedBefore` with no mail of `month` (neither claimed nor sent), by
   * id (ascending), those after `afterId` only, at most `limit`: one page of a run through the list.
   */
  dueForMonthlyMail(q: { month: string; confirmedBefore: Date; afterId: string | null; limit: number }): Promise<ListedAddress[]>;
  /**
   * Claims the mail of `month` to a listed address and issues the mail's tokens to it, only when the address has no
   * mail of that month yet (of several simultaneous claims, also from other processes, exactly one succeeds).
   * Answers whether this call claimed it; false also when the address is no longer listed.
   */
  claimMonthlyMail(id: string, month: string, claim: { at: Date; tokens: readonly ListToken[] }): Promise<boolean>;
  /** Records that the claimed mail of `month` was accepted by the mail server. */
  monthlyMailSent(id: string, month: string, at: Date): Promise<void>;
  /** Gives back a claim whose mail was not sent (the mail server refused it): a later run may claim it again. */
  releaseMonthlyMail(id: string, month: string): Promise<void>;
  /** The monthly mails of a listed address, by month; they go with the address when it leaves. */
  monthlyMailsOf(id: string): Promise<DinnerPriceMonthlyMail[]>;
}

/** The dinner-price list: a double-opt-in mailing list with its monthly mails. */
export type DinnerPriceSubscriberStore = MailingListStore & DinnerPriceMonthlyMails;
