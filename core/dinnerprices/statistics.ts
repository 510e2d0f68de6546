/**
 * The percentile of `values` at `p` (0..1) by linear interpolation between closest ranks: over the sorted values
 * x[0..n-1], position h = (n − 1)·p and the answer x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) (numpy's default,
 * Excel's PERCENTILE.INC). The median is p = 0.5. Null for no values.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  const a = x[lo]!;
  const b = x[Math.min(lo + 1, x.length - 1)]!;
  return a + (h - lo) * (b - a);
}

export const median = (values: readonly number[]): number | null => percentile(values, 0.5);

/** Kroner to whole øre (halves up, after taking off floating-point noise). */
export const toOre = (n: number): number => Math.round(Number((n * 100).toPrecision(12))) / 100;

/** A share to three decimals. */
export const toShare = (n: number): number => Math.round(Number((n * 1000).toPrecision(12))) / 1000;
