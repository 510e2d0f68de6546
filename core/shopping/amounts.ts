import { canonicalUnit, PIECE_UNIT, type CanonicalUnit } from '../food/units.js';

/**
 * Reading "amount unit food" from a shopping-list line as a person types it, in Norwegian or English.
 *
 * - The amount comes first ("2 kg poteter", "500g kjøttdeig", "en pakke pasta") or last ("tomater 4 stk"); a
 *   trailing amount needs a unit, because a bare trailing number is too often part of the name ("Omega 3").
 *   When both are there, the leading one wins and the rest is the name ("2 pk smør 500 g" → 2 pk "smør 500 g").
 * - Amounts: 2, 1.5 and 1,5, 1/2, 1 1/2, ½ and 1½, and number words (en/ei/ett … tolv, a/an/one … twelve,
 *   "en halv", "halvannen", "half a", "a dozen"). Number words only lead: "fire" is four, even in English.
 * - "2x400 g" and "2 x 400 g" are multiplied (800 g): the list wants the total to buy, not the pack size.
 *   "2x melk" and "2 x melk" count pieces.
 * - A counted amount without a unit is in pieces, `pcs` ("3 egg" → 3 pcs).
 * - A unit is a whole word (or glued to the number: "500g"); letters glued to a number that are not a unit
 *   ("7up") are not an amount. After a unit, one "of"/"med"/"av" is dropped ("a pack of pasta" → "pasta").
 * - What cannot be read entirely (ranges "2-3", "1/0", zero, an amount with no name left) is not guessed at:
 *   quantity and unit null, the whole (trimmed, space-collapsed) text as the name.
 */
export interface ParsedItem {
  readonly quantity: number | null;
  readonly unit: CanonicalUnit | null;
  readonly name: string;
}

const VULGAR: Readonly<Record<string, number>> = {
  '½': 1 / 2, '⅓': 1 / 3, '⅔': 2 / 3, '¼': 1 / 4, '¾': 3 / 4, '⅛': 1 / 8, '⅜': 3 / 8, '⅝': 5 / 8, '⅞': 7 / 8,
};
const V = `[${Object.keys(VULGAR).join('')}]`;
/** Alternatives in order: mixed fraction, whole + vulgar fraction, vulgar, fraction, decimal or whole. */
const AMOUNT = `(?:\\d+ \\d+\\/\\d+|\\d* ?${V}|\\d+\\/\\d+|\\d+(?:[.,]\\d+)?)`;
const TIMES = `(?:(\\d+) ?[x×] ?)`;
const WORD = `[\\p{L}\\p{M}]+\\.?`;
const LEADING = new RegExp(`^${TIMES}?(${AMOUNT})(.*)$`, 'u');
const TRAILING = new RegExp(`^(.+?) ${TIMES}?(${AMOUNT}) ?(${WORD})$`, 'u');
const GLUED_WORD = new RegExp(`^(${WORD})(?= |$)(.*)$`, 'u');

const ONE = ['en', 'én', 'ei', 'ett', 'a', 'an', 'one'];
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map<string, number>([
  ...ONE.map((w) => [w, 1] as const),
  ...(['to', 'tre', 'fire', 'fem', 'seks', 'sju', 'åtte', 'ni', 'ti', 'elleve', 'tolv'] as const).map((w, i) => [w, i + 2] as const),
  ['syv', 7],
  ...(['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'] as const).map((w, i) => [w, i + 2] as const),
  ['en halv', 0.5], ['ei halv', 0.5], ['ett halvt', 0.5], ['halv', 0.5], ['halvt', 0.5], ['halvannen', 1.5],
  ['half a', 0.5], ['half an', 0.5], ['a half', 0.5], ['a dozen', 12], ['one dozen', 12], ['et dusin', 12], ['ett dusin', 12],
]);

const CONNECTOR = /^(?:of|med|av) (?=\S)/i;
const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** Punctuation left between a name and its trailing amount ("tomater, 4 stk") is not part of the name. */
const trimPunctuation = (s: string): string => s.replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/g, '');
const tidy = (n: number): number => Number(n.toPrecision(12));

