import { language, t } from './i18n/language';
import { LOCALES, type Language } from './i18n/plural';
import { plainNumber, plainWholeKroner } from './plain-number';

// Dates, money and amounts as the screen's language writes them. Intl does the work (no date library); a formatter
// is costly to make on a cheap phone, so each shape is made once per language, the first time it is asked for, and
// plain numbers and whole kroner, which the list's first lines need, are written as Intl writes them without one.

function perLanguage<F>(make: (locale: string) => F): () => F {
  const made: Partial<Record<Language, F>> = {};
  return () => (made[language.value] ??= make(LOCALES[language.value]));
}

// A date without a time (YYYY-MM-DD) has no time zone: it is formatted as written, in UTC.
const utcDate = (date: string) => new Date(`${date}T00:00:00Z`);

const numbers = perLanguage((l) => new Intl.NumberFormat(l, { maximumFractionDigits: 2 }));
const wholeKroner = perLanguage((l) => new Intl.NumberFormat(l, { style: 'currency', currency: 'NOK', maximumFractionDigits: 0 }));
const kronerAndOre = perLanguage((l) => new Intl.NumberFormat(l, { style: 'currency', currency: 'NOK' }));
const dayNames = perLanguage((l) => new Intl.DateTimeFormat(l, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }));
const dayMonths = perLanguage((l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'long', timeZone: 'UTC' }));
const months = perLanguage((l) => new Intl.DateTimeFormat(l, { month: 'long', year: 'numeric', timeZone: 'UTC' }));
const days = perLanguage((l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'long', year: 'numeric' }));
const moments = perLanguage((l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }));
const lists = perLanguage((l) => new Intl.ListFormat(l, { type: 'conjunction' }));

/** A number as the language writes it, at most two decimals: 0,5 / 0.5; 1 500 / 1,500 (src/plain-number.ts, else Intl). */
export const number = (n: number): string => plainNumber(n, language.value) ?? numbers().format(n);

/** An amount with its unit, the unit as this language spells it (0,5 stk / 2 bokser / 2 cans). */
export const amount = (quantity: number, unit: string): string => `${number(quantity)} ${unitName(unit, quantity)}`;

/**
 * A unit as this language spells it, for `quantity` of it (one or more; more when not given): the service keeps one
 * code per unit (pcs, bx), the screen shows the language's word (stk, bokser). A household's own word is shown as
 * written.
 */
export const unitName = (unit: string, quantity?: number): string => {
  const words = t.value.units[unit];
  return words?.[quantity === 1 ? 0 : 1] ?? unit;
};

/** What to buy for a line, as the service rounded it ("2 bokser (400 g)", "1,6 kg"); empty for a line without an amount. */
export const buyAmount = (buy: { quantity: number | null; unit: string | null; packageSize: { quantity: number; unit: string } | null }): string => {
  if (buy.quantity === null || buy.unit === null) return '';
  const main = amount(buy.quantity, buy.unit);
  return buy.packageSize ? `${main} (${amount(buy.packageSize.quantity, buy.packageSize.unit)})` : main;
};

/** Kroner: whole kroner for estimates and prices of a week (kr 1 250), kroner and øre for a product's price. */
export const kroner = (n: number, exact = false): string => (exact ? kronerAndOre().format(n) : (plainWholeKroner(n, language.value) ?? wholeKroner().format(n)));

/** A date as words ("mandag 30. november"). */
export const dayName = (date: string): string => dayNames().format(utcDate(date));

/**
 * The weekday of a date ("mandag"), from the catalogue (test/web-weekdays.test.ts: as Intl writes it): the shopping
 * list's first lines say which day's dish they are for, and a page's first Intl.DateTimeFormat loads the locale's
 * date data (some 120–140 ms at 4× CPU throttling in the W9 bench).
 */
export const weekday = (date: string): string => t.value.weekdays[utcDate(date).getUTCDay()] ?? date;

/** Day and month of a date ("30. november"), as best-before dates are said. */
export const dayAndMonth = (date: string): string => dayMonths().format(utcDate(date));

/** A month ("november 2026") of a YYYY-MM. */
export const monthName = (yearMonth: string): string => months().format(utcDate(`${yearMonth}-01`));

/** The day of a moment (an ISO timestamp), on this browser's clock ("30. november 2026"). */
export const dayOf = (moment: string): string => days().format(new Date(moment));

/** Day, month and time of a moment, on this browser's clock ("30. november, 18:05"). */
export const momentOf = (moment: string): string => moments().format(new Date(moment));

/** Words joined as the language joins them ("løk, gulrot og poteter"). */
export const together = (words: readonly string[]): string => lists().format(words);
