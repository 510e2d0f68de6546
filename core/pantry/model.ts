import type { InventoryGroup, ObservationType, PantryMerge, PantryObservation, PantryRow, StorageLocation } from './types.js';
import { AISLES, INVENTORY_GROUPS, type Aisle } from './types.js';
import type { IsoDate } from '../kernel/dates.js';

/**
 * The pantry model: how a food's observations become its PantryRow. Pure and deterministic: the same log, merges
 * and `now` give the same rows. docs/pantry-model.md states it in words, with the parameters below.
 */

export const USE_PRIORITIES = ['High', 'Normal', 'Low'] as const;
export type UsePriority = (typeof USE_PRIORITIES)[number];
export { AISLES, type Aisle } from './types.js';

const DAY_MS = 86_400_000;

/** Confidence halves every this many days without new evidence. */
export const HALF_LIFE_DAYS: Readonly<Record<StorageLocation, number>> = { Fridge: 4, Freezer: 90, Pantry: 30, Unknown: 10 };
/** The confidence an observation gives when the client sends none. */
export const DEFAULT_CONFIDENCE: Readonly<Record<ObservationType, number>> = { Purchased: 1, Seen: 0.9, Estimated: 0.6, Used: 0.8, Gone: 1 };
/** A Used observation in another unit than the row's cannot be subtracted: the row keeps its amount at this confidence. */
export const UNCOMPARABLE_USE_CONFIDENCE = 0.5;
/** Below this (decayed) confidence a row is archived (Aged); below UNCERTAIN_BELOW it is Uncertain. */
export const AGED_BELOW = 0.2;
export const UNCERTAIN_BELOW = 0.5;
/** A Fridge row this many days after its last evidence gets usePriority High (and so UseSoon while still trusted). */
export const FRIDGE_USE_SOON_DAYS = 2;
/** A row whose best-before date is this many days away or less gets usePriority High (UseSoon while still trusted). */
export const BEST_BEFORE_USE_SOON_DAYS = 2;
/** Past its best-before date a row's confidence also halves every this many days, on top of its place's decay. */
export const PAST_BEST_BEFORE_HALF_LIFE_DAYS = 1;
export const DEFAULT_UNIT = 'pcs';

/**
 * Keywords per aisle, tried in this order; the first aisle with a keyword matching a word of the food key wins.
 * A keyword of four or more letters matches inside a word too (Norwegian compounds: kyllingfilet, sjokolademelk);
 * a shorter one only a whole word (ost, egg, ris: no "eggplant" in Dairy).
 */
const AISLE_KEYWORDS: ReadonlyArray<readonly [Aisle, readonly string[]]> = [
  ['Frozen', ['frossen', 'frosne', 'frozen', 'is', 'iskrem', 'fryst']],
  ['Meat', ['kjøtt', 'meat', 'kylling', 'chicken', 'svin', 'pork', 'biff', 'beef', 'storfe', 'lam', 'lamb', 'laks', 'salmon', 'fisk', 'fish', 'torsk', 'pølse', 'sausage', 'bacon', 'skinke', 'ham', 'reke', 'shrimp', 'karbonade', 'kotelett', 'filet', 'turkey', 'kalkun']],
  ['Dairy', ['melk', 'milk', 'ost', 'cheese', 'yoghurt', 'yogurt', 'smør', 'butter', 'fløte', 'cream', 'rømme', 'egg', 'kesam', 'cottage']],
  ['Produce', ['tomat', 'tomato', 'potet', 'potato', 'løk', 'onion', 'gulrot', 'carrot', 'salat', 'lettuce', 'agurk', 'cucumber', 'eple', 'apple', 'banan', 'banana', 'paprika', 'brokkoli', 'broccoli', 'sitron', 'lemon', 'lime', 'avokado', 'avocado', 'spinat', 'spinach', 'hvitløk', 'garlic', 'drue', 'grape', 'pære', 'pear', 'appelsin', 'orange', 'bær', 'berry', 'sopp', 'mushroom', 'champignon', 'kål', 'cabbage', 'urt', 'herb', 'frukt', 'fruit']],
  ['Bakery', ['brød', 'bread', 'bolle', 'rundstykke', 'baguette', 'lompe', 'tortilla', 'bagel', 'ciabatta', 'croissant', 'kake', 'cake']],
  ['Dry', ['ris', 'rice', 'basmati', 'jasmin', 'pasta', 'spagetti', 'spaghetti', 'mel', 'flour', 'sukker', 'sugar', 'havre', 'oat', 'nudel', 'noodle', 'bønne', 'bean', 'linse', 'lentil', 'salt', 'krydder', 'spice', 'kaffe', 'coffee', 'te', 'tea', 'hermetikk', 'canned', 'olje', 'oil', 'eddik', 'vinegar', 'müsli', 'musli', 'granola', 'knekkebrød', 'kjeks', 'nøtt', 'nut']],
];

