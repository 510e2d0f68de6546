// Numbers and whole kroner written as Intl.NumberFormat writes them for nb-NO and en-GB, without making one. The first
// Intl.NumberFormat a page makes loads the locale's number data, which took 40–75 ms on this project's test machine
// in Chromium 156 (4× that on a cheap phone), and the shopping list's first line needs a number. These write the same
// characters (test/web-plain-number.test.ts checks them against Intl, value by value); what they do not cover (an
// exponent, not a finite number) is left to Intl by returning null.

export type NumberLanguage = 'nb' | 'en';

interface Shape {
  readonly group: string;
  readonly decimal: string;
  readonly minus: string;
}

const SHAPES: Readonly<Record<NumberLanguage, Shape>> = {
  nb: { group: '\u00a0', decimal: ',', minus: '\u2212' },
  en: { group: ',', decimal: '.', minus: '-' },
};

/** One more in the last digit of a string of digits ("0999" → "1000"). */
function increment(digits: string): string {
  let out = '';
  let at = digits.length - 1;
  while (at >= 0 && digits[at] === '9') {
    out = `0${out}`;
    at--;
  }
  return at < 0 ? `1${out}` : `${digits.slice(0, at)}${String(Number(digits[at]) + 1)}${out}`;
}

/**
 * |n| rounded to `digits` fraction digits as Intl rounds (half away from zero, on the shortest decimal that reads back
 * as n, as String(n) writes it): its whole part and its fraction without trailing zeros; null for an exponent.
 */
function roundedParts(n: number, digits: number): { whole: string; fraction: string } | null {
  const written = String(Math.abs(n));
  if (written.includes('e')) return null;
  const [whole = '0', fraction = ''] = written.split('.');
  if (fraction.length <= digits) return { whole, fraction: fraction.replace(/0+$/, '') };
  let kept = whole + fraction.slice(0, digits);
  if (fraction.charCodeAt(digits) >= 53 /* '5' */) kept = increment(kept);
  const cut = kept.length - digits;
  return { whole: kept.slice(0, cut).replace(/^0+(?=\d)/, '') || '0', fraction: kept.slice(cut).replace(/0+$/, '') };
}

const grouped = (whole: string, group: string): string => (whole.length <= 3 ? whole : whole.replace(/\B(?=(\d{3})+$)/g, group));

/** n rounded to `digits` fraction digits in the language's characters: its sign, grouped whole part and fraction. */
function written(n: number, digits: number, language: NumberLanguage): { sign: string; whole: string; fraction: string } | null {
  const parts = Number.isFinite(n) ? roundedParts(n, digits) : null;
  if (!parts) return null;
  const shape = SHAPES[language];
  const sign = n < 0 || Object.is(n, -0) ? shape.minus : '';
  return { sign, whole: grouped(parts.whole, shape.group), fraction: parts.fraction ? shape.decimal + parts.fraction : '' };
}

/** n with at most two fraction digits, as Intl.NumberFormat(locale, { maximumFractionDigits: 2 }) writes it; null: ask Intl. */
export function plainNumber(n: number, language: NumberLanguage): string | null {
  const w = written(n, 2, language);
  return w && `${w.sign}${w.whole}${w.fraction}`;
}

/** n as whole kroner, as Intl.NumberFormat(locale, { style: 'currency', currency: 'NOK', maximumFractionDigits: 0 }) writes it. */
export function plainWholeKroner(n: number, language: NumberLanguage): string | null {
  const w = written(n, 0, language);
  if (!w) return null;
  return language === 'nb' ? `${w.sign}${w.whole}\u00a0kr` : `${w.sign}NOK\u00a0${w.whole}`;
}
