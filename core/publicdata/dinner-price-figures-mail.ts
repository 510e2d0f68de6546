import type { ListLanguage } from '../../ports/mailing-list-store.js';
import type { Mail } from '../../ports/mailer.js';
import type { PublicMonth } from '../dinnerprices/publish.js';
import type { HouseholdType } from '../dinnerprices/types.js';
import { escapeHtml } from '../kernel/link-mail.js';

interface Words {
  locale: string;
  subject: (month: string) => string;
  lines: (month: string) => string[];
  types: Record<HouseholdType, string>;
  median: string;
  range: string;
  perPortion: string;
  allMonths: string;
  unsubscribeLead: string;
  unsubscribe: string;
}

const WORDS: Record<ListLanguage, Words> = {
  nb: {
    locale: 'nb-NO',
    subject: (month) => `Middagsprisene for ${month}`,
    lines: (month) => ['Hei!', `Her er middagsprisene for ${month}: hva en uke med middager laget hjemme kostet, regnet med kjedenes listepriser.`],
    types: { single: 'Én voksen', couple: 'To voksne', family: 'To voksne og to barn' },
    median: 'Median ukepris',
    range: 'Ukepris p10–p90',
    perPortion: 'Pris per porsjon',
    allMonths: 'Alle månedene (CSV)',
    unsubscribeLead: 'Vil du ikke ha flere e-poster fra oss?',
    unsubscribe: 'Meld deg av',
  },
  en: {
    locale: 'en-GB',
    subject: (month) => `Dinner prices for ${month}`,
    lines: (month) => ['Hello,', `Here are the dinner prices for ${month}: what a week of home-cooked dinners cost at the chains' list prices.`],
    types: { single: 'One adult', couple: 'Two adults', family: 'Two adults and two children' },
    median: 'Median week price',
    range: 'Week price p10–p90',
    perPortion: 'Price per portion',
    allMonths: 'Every month (CSV)',
    unsubscribeLead: 'Do you want no more mail from us?',
    unsubscribe: 'Unsubscribe',
  },
};

/** "mars 2026" / "March 2026" for `YYYY-MM`. */
const monthName = (locale: string, month: string) =>
  new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

/**
 * The monthly mail of the dinner-price list: one month's figures per household type (median week price, p10–p90,
 * price per portion, in NOK as the language writes it), a link to every month's figures, and the unsubscribe
 * link. Plain text plus HTML.
 */
export function composeDinnerPriceFigures(
  to: string,
  lang: ListLanguage,
  figures: readonly PublicMonth[],
  links: { unsubscribe: string; allMonths: string },
): Mail {
  const w = WORDS[lang];
  const month = monthName(w.locale, figures[0]!.month);
  const nok = new Intl.NumberFormat(w.locale, { style: 'currency', currency: 'NOK' });
  const rows = figures.map((f) => ({
    type: w.types[f.householdType],
    median: nok.format(f.medianWeekPrice),
    range: `${nok.format(f.p10WeekPrice)} – ${nok.format(f.p90WeekPrice)}`,
    perPortion: nok.format(f.pricePerPortion),
  }));
  const text = [
    ...w.lines(month),
    '',
    ...rows.flatMap((r) => [r.type, `  ${w.median}: ${r.median}`, `  ${w.range}: ${r.range}`, `  ${w.perPortion}: ${r.perPortion}`, '']),
    `${w.allMonths}: ${links.allMonths}`,
    '',
    w.unsubscribeLead,
    `${w.unsubscribe}: ${links.unsubscribe}`,
    '',
  ].join('\n');
  const cell = (s: string, tag = 'td') => `<${tag} style="padding:4px 12px 4px 0;text-align:left">${escapeHtml(s)}</${tag}>`;
  const html = [
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
    ...w.lines(month).map((l) => `<p>${escapeHtml(l)}</p>`),
    '<table style="border-collapse:collapse">',
    `<tr>${['', w.median, w.range, w.perPortion].map((h) => cell(h, 'th')).join('')}</tr>`,
    ...rows.map((r) => `<tr>${[cell(r.type, 'th'), cell(r.median), cell(r.range), cell(r.perPortion)].join('')}</tr>`),
    '</table>',
    `<p><a href="${escapeHtml(links.allMonths)}">${escapeHtml(w.allMonths)}</a></p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(w.unsubscribeLead)} <a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(w.unsubscribe)}</a></p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: w.subject(month), text, html };
}
