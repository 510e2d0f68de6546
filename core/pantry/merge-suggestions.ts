import { MERGE_SUGGESTIONS_MAX, sortedPair } from './merge-types.js';
import type { PantryMerge, PantryMergeRejection, PantryRow } from './types.js';

export const MERGE_SIGNALS = ['ContainedTokens'] as const;
export type MergeSignal = (typeof MERGE_SIGNALS)[number];

export interface MergeSuggestion {
  readonly from: PantryRow;
  readonly to: PantryRow;
  readonly signal: MergeSignal;
}

/** A token shorter than this matches only a whole token: "is" (ice) must not find "ris" (rice). */
const MIN_TAIL = 3;

/** A food key's words: the key is already normalized (normalizeFoodKey), so '-' is the only separator. */
export const tokensOf = (foodKey: string): string[] => foodKey.split('-').filter((t) => t !== '');

/**
 * Whether `general`'s tokens appear, in order, among `specific`'s tokens, each equal to a token or its ending.
 * An ending, because Norwegian compounds put the head last: "cherrytomat" is a "tomat", "basmatiris" a "ris",
 * while "tomatsaus" is not a "tomat". "hakkede-tomat" holds "tomat" as a whole token.
 */
export function containsTokens(specific: string, general: string): boolean {
  if (specific === general) return false;
  const inner = tokensOf(general);
  const outer = tokensOf(specific);
  if (inner.length === 0) return false;
  let i = 0;
  for (const token of outer) {
    const want = inner[i]!;
    if (token === want || (want.length >= MIN_TAIL && token.endsWith(want))) i += 1;
    if (i === inner.length) return true;
  }
  return false;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const pairKey = (a: string, b: string) => sortedPair(a, b).join('\n');

/**
 * At most three pairs of rows that look like one food. `from` is the more specific row (its key contains the
 * other's tokens), `to` the general one that survives a merge. Pairs with a stored answer are left out: a
 * rejection, or a merge standing between the keys (rows come with merges applied, so a merged key has no row of
 * its own anyway). Order, for the same rows the same answer: by `to` key, then `from` key (code-unit order).
 */
export function suggestMerges(
  rows: readonly PantryRow[],
  rejections: readonly Pick<PantryMergeRejection, 'keyA' | 'keyB'>[],
  merges: readonly Pick<PantryMerge, 'fromKey' | 'toKey'>[],
): MergeSuggestion[] {
  const answered = new Set([...rejections.map((r) => pairKey(r.keyA, r.keyB)), ...merges.map((m) => pairKey(m.fromKey, m.toKey))]);
  const sorted = [...rows].sort((a, b) => cmp(a.foodKey, b.foodKey));
  const out: MergeSuggestion[] = [];
  for (const to of sorted) {
    for (const from of sorted) {
      if (!containsTokens(from.foodKey, to.foodKey) || answered.has(pairKey(from.foodKey, to.foodKey))) continue;
      out.push({ from, to, signal: 'ContainedTokens' });
      if (out.length === MERGE_SUGGESTIONS_MAX) return out;
    }
  }
  return out;
}
