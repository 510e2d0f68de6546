import type { Mail } from '../../ports/mailer.js';
import type { ListLanguage } from '../../ports/mailing-list-store.js';
import { composeLinkMail, type LinkMailWords } from '../kernel/link-mail.js';

/** The link a waitlist mail carries: GET /api/v1/waitlist/confirm in the OpenAPI document, with the token. */
export const waitlistConfirmLink = (base: string, token: string) => `${base}/api/v1/waitlist/confirm?token=${encodeURIComponent(token)}`;

const WORDS: Record<ListLanguage, LinkMailWords> = {
  nb: {
    subject: 'Bekreft plassen din på ventelisten',
    lines: [
      'Hei!',
      'Noen, forhåpentligvis du, ba om å få denne adressen på ventelisten vår. Bekreft adressen innen sju dager, så står du på listen. Lenken kan brukes én gang.',
    ],
    action: 'Bekreft adressen',
    footnote: 'Var det ikke deg? Da kan du se bort fra denne e-posten; vi sletter adressen etter sju dager.',
  },
  en: {
    subject: 'Confirm your place on the waitlist',
    lines: [
      'Hello,',
      'Someone, hopefully you, asked for this address to be put on our waitlist. Confirm the address within seven days to stay on it. The link works once.',
    ],
    action: 'Confirm the address',
    footnote: 'Was this not you? Then ignore this mail; we delete the address after seven days.',
  },
};

/** The confirmation mail, with its one single-use link. */
export const composeWaitlistConfirmation = (to: string, lang: ListLanguage, link: string): Mail => composeLinkMail(to, lang, WORDS[lang], link);
