import type { Clock } from '../../ports/clock.js';
import type { DinnerPriceSubscriberStore } from '../../ports/dinner-price-monthly-mails.js';
import type { ListedAddress, ListLanguage, ListToken } from '../../ports/mailing-list-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Mail, Mailer } from '../../ports/mailer.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import { isEmailAddress, normalizeEmail } from '../accounts/email.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { composeDinnerPriceConfirmation, dinnerPriceLinks } from './dinner-price-mail.js';

export interface DinnerPriceListDeps {
  dinnerPriceSubscribers: DinnerPriceSubscriberStore;
  mailer: Mailer;
  tokens: SecretTokens;
  ids: IdGenerator;
  clock: Clock;
  /** Base of the links in mails. */
  publicBaseUrl: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** An unconfirmed address is deleted after seven days; its confirm link then answers 410. */
export const UNCONFIRMED_LIFETIME_MS = 7 * DAY_MS;
/** At most one confirmation mail a day per address. */
export const CONFIRMATION_MAIL_INTERVAL_MS = DAY_MS;
/**
 * How long the links of an address that left keep answering 410 or "unsubscribed" (only their hashes and the
 * reason are kept); after that they answer as unknown.
 */
export const LEFT_LINK_MEMORY_MS = 365 * DAY_MS;

/**
 * The confirmation mail of an address listed at `listedAt`: its confirm link answers 410 once the address's seven
 * days are over, so a mail not sent by then is dropped.
 */
const confirmation = (email: string, language: ListLanguage, links: Parameters<typeof composeDinnerPriceConfirmation>[2], listedAt: Date): Mail => ({
  ...composeDinnerPriceConfirmation(email, language, links),
  expiresAt: new Date(listedAt.getTime() + UNCONFIRMED_LIFETIME_MS),
});

const expired = (s: ListedAddress, now: Date) => s.confirmedAt === null && now.getTime() - s.createdAt.getTime() > UNCONFIRMED_LIFETIME_MS;

/** Mints the two tokens of one mail; answers the tokens for the links and their hashes for the store. */
function mintLinks(deps: Pick<DinnerPriceListDeps, 'tokens' | 'publicBaseUrl'>) {
  const confirm = deps.tokens.generate();
  const unsubscribe = deps.tokens.generate();
  // The list's links work while the address is listed: they carry no expiry.
  const hashes: ListToken[] = [
    { tokenHash: deps.tokens.hash(confirm), purpose: 'confirm', expiresAt: null },
    { tokenHash: deps.tokens.hash(unsubscribe), purpose: 'unsubscribe', expiresAt: null },
  ];
  return { hashes, links: { confirm: dinnerPriceLinks.confirm(deps.publicBaseUrl, confirm), unsubscribe: dinnerPriceLinks.unsubscribe(deps.publicBaseUrl, unsubscribe) } };
}

/**
 * Puts an address on the list, unconfirmed, and mails it a confirmation with both links. The answer is the same
 * whatever the list knew (the mail leaves in the background): a new address gets a mail; an unconfirmed one gets
 * another (with fresh links; the earlier links keep working) only when its last mail is a day old or more; a
 * confirmed one gets nothing and keeps its language. An unconfirmed address past its seven days starts afresh.
 */
export async function subscribeToDinnerPrices(
  deps: DinnerPriceListDeps,
  input: { email: string; language: ListLanguage },
): Promise<Result<void, ErrorOf<'email-invalid'>>> {
  if (!isEmailAddress(input.email)) return fail({ type: 'email-invalid' });
  const email = normalizeEmail(input.email);
  const now = deps.clock.now();
  const mint = mintLinks(deps);
  let known = await deps.dinnerPriceSubscribers.byEmail(email);
  if (known && expired(known, now)) {
    await deps.dinnerPriceSubscribers.remove(known.id, 'expired', now);
    known = null;
  }
  if (!known) {
    const added = await deps.dinnerPriceSubscribers.add(
      { id: deps.ids.newId(), email, language: input.language, createdAt: now, confirmedAt: null, lastMailedAt: now, accountId: null },
      mint.hashes,
    );
    // 'email-taken': a simultaneous request listed it a moment ago and mails it.
    if (added === 'added') await deps.mailer.send(confirmation(email, input.language, mint.links, now));
    return ok(undefined);
  }
  if (known.confirmedAt !== null) return ok(undefined);
  const mailedNoLaterThan = new Date(now.getTime() - CONFIRMATION_MAIL_INTERVAL_MS);
  if (known.lastMailedAt.getTime() > mailedNoLaterThan.getTime()) return ok(undefined);
  if (await deps.dinnerPriceSubscribers.recordMail(known.id, { at: now, language: input.language, tokens: mint.hashes }, mailedNoLaterThan)) {
    await deps.mailer.send(confirmation(email, input.language, mint.links, known.createdAt));
  }
  return ok(undefined);
}

/**
 * Confirms the address of a confirm link. Every click answers confirmed while the address is listed; an address
 * unconfirmed for over seven days answers 410 (and goes at once, as the hourly purge would have it); an unsubscribed
 * address, an unsubscribe token and a token never issued answer unknown.
 */
export async function confirmDinnerPrices(
  deps: Pick<DinnerPriceListDeps, 'dinnerPriceSubscribers' | 'tokens' | 'clock'>,
  input: { token: string },
): Promise<Result<'confirmed', ErrorOf<'dinner-price-token-unknown' | 'dinner-price-token-expired'>>> {
  const now = deps.clock.now();
  const tokenHash = deps.tokens.hash(input.token);
  const target = await deps.dinnerPriceSubscribers.byToken(tokenHash, 'confirm');
  if (!target) return fail({ type: 'dinner-price-token-unknown' });
  if (target.address === null) return fail({ type: target.exit === 'expired' ? 'dinner-price-token-expired' : 'dinner-price-token-unknown' });
  if (expired(target.address, now)) {
    await deps.dinnerPriceSubscribers.remove(target.address.id, 'expired', now);
    return fail({ type: 'dinner-price-token-expired' });
  }
  // A simultaneous unsubscribe may have removed it since: then the link is one of an unsubscribed address.
  if (!(await deps.dinnerPriceSubscribers.confirm(tokenHash, now))) return fail({ type: 'dinner-price-token-unknown' });
  return ok('confirmed');
}

/**
 * Deletes the address of an unsubscribe link (the row goes; nothing is marked). A repeat click, or a click after the
 * address expired, answers unsubscribed again; only a token never issued (or forgotten) answers unknown.
 */
export async function unsubscribeFromDinnerPrices(
  deps: Pick<DinnerPriceListDeps, 'dinnerPriceSubscribers' | 'tokens' | 'clock'>,
  input: { token: string },
): Promise<Result<'unsubscribed', ErrorOf<'dinner-price-token-unknown'>>> {
  const target = await deps.dinnerPriceSubscribers.byToken(deps.tokens.hash(input.token), 'unsubscribe');
  if (!target) return fail({ type: 'dinner-price-token-unknown' });
  if (target.address !== null) await deps.dinnerPriceSubscribers.remove(target.address.id, 'unsubscribed', deps.clock.now());
  return ok('unsubscribed');
}

/** The hourly job: deletes addresses unconfirmed for over seven days, and forgets links of addresses long gone. */
export async function purgeUnconfirmedDinnerPriceSubscribers(
  deps: Pick<DinnerPriceListDeps, 'dinnerPriceSubscribers' | 'clock'>,
): Promise<{ expired: number; forgotten: number }> {
  const now = deps.clock.now();
  const expiredCount = await deps.dinnerPriceSubscribers.removeUnconfirmed(new Date(now.getTime() - UNCONFIRMED_LIFETIME_MS), now);
  const forgotten = await deps.dinnerPriceSubscribers.forgetTokens(new Date(now.getTime() - LEFT_LINK_MEMORY_MS));
  return { expired: expiredCount, forgotten };
}