/** The aisle of a food key by the keyword table (Other when nothing matches). */
export function aisleOf(foodKey: string): Aisle {
  const words = foodKey.split('-');
  for (const [aisle, keywords] of AISLE_KEYWORDS) {
    if (keywords.some((k) => words.some((w) => w === k || (k.length >= 4 && w.includes(k))))) return aisle;
  }
  return 'Other';
}

/**
 * c0 × 0.5^(days since the last evidence / half-life of the place), and past the best-before date (its day ends at
 * midnight UTC) × 0.5^(days past it / PAST_BEST_BEFORE_HALF_LIFE_DAYS); rounded to 3 decimals.
 */
export function decayedConfidence(c0: number, location: StorageLocation, lastEvidenceAt: Date, now: Date, bestBefore: IsoDate | null = null): number {
  const days = Math.max(0, now.getTime() - lastEvidenceAt.getTime()) / DAY_MS;
  const pastBestBefore = bestBefore === null ? 0 : Math.max(0, now.getTime() - bestBeforeEnds(bestBefore).getTime()) / DAY_MS;
  return round3(c0 * 0.5 ** (days / HALF_LIFE_DAYS[location]) * 0.5 ** (pastBestBefore / PAST_BEST_BEFORE_HALF_LIFE_DAYS));
}

/** The moment a best-before date has passed: the end of that day (UTC; a pantry's hours do not matter here). */
export const bestBeforeEnds = (date: IsoDate): Date => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS);

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Until when a row the pantry counts as likely there (UseSoon or LikelyAvailable) keeps counting without new
 * evidence: the moment its decayed confidence may fall below UNCERTAIN_BELOW. Reckoned from the row's rounded
 * confidence minus the rounding's half step, so the answer may come a little early, never late. Null for a row
 * that does not count now (time alone never makes it count).
 */
export function countsUntil(row: Pick<PantryRow, 'group' | 'confidence' | 'storageLocation' | 'bestBefore'>, now: Date): Date | null {
  if (row.group !== 'UseSoon' && row.group !== 'LikelyAvailable') return null;
  const ends = row.bestBefore === null ? null : bestBeforeEnds(row.bestBefore).getTime();
  // Past its best-before date a row decays at both rates at once; before it, it may count at most until that date.
  const halfLife = ends !== null && now.getTime() >= ends ? 1 / (1 / HALF_LIFE_DAYS[row.storageLocation] + 1 / PAST_BEST_BEFORE_HALF_LIFE_DAYS) : HALF_LIFE_DAYS[row.storageLocation];
  const days = halfLife * Math.log2(Math.max(row.confidence - 0.0005, Number.MIN_VALUE) / UNCERTAIN_BELOW);
  const until = now.getTime() + Math.max(0, days) * DAY_MS;
  return new Date(ends !== null && now.getTime() < ends ? Math.min(until, ends) : until);
}
const sameUnit = (a: string | null, b: string | null) => a === null || b === null || a.toLowerCase() === b.toLowerCase();

/** What the fold keeps between observations of one food. */
interface FoodState {
  quantity: number;
  unit: string | null;
  location: StorageLocation;
  /** The confidence at the time of the last evidence, before decay. */
  confidence: number;
  lastEvidenceAt: Date;
  lastEvidenceKind: ObservationType;
  bestBefore: IsoDate | null;
  /** Latest name given under the row's own key, and latest given under any key folded into it. */
  ownName: string | null;
  anyName: string | null;
}

/** One observation's effect on the state (null: the food's first observation). */
export function applyObservation(rowKey: string, s: FoodState | null, o: PantryObservation): FoodState {
  const before = s ?? { quantity: 0, unit: null, location: 'Unknown' as StorageLocation, bestBefore: null, ownName: null, anyName: null };
  let quantity = before.quantity;
  let unit = o.unit ?? before.unit;
  let confidence = o.confidence ?? DEFAULT_CONFIDENCE[o.observationType];
  const comparable = sameUnit(o.unit, before.unit);
  switch (o.observationType) {
    case 'Purchased':
      quantity = (comparable ? before.quantity : 0) + (o.quantity ?? 1);
      break;
    case 'Seen':
    case 'Estimated':
      quantity = o.quantity ?? (before.quantity > 0 ? before.quantity : 1);
      break;
    case 'Used':
      if (comparable) quantity = Math.max(0, before.quantity - (o.quantity ?? 1));
      else {
        unit = before.unit;
        confidence = o.confidence ?? UNCOMPARABLE_USE_CONFIDENCE;
      }
      break;
    case 'Gone':
      quantity = 0;
      break;
  }
  return {
    quantity,
    unit,
    location: o.storageLocation ?? before.location,
    confidence,
    lastEvidenceAt: o.observedAt,
    lastEvidenceKind: o.observationType,
    // A date given stands until another is given; an emptied row forgets it, so new stock starts without one.
    bestBefore: quantity <= 0 ? null : (o.bestBefore ?? before.bestBefore),
    ownName: o.foodKey === rowKey && o.displayName !== null ? o.displayName : before.ownName,
    anyName: o.displayName ?? before.anyName,
  };
}

