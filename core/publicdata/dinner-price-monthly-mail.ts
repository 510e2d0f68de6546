import type { Clock } from '../../ports/clock.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';
import type { DinnerPriceSubscriberStore } from '../../ports/dinner-price-monthly-mails.js';
import type { Mailer } from '../../ports/mailer.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import { instantAt } from '../calendar/wall-clock.js';
import { DINNER_PRICE_TIME_ZONE } from '../dinnerprices/measure.js';
import { publicMonthsOf } from '../dinnerprices/publish.js';
import { composeDinnerPriceFigures } from './dinner-price-figures-mail.js';
import { dinnerPriceLinks } from './dinner-price-mail.js';

export interface DinnerPriceMonthlyMailDeps {
  readonly dinnerPrices: DinnerPriceStore;
  readonly dinnerPriceSubscribers: DinnerPriceSubscriberStore;
  /** Must answer only once the mail server accepted the mail, and throw when it refused it (not the background mailer). */
  readonly mailer: Mailer;
  readonly tokens: SecretTokens;
  readonly clock: Clock;
  readonly publicBaseUrl: string;
}

export interface DinnerPriceMonthlyMailOutcome {
  /** The month mailed: the newest published one; null before the first publication. */
  readonly month: string | null;
  readonly sent: number;
  /** Due addresses whose mail another run (another process) claimed first. */
  readonly claimedElsewhere: number;
  /** Mails the mail server refused: their claims were given back, so a later run sends them. */
  readonly refused: readonly { readonly subscriberId: string; readonly err: unknown }[];
  /** True when the run gave up after REFUSED_IN_A_ROW refusals in a row (the mail server is down): the rest wait. */
  readonly gaveUp: boolean;
}

/** Addresses read (and mailed, one after another) per page of the list. */
export const MONTHLY_MAIL_BATCH = 100;
/** Refusals in a row after which a run stops: the mail server is taken to be down, a later run goes on. */
export const REFUSED_IN_A_ROW = 5;

/** The instant the month after `month` (`YYYY-MM`) starts in Oslo: who confirmed before it was listed at the month's end. */
function endOf(month: string): Date {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  return instantAt(DINNER_PRICE_TIME_ZONE, next, '00:00');
}

/**
 * The monthly dinner-price mail (the job `mail-dinner-prices`). Which month: the newest published one, to each
 * address confirmed before that month ended. A month is published only after it has ended, so an address that
 * confirms today gets the next publication (this month's figures, early next month), never a back issue, and an
 * address that leaves and comes back within a month is never mailed one month twice. Months older than the newest
 * are never sent: a subscriber gets at most one mail a publication, also after an outage.
 *
 * Once per address and month, at most once: each mail is claimed in the store before it is sent (the claim also
 * issues the mail's own unsubscribe token), so several runs, in one process or several, share the list and never
 * mail an address twice. A mail the server refused is given back for a later run. A claim whose run died between
 * claiming and recording the send is not taken over: that mail may have gone, and a second copy of a newsletter
 * harms the list (spam reports) more than a missed one whose figures are public anyway. Each claim and record is a
 * statement of its own: no transaction is open while the mail server is spoken to.
 */
export async function mailDinnerPrices(deps: DinnerPriceMonthlyMailDeps, options: { batch?: number } = {}): Promise<DinnerPriceMonthlyMailOutcome> {
  const batch = options.batch ?? MONTHLY_MAIL_BATCH;
  const publication = await deps.dinnerPrices.publication();
  const rows = publication === null ? [] : publicMonthsOf(publication.json);
  const month = rows.reduce<string | null>((newest, r) => (newest === null || r.month > newest ? r.month : newest), null);
  const outcome = { month, sent: 0, claimedElsewhere: 0, refused: [] as { subscriberId: string; err: unknown }[], gaveUp: false };
  if (month === null) return outcome;
  const figures = rows.filter((r) => r.month === month);
  const confirmedBefore = endOf(month);
  const allMonths = `${deps.publicBaseUrl}/api/v1/data/dinner-prices.csv`;
  let refusedInARow = 0;
  let afterId: string | null = null;
  for (;;) {
    const page = await deps.dinnerPriceSubscribers.dueForMonthlyMail({ month, confirmedBefore, afterId, limit: batch });
    for (const s of page) {
      const unsubscribe = deps.tokens.generate();
      const tokens = [{ tokenHash: deps.tokens.hash(unsubscribe), purpose: 'unsubscribe' as const, expiresAt: null }];
      if (!(await deps.dinnerPriceSubscribers.claimMonthlyMail(s.id, month, { at: deps.clock.now(), tokens }))) {
        outcome.claimedElsewhere++;
        continue;
      }
      try {
        await deps.mailer.send(composeDinnerPriceFigures(s.email, s.language, figures, { unsubscribe: dinnerPriceLinks.unsubscribe(deps.publicBaseUrl, unsubscribe), allMonths }));
      } catch (err) {
        await deps.dinnerPriceSubscribers.releaseMonthlyMail(s.id, month);
        outcome.refused.push({ subscriberId: s.id, err });
        if (++refusedInARow >= REFUSED_IN_A_ROW) return { ...outcome, gaveUp: true };
        continue;
      }
      refusedInARow = 0;
      await deps.dinnerPriceSubscribers.monthlyMailSent(s.id, month, deps.clock.now());
      outcome.sent++;
    }
    // By id, after the last one seen: a refused (given back) address is not met again in this run.
    if (page.length < batch) return outcome;
    afterId = page.at(-1)!.id;
  }
}
