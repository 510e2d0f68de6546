import type { ListedAddress, ListLanguage, MailingListStore } from '../../ports/mailing-list-store.js';
import { isEmailAddress, normalizeEmail } from '../accounts/email.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { LinkMailDeps } from '../kernel/link-mail.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { composeWaitlistConfirmation, waitlistConfirmLink } from './waitlist-mail.js';

export type WaitlistDeps = LinkMailDeps & { waitlist: MailingListStore };

const DAY_MS = 86_400_000;
/** Seven days to confirm (an address of no account is then deleted, its links answer 410); a mail a day at most. */
export const WAITLIST_UNCONFIRMED_LIFETIME_MS = 7 * DAY_MS;
export const WAITLIST_MAIL_INTERVAL_MS = DAY_MS;
/** How long an expired link keeps answering 410 (only its hash is kept); after that it answers as unknown. */
export const WAITLIST_EXPIRED_LINK_MEMORY_MS = 30 * DAY_MS;

/** An address that became an account's is the account's: it never expires (it goes with the account). */
const expired = (e: ListedAddress, now: Date) =>
  e.confirmedAt === null && e.accountId === null && now.getTime() - e.createdAt.getTime() > WAITLIST_UNCONFIRMED_LIFETIME_MS;

/**
 * Puts an address on the waitlist, unconfirmed, and mails it a single-use confirm link. The answer is the same
 * whatever the list knew (the mail leaves in the background): a new address gets a mail; an unconfirmed one gets
 * another (with a fresh link; earlier links keep working until used) only when its last mail is a day old or more;
 * a confirmed one, or one that became an account's, gets nothing. An unconfirmed address past its seven days starts
 * afresh.
 */
export async function joinWaitlist(
  deps: WaitlistDeps,
  input: { email: string; language: ListLanguage },
): Promise<Result<void, ErrorOf<'email-invalid'>>> {
  if (!isEmailAddress(input.email)) return fail({ type: 'email-invalid' });
  const email = normalizeEmail(input.email);
  const now = deps.clock.now();
  const token = deps.tokens.generate();
  // The mail is dropped, not sent, once its link has expired (with the address, seven days after its first request).
  const mail = (expiresAt: Date) => ({ ...composeWaitlistConfirmation(email, input.language, waitlistConfirmLink(deps.publicBaseUrl, token)), expiresAt });
  let known = await deps.waitlist.byEmail(email);
  if (known && expired(known, now)) {
    await deps.waitlist.remove(known.id, 'expired', now);
    known = null;
  }
  if (!known) {
    const expiresAt = new Date(now.getTime() + WAITLIST_UNCONFIRMED_LIFETIME_MS);
    const added = await deps.waitlist.add(
      { id: deps.ids.newId(), email, language: input.language, createdAt: now, confirmedAt: null, lastMailedAt: now, accountId: null },
      [{ tokenHash: deps.tokens.hash(token), purpose: 'confirm', expiresAt }],
    );
    // 'email-taken': a simultaneous request listed it a moment ago and mails it.
    if (added === 'added') await deps.mailer.send(mail(expiresAt));
    return ok(undefined);
  }
  if (known.confirmedAt !== null || known.accountId !== null) return ok(undefined);
  const mailedNoLaterThan = new Date(now.getTime() - WAITLIST_MAIL_INTERVAL_MS);
  if (known.lastMailedAt.getTime() > mailedNoLaterThan.getTime()) return ok(undefined);
  // A later link expires with the address, not later: seven days from the first request.
  const expiresAt = new Date(known.createdAt.getTime() + WAITLIST_UNCONFIRMED_LIFETIME_MS);
  const tokens = [{ tokenHash: deps.tokens.hash(token), purpose: 'confirm' as const, expiresAt }];
  if (await deps.waitlist.recordMail(known.id, { at: now, language: input.language, tokens }, mailedNoLaterThan)) {
    await deps.mailer.send(mail(expiresAt));
  }
  return ok(undefined);
}

/**
 * Confirms the address of a confirm link, once: the click spends the link (and every other link of the address).
 * A link past its address's seven days answers expired; a spent link, one never issued, and one whose address went
 * (deleted with its account) answer unknown.
 */
export async function confirmWaitlist(
  deps: Pick<WaitlistDeps, 'waitlist' | 'tokens' | 'clock'>,
  input: { token: string },
): Promise<Result<'confirmed', ErrorOf<'waitlist-token-unknown' | 'waitlist-token-expired'>>> {
  const now = deps.clock.now();
  const tokenHash = deps.tokens.hash(input.token);
  const target = await deps.waitlist.byToken(tokenHash, 'confirm');
  if (!target) return fail({ type: 'waitlist-token-unknown' });
  if (target.expiresAt !== null && now.getTime() > target.expiresAt.getTime()) return fail({ type: 'waitlist-token-expired' });
  // A simultaneous click may have spent it since, or the address gone with its account.
  if (!(await deps.waitlist.confirm(tokenHash, now))) return fail({ type: 'waitlist-token-unknown' });
  return ok('confirmed');
}

/** The hourly job: deletes addresses unconfirmed for over seven days, and forgets links expired a month ago. */
export async function purgeWaitlist(deps: Pick<WaitlistDeps, 'waitlist' | 'clock'>): Promise<{ expired: number; forgotten: number }> {
  const now = deps.clock.now().getTime();
  const expiredCount = await deps.waitlist.removeUnconfirmed(new Date(now - WAITLIST_UNCONFIRMED_LIFETIME_MS), new Date(now));
  const forgotten = await deps.waitlist.forgetTokens(new Date(now - WAITLIST_EXPIRED_LINK_MEMORY_MS));
  return { expired: expiredCount, forgotten };
}
