import { fnv1a32, mulberry32 } from '../kernel/seeded.js';

/**
 * The dinner-price draws' randomness: deterministic, so that a recorded seed and recipe set repeat a draw
 * exactly.
 */

/** The seed of one household type's measurement in one ISO week. */
export const seedOf = (week: string, householdType: string): number => fnv1a32(`dinner-prices/${week}/${householdType}`);

/** `count` indexes into a list of `size`, drawn with replacement. */
export function drawIndexes(seed: number, size: number, count: number): number[] {
  if (size <= 0) return [];
  const next = mulberry32(seed);
  return Array.from({ length: count }, () => Math.floor(next() * size));
}
