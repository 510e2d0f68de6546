import type { BuyAmount } from './buy-amounts.js';
import { canonicalUnit, type CanonicalUnit } from './units.js';

/** The languages a household's lists, pushes and mails are written in. */
export type UnitLanguage = 'nb' | 'en';

/** The metric units are written alike in both languages, one or more. */
const METRIC = { g: ['g', 'g'], kg: ['kg', 'kg'], ml: ['ml', 'ml'], cl: ['cl', 'cl'], dl: ['dl', 'dl'], l: ['l', 'l'] } as const;

/**
 * The words for the units of units.ts, one table per language, each unit as [one, more than one]. No screen, push
 * or mail shows a unit's code (tbsp, bx, pcs): it shows these.
 */
export const UNIT_WORDS: Readonly<Record<UnitLanguage, Readonly<Record<CanonicalUnit, readonly [string, string]>>>> = {
  nb: {
    ...METRIC,
    tsp: ['ts', 'ts'],
    tbsp: ['ss', 'ss'],
    pcs: ['stk', 'stk'],
    pk: ['pakke', 'pakker'],
    bx: ['boks', 'bokser'],
    bunt: ['bunt', 'bunter'],
    fl: ['flaske', 'flasker'],
  },
  en: {
    ...METRIC,
    tsp: ['tsp', 'tsp'],
    tbsp: ['tbsp', 'tbsp'],
    pcs: ['piece', 'pieces'],
    pk: ['pack', 'packs'],
    bx: ['can', 'cans'],
    bunt: ['bunch', 'bunches'],
    fl: ['bottle', 'bottles'],
  },
};

/** The word for `unit` (any alias) counted `quantity` times; a unit we do not know is the household's own word, kept. */
export function unitWord(unit: string, quantity: number, language: UnitLanguage): string {
  const canonical = canonicalUnit(unit);
  if (canonical === null) return unit.trim();
  const [one, more] = UNIT_WORDS[language][canonical];
  return quantity === 1 ? one : more;
}

/** A number as the language writes it: at most two decimals, a decimal comma in Norwegian ("1,6"). */
export function numberText(n: number, language: UnitLanguage): string {
  const text = String(Math.round(n * 100) / 100);
  return language === 'nb' ? text.replace('.', ',') : text;
}

/** An amount as words: "1,6 kg", "2 bokser (400 g)", "3 ss"; empty for no amount. */
export function amountText(amount: BuyAmount, language: UnitLanguage): string {
  if (amount.quantity === null || amount.unit === null) return '';
  const main = `${numberText(amount.quantity, language)} ${unitWord(amount.unit, amount.quantity, language)}`.trim();
  if (!amount.packageSize) return main;
  const { quantity, unit } = amount.packageSize;
  return `${main} (${numberText(quantity, language)} ${unitWord(unit, quantity, language)})`;
}