/** The row a folded state shows at `now`. */
export function rowOf(foodKey: string, s: FoodState, now: Date): PantryRow {
  const empty = s.quantity <= 0;
  const confidence = decayedConfidence(s.confidence, s.location, s.lastEvidenceAt, now, s.bestBefore);
  const aisle = aisleOf(foodKey);
  const ageDays = Math.max(0, now.getTime() - s.lastEvidenceAt.getTime()) / DAY_MS;
  const bestBeforeSoon = s.bestBefore !== null && (bestBeforeEnds(s.bestBefore).getTime() - now.getTime()) / DAY_MS <= BEST_BEFORE_USE_SOON_DAYS;
  const usePriority: UsePriority = empty
    ? 'Low'
    : bestBeforeSoon
      ? 'High'
      : s.location === 'Freezer'
        ? 'Low'
        : s.location === 'Fridge' && ageDays >= FRIDGE_USE_SOON_DAYS
          ? 'High'
          : 'Normal';
  const group: InventoryGroup =
    empty || confidence < AGED_BELOW ? 'Aged' : confidence < UNCERTAIN_BELOW ? 'Uncertain' : usePriority === 'High' ? 'UseSoon' : 'LikelyAvailable';
  return {
    foodKey,
    displayName: s.ownName ?? s.anyName ?? foodKey.replace(/-/g, ' '),
    estimatedQuantity: empty ? 0 : round3(s.quantity),
    unit: s.unit ?? DEFAULT_UNIT,
    confidence,
    storageLocation: s.location,
    usePriority,
    lastEvidenceAt: new Date(s.lastEvidenceAt.getTime()),
    aisle,
    // Perishables ask for the date on the pack until an observation gives one.
    asksForDate: group !== 'Aged' && (aisle === 'Meat' || aisle === 'Dairy') && s.location !== 'Freezer' && s.bestBefore === null,
    lastEvidenceKind: s.lastEvidenceKind,
    group,
    bestBefore: empty ? null : s.bestBefore,
  };
}

/**
 * Where each key's observations count: a merge points fromKey at toKey, and chains are followed (A→B, B→C sends
 * A to C). A cycle, which the merge rules forbid, stops at the first key met twice.
 */
export function mergeTargets(merges: readonly Pick<PantryMerge, 'fromKey' | 'toKey'>[]): (foodKey: string) => string {
  const next = new Map(merges.map((m) => [m.fromKey, m.toKey]));
  return (foodKey) => {
    const seen = new Set([foodKey]);
    let key = foodKey;
    for (let to = next.get(key); to !== undefined && !seen.has(to); to = next.get(key)) {
      seen.add(to);
      key = to;
    }
    return key;
  };
}

/**
 * Folds of frozen logs, by the log: a frozen log (an array that cannot change, of observations that cannot) is one
 * the store keeps between reads and hands out as it is while the household's pantry is unchanged (the knex store,
 * under the household's revision). The fold does not depend on the time, so each read of an unchanged pantry reckons
 * only its rows at `now`, not five years of observations again (W10, docs/performance.md). Kept weakly: a log the
 * store lets go takes its fold with it.
 */
const folds = new WeakMap<readonly PantryObservation[], { merges: string; states: ReadonlyMap<string, FoodState> }>();

/** Each row key's state after the whole log, merges applied: one pass over the observations (once per frozen log). */
function foldedStates(observations: readonly PantryObservation[], merges: readonly Pick<PantryMerge, 'fromKey' | 'toKey'>[]): ReadonlyMap<string, FoodState> {
  const kept = Object.isFrozen(observations);
  const mergeKey = merges.map((m) => `${m.fromKey}\u0000${m.toKey}`).join('\u0001');
  const held = kept ? folds.get(observations) : undefined;
  if (held?.merges === mergeKey) return held.states;
  const target = mergeTargets(merges);
  const states = new Map<string, FoodState>();
  for (const o of observations) {
    const key = target(o.foodKey);
    states.set(key, applyObservation(key, states.get(key) ?? null, o));
  }
  if (kept) folds.set(observations, { merges: mergeKey, states });
  return states;
}

/** Every row of a log (in log order), merges applied, at `now`: one pass over the observations. */
export function pantryRowsOf(observations: readonly PantryObservation[], merges: readonly Pick<PantryMerge, 'fromKey' | 'toKey'>[], now: Date): PantryRow[] {
  return [...foldedStates(observations, merges)].map(([key, s]) => rowOf(key, s, now)).sort(compareRows);
}

/** The sort key of a row in list order: section, use priority, name (any case), food key. */
export function positionOf(row: PantryRow): [number, number, string, string] {
  return [INVENTORY_GROUPS.indexOf(row.group), USE_PRIORITIES.indexOf(row.usePriority as UsePriority), row.displayName.toLowerCase(), row.foodKey];
}

export function comparePositions(a: readonly [number, number, string, string], b: readonly [number, number, string, string]): number {
  return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0) || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0);
}

export const compareRows = (a: PantryRow, b: PantryRow): number => comparePositions(positionOf(a), positionOf(b));
