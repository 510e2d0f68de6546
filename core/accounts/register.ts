import type { ReferralCodeStore } from '../../ports/referral-code-store.js';
import type { MailingListStore } from '../../ports/mailing-list-store.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { issueAccountToken } from './account-tokens.js';
import type { AccountDeps } from './deps.js';
import { isEmailAddress, normalizeEmail } from './email.js';
import { links, mailAccount } from './mails.js';
import { guessableReason } from './guessable-passwords.js';
import { passwordLength } from './passwords.js';
import { startSession, type IssuedSession } from './sessions.js';
import { PASSWORD_MIN, type AccountLanguage } from './types.js';

export type RegisterDeps = Pick<AccountDeps, 'accounts' | 'sessions' | 'accountTokens' | 'hasher' | 'breached' | 'mailer' | 'ids' | 'tokens' | 'clock' | 'publicBaseUrl'> & {
  referralCodes: Pick<ReferralCodeStore, 'redeem'>;
  waitlist: Pick<MailingListStore, 'linkAccount'>;
};

/**
 * A referral code as a person may type or paste it at sign-up: case, spaces and hyphens do not matter (codes are
 * upper-case letters and digits of one alphabet, shown in groups).
 */
export const normalizeReferralCode = (typed: string): string => typed.replace(/[\s-]+/g, '').toUpperCase();

export interface RegisterInput {
  email: string;
  password: string;
  displayName: string;
  language?: AccountLanguage | undefined;
  /** A referral code a household handed out; one that is unknown or spent is ignored. */
  referralCode?: string | null | undefined;
}

/**
 * A fresh address gets an account, a session and a confirmation mail, spends the referral code it came with when
 * that is an unused code of any household (never a reason to refuse), and turns the address's waitlist row into
 * the account's; a known address gets an already-have-an-account mail and no session. Both paths hash the password
 * and send one mail (delivered in the background), so neither the answer nor its timing tells whether the address
 * was known.
 */
export type RegisterOutcome = { kind: 'created'; issued: IssuedSession } | { kind: 'address-known' };

export async function register(
  deps: RegisterDeps,
  input: RegisterInput,
): Promise<Result<RegisterOutcome, ErrorOf<'signup-rejected' | 'password-guessable' | 'password-pwned'>>> {
  if (!isEmailAddress(input.email)) return fail({ type: 'signup-rejected', reason: 'email' });
  if (passwordLength(input.password) < PASSWORD_MIN) return fail({ type: 'signup-rejected', reason: 'password' });
  if (await deps.breached.isBreached(input.password)) return fail({ type: 'password-pwned' });
  const guessable = guessableReason(input.password, { email: input.email, displayName: input.displayName });
  if (guessable !== null) return fail({ type: 'password-guessable', reason: guessable });

  const passwordHash = await deps.hasher.hash(input.password);
  const email = input.email.trim();
  const created = await deps.accounts.create({
    id: deps.ids.newId(),
    email,
    emailConfirmed: false,
    displayName: input.displayName.trim(),
    language: input.language ?? 'nb',
    passwordHash,
    securityStamp: deps.tokens.generate(),
    createdAt: deps.clock.now(),
  });
  if (created === 'email-taken') {
    const known = await deps.accounts.byEmail(email);
    if (known) await mailAccount(deps, known, { kind: 'already-registered', link: links.forgotPassword(deps.publicBaseUrl) });
    return ok({ kind: 'address-known' });
  }
  // Only a new account redeems: a known address registers nothing, so it spends no code either.
  const code = input.referralCode ? normalizeReferralCode(input.referralCode) : '';
  if (code !== '') await deps.referralCodes.redeem(code, created.id, created.createdAt);
  await deps.waitlist.linkAccount(normalizeEmail(email), created.id);
  const { token, expiresAt } = await issueAccountToken(deps, created, 'confirm-email');
  await mailAccount(deps, created, { kind: 'confirm-email', link: links.confirmEmail(deps.publicBaseUrl, created.id, token), expiresAt });
  const issued = await startSession(deps, created);
  // Nobody holds a session of an account made this instant, so nobody can have deleted it: a fault, not a case.
  if (!issued) throw new Error('the account was deleted while it was being registered');
  return ok({ kind: 'created', issued });
}
