/**
 * The units of food amounts (recipes, plans, pantry, shopping lists, prices): one canonical spelling per unit, the aliases people type (Norwegian and English), and
 * the conversions that hold for every food. Pure: no I/O, no clock.
 *
 * | unit | dimension | size in the base unit | typed as |
 * |------|-----------|-----------------------|----------|
 * | g    | mass      | 1 g                   | g, gr, gram, grams, gramm |
 * | kg   | mass      | 1000 g                | kg, kilo, kilos, kilogram, kilograms |
 * | ml   | volume    | 1 ml                  | ml, milliliter(s), millilitre(s) |
 * | cl   | volume    | 10 ml                 | cl, centiliter(s), centilitre(s) |
 * | dl   | volume    | 100 ml                | dl, desiliter, deciliter(s), decilitre(s) |
 * | l    | volume    | 1000 ml               | l, ltr, liter(s), litre(s) |
 * | tsp  | volume    | 5 ml                  | tsp, ts, teskje(er), teaspoon(s) |
 * | tbsp | volume    | 15 ml                 | tbsp, tbs, ss, spiseskje(er), tablespoon(s) |
 * | pcs  | pieces    | 1 piece               | pcs, pc, stk, stykk, stykker, st, piece(s) |
 * | pk   | package   | (none)                | pk, pkt, pakke, pakker, pack(s), package(s) |
 * | bx   | package   | (none)                | bx, boks, bokser, can(s), tin(s) |
 * | bunt | package   | (none)                | bunt, bunter, bunch, bunches |
 * | fl   | package   | (none)                | fl, flaske, flasker, bottle(s) |
 *
 * A package (pack, can, bunch, bottle) has no size common to all foods, so each package unit converts only to
 * itself. Pieces convert to mass only through the household's own weight of one piece of that food. Volume never
 * converts to mass: that takes a density per food, which we do not keep.
 */

export type CanonicalUnit = 'g' | 'kg' | 'ml' | 'cl' | 'dl' | 'l' | 'tsp' | 'tbsp' | 'pcs' | 'pk' | 'bx' | 'bunt' | 'fl';
export type Dimension = 'mass' | 'volume' | 'pieces' | 'package';

/** The one unit a counted amount without a unit gets ("3 egg" is 3 pcs); "stk" and "piece" are aliases of it. */
export const PIECE_UNIT = 'pcs' satisfies CanonicalUnit;

/** Every alias in lower case; a trailing dot ("pk.", "stk.") is dropped before the look-up. */
export const UNIT_ALIASES: Readonly<Record<CanonicalUnit, readonly string[]>> = {
  g: ['g', 'gr', 'gram', 'grams', 'gramm'],
  kg: ['kg', 'kilo', 'kilos', 'kilogram', 'kilograms'],
  ml: ['ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres'],
  cl: ['cl', 'centiliter', 'centiliters', 'centilitre', 'centilitres'],
  dl: ['dl', 'desiliter', 'deciliter', 'deciliters', 'decilitre', 'decilitres'],
  l: ['l', 'ltr', 'liter', 'liters', 'litre', 'litres'],
  tsp: ['tsp', 'ts', 'teskje', 'teskjeer', 'teaspoon', 'teaspoons'],
  tbsp: ['tbsp', 'tbs', 'ss', 'spiseskje', 'spiseskjeer', 'tablespoon', 'tablespoons'],
  pcs: ['pcs', 'pc', 'stk', 'stykk', 'stykker', 'st', 'piece', 'pieces'],
  pk: ['pk', 'pkt', 'pakke', 'pakker', 'pack', 'packs', 'package', 'packages'],
  bx: ['bx', 'boks', 'bokser', 'can', 'cans', 'tin', 'tins'],
  bunt: ['bunt', 'bunter', 'bunch', 'bunches'],
  fl: ['fl', 'flaske', 'flasker', 'bottle', 'bottles'],
};

/** Dimension and size in the dimension's base unit (g, ml, piece); packages have no size. */
export const UNIT_TABLE: Readonly<Record<CanonicalUnit, { readonly dimension: Dimension; readonly size: number | null }>> = {
  g: { dimension: 'mass', size: 1 },
  kg: { dimension: 'mass', size: 1000 },
  ml: { dimension: 'volume', size: 1 },
  cl: { dimension: 'volume', size: 10 },
  dl: { dimension: 'volume', size: 100 },
  l: { dimension: 'volume', size: 1000 },
  tsp: { dimension: 'volume', size: 5 },
  tbsp: { dimension: 'volume', size: 15 },
  pcs: { dimension: 'pieces', size: 1 },
  pk: { dimension: 'package', size: null },
  bx: { dimension: 'package', size: null },
  bunt: { dimension: 'package', size: null },
  fl: { dimension: 'package', size: null },
};

const BY_ALIAS: ReadonlyMap<string, CanonicalUnit> = new Map(
  (Object.entries(UNIT_ALIASES) as [CanonicalUnit, readonly string[]][]).flatMap(([unit, aliases]) => aliases.map((a) => [a, unit] as const)),
);

const lookupKey = (unit: string): string => unit.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase().replace(/\.$/, '');

/** The canonical spelling of a unit as typed ("Stk.", " KG", "litres"), or null when it is not one we know. */
export function canonicalUnit(unit: string): CanonicalUnit | null {
  return BY_ALIAS.get(lookupKey(unit)) ?? null;
}

/** The dimension of a unit (any alias), or null when the unit is unknown. */
export function dimensionOf(unit: string): Dimension | null {
  const u = canonicalUnit(unit);
  return u === null ? null : UNIT_TABLE[u].dimension;
}

/** Floating-point noise off (3 × 0.1 is 0.3), far below any amount anyone shops for. */
export const tidy = (n: number): number => Number(n.toPrecision(12));

/**
 * `quantity` of `fromUnit` in `toUnit`, or null when the two do not convert. Units may be given as any alias.
 * The same unit always converts (also an unknown one, compared after trimming and lower-casing). Mass converts to
 * mass and volume to volume. Pieces convert to g or kg, and back, only with `gramsPerPiece` (> 0), the household's
 * weight of one piece of this food. Packages, volume ↔ mass and unknown units give null.
 */
export function convert(quantity: number, fromUnit: string, toUnit: string, gramsPerPiece?: number | null): number | null {
  if (!Number.isFinite(quantity)) return null;
  const from = canonicalUnit(fromUnit);
  const to = canonicalUnit(toUnit);
  if (from === null || to === null) return lookupKey(fromUnit) === lookupKey(toUnit) && lookupKey(fromUnit) !== '' ? quantity : null;
  if (from === to) return quantity;
  const a = UNIT_TABLE[from];
  const b = UNIT_TABLE[to];
  if (a.size === null || b.size === null) return null;
  if (a.dimension === b.dimension) return tidy((quantity * a.size) / b.size);
  const weight = gramsPerPiece ?? null;
  if (weight === null || !Number.isFinite(weight) || weight <= 0) return null;
  if (a.dimension === 'pieces' && b.dimension === 'mass') return tidy((quantity * weight) / b.size);
  if (a.dimension === 'mass' && b.dimension === 'pieces') return tidy((quantity * a.size) / weight);
  return null;
}

/** A unit as the household writes it ("Stk", " stk ") is one unit: NFKC, trimmed, inner spaces single, lower case. */
export const normalizeUnit = (unit: string): string => unit.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** One spelling per unit: the canonical one when the table above knows it, else the household's own, normalized. */
export const unitOf = (unit: string | null): string => (unit === null || unit.trim() === '' ? PIECE_UNIT : (canonicalUnit(unit) ?? normalizeUnit(unit)));
