/** Bounds: a unit weight is grams greater than 0 and at most 10000. */
export const UNIT_WEIGHT_MAX_GRAMS = 10000;
export const MERGE_PAGE_DEFAULT = 50;
export const MERGE_PAGE_MAX = 100;
export const MERGE_SUGGESTIONS_MAX = 3;

/** The pair in stored order. */
export const sortedPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);