/** The number one amount stands for, or null when it is not a positive finite number. */
function amountValue(text: string): number | null {
  let value: number;
  let m: RegExpExecArray | null;
  if ((m = /^(\d+) (\d+)\/(\d+)$/.exec(text))) {
    const [whole, num, den] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (den === 0 || num >= den) return null; // "2 3/2" is not a mixed fraction anyone writes
    value = whole + num / den;
  } else if ((m = new RegExp(`^(\\d*) ?(${V})$`, 'u').exec(text))) {
    value = Number(m[1] ?? '') + (VULGAR[m[2] ?? ''] ?? NaN);
  } else if ((m = /^(\d+)\/(\d+)$/.exec(text))) {
    value = Number(m[1]) / Number(m[2]);
  } else {
    value = Number(text.replace(',', '.'));
  }
  return Number.isFinite(value) && value > 0 ? tidy(value) : null;
}

/** Unit and name from what follows an amount; null when that is not "[unit] name". */
function unitAndName(rest: string, glued: boolean): { unit: CanonicalUnit | null; name: string } | null {
  let unit: CanonicalUnit | null = null;
  let name = rest.trim();
  if (glued) {
    const m = GLUED_WORD.exec(rest);
    unit = m ? canonicalUnit(m[1] ?? '') : null;
    if (unit === null) return null;
    name = (m?.[2] ?? '').trim();
  } else {
    const space = name.indexOf(' ');
    const first = space < 0 ? name : name.slice(0, space);
    const u = canonicalUnit(first);
    if (u !== null) {
      unit = u;
      name = space < 0 ? '' : name.slice(space + 1);
    }
  }
  if (unit !== null) name = name.replace(CONNECTOR, '');
  name = trimPunctuation(name);
  return name === '' ? null : { unit, name };
}

function leadingAmount(text: string): ParsedItem | null {
  const m = LEADING.exec(text);
  if (!m) return null;
  const amount = amountValue(m[2] ?? '');
  if (amount === null) return null;
  const times = m[1] === undefined ? 1 : Number(m[1]);
  if (times === 0) return null;
  let rest = m[3] ?? '';
  // "2x melk": a count of pieces, unless a unit follows the x
  const countOnly = m[1] === undefined && Number.isInteger(amount) && /^ ?[x×](?= |$)/.exec(rest);
  if (countOnly) rest = ' ' + rest.slice(countOnly[0].length).trim();
  const glued = rest !== '' && !rest.startsWith(' ');
  const tail = unitAndName(rest, glued);
  if (tail === null) return null;
  return { quantity: tidy(times * amount), unit: tail.unit ?? PIECE_UNIT, name: tail.name };
}

function numberWordAmount(text: string): ParsedItem | null {
  const words = text.split(' ');
  for (const n of [2, 1]) {
    const value = NUMBER_WORDS.get(words.slice(0, n).join(' ').toLowerCase());
    if (value === undefined || words.length <= n) continue;
    const tail = unitAndName(words.slice(n).join(' '), false);
    if (tail !== null) return { quantity: value, unit: tail.unit ?? PIECE_UNIT, name: tail.name };
  }
  return null;
}

function trailingAmount(text: string): ParsedItem | null {
  const m = TRAILING.exec(text);
  if (!m) return null;
  const unit = canonicalUnit(m[4] ?? '');
  const amount = amountValue(m[3] ?? '');
  const times = m[2] === undefined ? 1 : Number(m[2]);
  const name = trimPunctuation(m[1] ?? '');
  if (unit === null || amount === null || times === 0 || name === '') return null;
  return { quantity: tidy(times * amount), unit, name };
}

/** Amount, canonical unit and food name of one shopping-list line; see the module comment for the rules. */
export function parseItemText(text: string): ParsedItem {
  const line = clean(text);
  return leadingAmount(line) ?? numberWordAmount(line) ?? trailingAmount(line) ?? { quantity: null, unit: null, name: line };
}
