import { canonicalUnit, convert, tidy, UNIT_TABLE, type CanonicalUnit } from './units.js';

/**
 * What to buy for a need: an amount a shop sells, never less than the need. Pure: no I/O, no clock.
 *
 * | the need | what to buy |
 * |---|---|
 * | no amount (0, or not a number): "salt og pepper", "litt muskat" | no number |
 * | a food with a known package whose size the need converts to ("hakkede tomater", boks 400 g; need 500 g) | whole packages (2 bokser of 400 g) |
 * | pieces, packages (stk, pakke, boks, bunt, flaske) and units we do not know ("fedd") | whole ones, rounded up |
 * | mass | under 10 g by 1 g, under 100 g by 5 g, under 1 kg by 25 g; from 1 kg in kg by 0.1 kg |
 * | volume in spoons (ts, ss), under 1 dl | spoons by ½ |
 * | other volume | under 1 dl in ml by 5 ml; under 1 l in dl by ½ dl; from 1 l in l by 0.1 l |
 *
 * A step rounds up: 1 600 g is 1,6 kg, 1 050 g is 1,1 kg, 333 g is 350 g (125 g stays 125 g), 26 dl is 2,6 l.
 */
export interface BuyAmount {
  /** How many of `unit` to buy; null for a need without an amount. */
  readonly quantity: number | null;
  /** A unit of units.ts (canonical), or the household's own word for one it does not know; null with no amount. */
  readonly unit: string | null;
  /** The size of one package, when `quantity` counts packages of a known size; else null. */
  readonly packageSize: { readonly quantity: number; readonly unit: CanonicalUnit } | null;
}

/** One package of a food: `packUnit` (pakke, boks, flaske...) holding `quantity` of `unit` (g, ml, stk). */
export interface PackageOf {
  readonly packUnit: CanonicalUnit;
  readonly quantity: number;
  readonly unit: string;
}

export const NO_AMOUNT: BuyAmount = Object.freeze({ quantity: null, unit: null, packageSize: null });

/** A little under a whole step still rounds to it (0.1 + 0.2 is not 0.3 in floating point). */
const EPSILON = 1e-9;
const upTo = (n: number, step: number): number => tidy(Math.ceil(n / step - EPSILON) * step);

/** What to buy for `quantity` of `unit`, in whole packages when one package of the food is known (`pack`). */
export function buyAmountOf(quantity: number, unit: string, pack: PackageOf | null = null): BuyAmount {
  if (!Number.isFinite(quantity) || quantity <= 0) return NO_AMOUNT;
  if (pack && pack.quantity > 0) {
    const inPackUnit = convert(quantity, unit, pack.unit);
    const packUnit = canonicalUnit(pack.unit);
    if (inPackUnit !== null && packUnit !== null) return { quantity: upTo(inPackUnit / pack.quantity, 1), unit: pack.packUnit, packageSize: { quantity: pack.quantity, unit: packUnit } };
  }
  const canonical = canonicalUnit(unit);
  if (canonical === null) return { quantity: upTo(quantity, 1), unit: unit.trim(), packageSize: null };
  const { dimension, size } = UNIT_TABLE[canonical];
  if (dimension === 'pieces' || dimension === 'package' || size === null) return { quantity: upTo(quantity, 1), unit: canonical, packageSize: null };
  const base = quantity * size;
  if (dimension === 'mass') return massAmount(base);
  return volumeAmount(base, canonical === 'tsp' || canonical === 'tbsp' ? canonical : null);
}

function massAmount(grams: number): BuyAmount {
  const step = grams < 10 ? 1 : grams < 100 ? 5 : 25;
  const rounded = upTo(grams, step);
  if (rounded < 1000) return { quantity: rounded, unit: 'g', packageSize: null };
  return { quantity: upTo(grams / 1000, 0.1), unit: 'kg', packageSize: null };
}

function volumeAmount(ml: number, spoon: 'tsp' | 'tbsp' | null): BuyAmount {
  if (spoon && ml < 100) return { quantity: upTo(ml / UNIT_TABLE[spoon].size!, 0.5), unit: spoon, packageSize: null };
  if (ml < 100) {
    const rounded = upTo(ml, 5);
    if (rounded < 100) return { quantity: rounded, unit: 'ml', packageSize: null };
  }
  const dl = upTo(ml / 100, 0.5);
  if (dl < 10) return { quantity: dl, unit: 'dl', packageSize: null };
  return { quantity: upTo(ml / 1000, 0.1), unit: 'l', packageSize: null };
}

/**
 * The package of a food a chain's list price names, when it is one a need can be counted in: a price per unit of
 * mass, volume or pieces with a package size (e.g. 400 g a package). A price per package unit (boks, pakke) with no
 * size, per kg with no package, or per piece in packages of one piece, gives none.
 */
export function packageOfPrice(price: { readonly unit: string; readonly packageSize: number | null }): PackageOf | null {
  const unit = canonicalUnit(price.unit);
  if (unit === null || price.packageSize === null || !(price.packageSize > 0)) return null;
  if (UNIT_TABLE[unit].dimension === 'package') return null;
  // One piece a "package" is the piece itself: pieces are bought as pieces.
  if (UNIT_TABLE[unit].dimension === 'pieces' && price.packageSize === 1) return null;
  return { packUnit: 'pk', quantity: price.packageSize, unit };
}
