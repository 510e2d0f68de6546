import { buyAmountOf, type BuyAmount, type PackageOf } from '../food/buy-amounts.js';
import { convert, tidy } from '../food/units.js';
import type { ShoppingLine } from './types.js';

/*
 * A line's amounts: what it needs bought, what is in the basket, and what is still to buy. What is bought stays
 * bought; what is still needed is the remainder, to buy.
 */

/** What a line needs bought, in its unit: the need less what the pantry likely holds. */
export const toBuy = (l: ShoppingLine): number => tidy(Math.max(l.requiredQuantity - l.haveQuantity, 0));

/**
 * What is still to buy on a line, in its unit: what it needs bought less what is in the basket. A purchase said in a
 * unit that does not convert (purchasedUnit) cannot be counted against the need, so the whole need remains.
 */
export const remainingOf = (l: ShoppingLine): number => tidy(Math.max(toBuy(l) - (l.purchasedUnit === null ? l.purchasedQuantity : 0), 0));

/** What to buy for what is still to buy on a line: the remainder as an amount a shop sells (whole packages when the line knows its package). */
export const remainingBuyOf = (l: ShoppingLine): BuyAmount => buyAmountOf(remainingOf(l), l.unit, l.pack ?? null);

/** What to buy for a line's whole need (the need less the pantry), as `remainingBuyOf` for its remainder. */
export const buyOf = (l: ShoppingLine): BuyAmount => buyAmountOf(toBuy(l), l.unit, l.pack ?? null);

/** An amount to buy in a line's unit (packages of a known size multiplied out), or null when it does not convert. */
function buyInUnit(buy: BuyAmount, unit: string): number | null {
  if (buy.quantity === null || buy.unit === null) return null;
  if (buy.packageSize !== null) return convert(buy.quantity * buy.packageSize.quantity, buy.packageSize.unit, unit);
  return convert(buy.quantity, buy.unit, unit);
}

/**
 * What is in the basket, in the line's unit, once the rest of a line is bought whole (a tick without an amount, or
 * the closing's "all bought"): what was in it (a purchase in a unit that does not convert is replaced) plus what a
 * shop sells for the remainder, rounded up (2 pcs for 1.75 pcs; two packages of 400 g, 800 g, for 500 g). The extra
 * of a rounded-up package goes to the pantry, so the next list knows it. A buy amount that does not convert back to
 * the line's unit counts as the exact remainder.
 */
export function boughtWhole(l: ShoppingLine): number {
  const before = l.purchasedUnit === null ? l.purchasedQuantity : 0;
  const rest = remainingOf(l);
  if (rest <= 0) return tidy(before);
  const bought = buyInUnit(remainingBuyOf(l), l.unit);
  return tidy(before + Math.max(bought ?? rest, rest));
}

/**
 * A line's status as its amounts say after its need changed (derived again, or an amount added by hand): with
 * something still to buy it is open (`Buy`), what is in the basket kept; with a converted purchase that now covers
 * the need it is bought (`Purchased`). A line with nothing bought and nothing left (a "to taste" line) keeps its tick.
 */
export function settled(l: ShoppingLine): ShoppingLine {
  if (l.purchasedUnit !== null) return l;
  if (remainingOf(l) > 0) return l.status === 'Buy' ? l : { ...l, status: 'Buy' };
  return l.purchasedQuantity > 0 && l.status !== 'Purchased' ? { ...l, status: 'Purchased' } : l;
}

/**
 * A line that `more` of its unit joins (added by hand, or with a recipe): the need and the hand-added part grow,
 * what is in the basket stays, and the line opens again when something is now left to buy.
 */
export const joined = (l: ShoppingLine, more: number, afterShopping: boolean): ShoppingLine =>
  settled({ ...l, requiredQuantity: tidy(l.requiredQuantity + more), extraQuantity: tidy(l.extraQuantity + more), addedAfterShopping: l.addedAfterShopping || afterShopping });

/** A line's `pack` field for a package known or not: absent when none is known (as a stored line without one reads back). */
export const packField = (pack: PackageOf | null | undefined): { pack?: PackageOf } => (pack ? { pack } : {});

/** A line with `pack` as its package (none: without the field). */
export function withPack<L extends { readonly pack?: PackageOf | null }>(l: L, pack: PackageOf | null): L {
  const { pack: _before, ...rest } = l;
  return { ...rest, ...packField(pack) } as L;
}
