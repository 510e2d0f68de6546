import type { Mail } from '../../ports/mailer.js';
import type { AccountLanguage } from './types.js';

/** Account mails: plain text plus HTML, one link each, in the account's language. */
export type AccountMail =
  | { kind: 'confirm-email'; link: string }
  | { kind: 'already-registered'; link: string }
  | { kind: 'reset-password'; link: string }
  | { kind: 'confirm-email-change'; link: string; newEmail: string }
  | { kind: 'email-change-notice'; link: string; newEmail: string }
  | { kind: 'password-changed'; link: string };

interface Words {
  subject: string;
  lines: string[];
  action: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function words(mail: AccountMail, lang: AccountLanguage, name: string): Words {
  const nb = lang === 'nb';
  switch (mail.kind) {
    case 'confirm-email':
      return nb
        ? { subject: 'Bekreft e-postadressen din', lines: [`Hei ${name}!`, 'Bekreft at denne adressen er din, så kan vi sende deg viktige beskjeder om kontoen. Lenken virker i 48 timer.'], action: 'Bekreft e-postadressen' }
        : { subject: 'Confirm your e-mail address', lines: [`Hi ${name},`, 'Please confirm that this address is yours so that we can reach you about your account. The link works for 48 hours.'], action: 'Confirm the address' };
    case 'already-registered':
      return nb
        ? { subject: 'Du har allerede en konto', lines: [`Hei ${name}!`, 'Noen prøvde å opprette en konto med denne adressen, men du har allerede en. Har du glemt passordet, kan du lage et nytt. Var det ikke deg, kan du se bort fra denne e-posten.'], action: 'Lag nytt passord' }
        : { subject: 'You already have an account', lines: [`Hi ${name},`, 'Someone tried to sign up with this address, but you already have an account. If you forgot your password, you can set a new one. If this was not you, ignore this mail.'], action: 'Set a new password' };
    case 'reset-password':
      return nb
        ? { subject: 'Lag nytt passord', lines: [`Hei ${name}!`, 'Vi fikk en forespørsel om å lage nytt passord for kontoen din. Lenken virker i én time og kan brukes én gang. Var det ikke deg, kan du se bort fra denne e-posten.'], action: 'Lag nytt passord' }
        : { subject: 'Reset your password', lines: [`Hi ${name},`, 'We received a request to reset the password of your account. The link works for one hour, once. If this was not you, ignore this mail.'], action: 'Reset the password' };
    case 'confirm-email-change':
      return nb
        ? { subject: 'Bekreft ny e-postadresse', lines: [`Hei ${name}!`, `Bekreft at du vil logge inn med ${mail.newEmail} fra nå av. Lenken virker i 24 timer.`], action: 'Bekreft ny adresse' }
        : { subject: 'Confirm your new e-mail address', lines: [`Hi ${name},`, `Please confirm that you want to sign in with ${mail.newEmail} from now on. The link works for 24 hours.`], action: 'Confirm the new address' };
    case 'email-change-notice':
      return nb
        ? { subject: 'E-postadressen din er i ferd med å endres', lines: [`Hei ${name}!`, `Noen ba om å flytte kontoen din til ${mail.newEmail}. Var det ikke deg, bør du lage nytt passord nå.`], action: 'Lag nytt passord' }
        : { subject: 'Your e-mail address is about to change', lines: [`Hi ${name},`, `Someone asked to move your account to ${mail.newEmail}. If this was not you, reset your password now.`], action: 'Reset the password' };
    case 'password-changed':
      return nb
        ? { subject: 'Passordet ditt er endret', lines: [`Hei ${name}!`, 'Passordet til kontoen din ble nettopp endret, og andre innlogginger er logget ut. Var det ikke deg, lag nytt passord nå.'], action: 'Lag nytt passord' }
        : { subject: 'Your password was changed', lines: [`Hi ${name},`, 'The password of your account was just changed, and other sign-ins were signed out. If this was not you, reset your password now.'], action: 'Reset the password' };
  }
}

export function composeAccountMail(to: string, name: string, lang: AccountLanguage, mail: AccountMail): Mail {
  const w = words(mail, lang, name);
  const text = [...w.lines, '', `${w.action}: ${mail.link}`, ''].join('\n');
  const html = [
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
    ...w.lines.map((l) => `<p>${esc(l)}</p>`),
    `<p><a href="${esc(mail.link)}">${esc(w.action)}</a></p>`,
    `<p style="color:#666;font-size:12px">${esc(mail.link)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: w.subject, text, html };
}

/** The link each account mail carries, to a page under the public base URL. */
export const links = {
  confirmEmail: (base: string, userId: string, token: string) => `${base}/confirm-email?userId=${encodeURIComponent(userId)}&token=${encodeURIComponent(token)}`,
  confirmEmailChange: (base: string, userId: string, newEmail: string, token: string) =>
    `${base}/confirm-email-change?userId=${encodeURIComponent(userId)}&newEmail=${encodeURIComponent(newEmail)}&token=${encodeURIComponent(token)}`,
  resetPassword: (base: string, email: string, token: string) => `${base}/reset-password?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`,
  forgotPassword: (base: string) => `${base}/forgot-password`,
};

/**
 * Sends an account mail to the account's address (an account without one gets none). `expiresAt`: when its link
 * stops working (a token's link); a mail not sent by then is dropped.
 */
export async function mailAccount(
  deps: { mailer: { send(m: Mail): Promise<void> } },
  account: { email: string | null; displayName: string; language: AccountLanguage },
  mail: AccountMail & { expiresAt?: Date },
  to = account.email,
): Promise<void> {
  if (to === null) return;
  const composed = composeAccountMail(to, account.displayName, account.language, mail);
  await deps.mailer.send(mail.expiresAt ? { ...composed, expiresAt: mail.expiresAt } : composed);
}
