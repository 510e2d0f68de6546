import type { ListLanguage } from '../../ports/mailing-list-store.js';
import type { Mail } from '../../ports/mailer.js';

/**
 * The links of the dinner-price list's mails: GET /api/v1/data/dinner-prices/confirm and
 * GET /api/v1/data/dinner-prices/unsubscribe in the OpenAPI document, each with its token.
 */
export const dinnerPriceLinks = {
  confirm: (base: string, token: string) => `${base}/api/v1/data/dinner-prices/confirm?token=${encodeURIComponent(token)}`,
  unsubscribe: (base: string, token: string) => `${base}/api/v1/data/dinner-prices/unsubscribe?token=${encodeURIComponent(token)}`,
};

interface Words {
  subject: string;
  lines: string[];
  confirm: string;
  unsubscribeLead: string;
  unsubscribe: string;
}

const WORDS: Record<ListLanguage, Words> = {
  nb: {
    subject: 'Bekreft at du vil få middagsprisene',
    lines: [
      'Hei!',
      'Noen, forhåpentligvis du, ba om å få middagsprisene tilsendt til denne adressen. Bekreft adressen innen sju dager, så står du på listen. Bekrefter du ikke, sletter vi adressen.',
    ],
    confirm: 'Bekreft adressen',
    unsubscribeLead: 'Var det ikke deg, eller vil du ikke ha flere e-poster fra oss?',
    unsubscribe: 'Meld deg av',
  },
  en: {
    subject: 'Confirm your dinner-price subscription',
    lines: [
      'Hello,',
      'Someone, hopefully you, asked for the dinner prices to be mailed to this address. Confirm the address within seven days to join the list; otherwise we delete it.',
    ],
    confirm: 'Confirm the address',
    unsubscribeLead: 'Was this not you, or do you want no more mail from us?',
    unsubscribe: 'Unsubscribe',
  },
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The confirmation mail: plain text plus HTML, with the confirm link and (as in every dinner-price mail) the unsubscribe link. */
export function composeDinnerPriceConfirmation(to: string, lang: ListLanguage, links: { confirm: string; unsubscribe: string }): Mail {
  const w = WORDS[lang];
  const text = [...w.lines, '', `${w.confirm}: ${links.confirm}`, '', w.unsubscribeLead, `${w.unsubscribe}: ${links.unsubscribe}`, ''].join('\n');
  const html = [
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
    ...w.lines.map((l) => `<p>${esc(l)}</p>`),
    `<p><a href="${esc(links.confirm)}">${esc(w.confirm)}</a></p>`,
    `<p style="color:#666;font-size:12px">${esc(links.confirm)}</p>`,
    `<p style="color:#666;font-size:12px">${esc(w.unsubscribeLead)} <a href="${esc(links.unsubscribe)}">${esc(w.unsubscribe)}</a></p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: w.subject, text, html };
}
