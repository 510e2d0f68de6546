import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { keysetPage, type CursorScope, type Page } from '../kernel/paging.js';
export type { Page } from '../kernel/paging.js';
import type { MergePosition, RejectionPosition } from '../../ports/pantry-merge-store.js';
import type { PantryMergeDeps } from './merge-deps.js';
import { pantryRows } from './rows.js';
import { suggestMerges, type MergeSuggestion } from './merge-suggestions.js';
import { sortedPair } from './merge-types.js';
import type { PantryMerge, PantryMergeRejection, PantryRow } from './types.js';

type NotMember = ErrorOf<'household-not-found'>;
type AdultsOnly = ErrorOf<'household-not-found' | 'adults-only'>;

/** A food key from a request: normalized; one without any letter or digit is refused. */
function keyOf(raw: string): Result<string, ErrorOf<'food-key-empty'>> {
  const key = normalizeFoodKey(raw);
  return key === '' ? fail({ type: 'food-key-empty' }) : ok(key);
}

/** The name shown for a key: its row's, else what a stored answer remembers, else the text the caller sent. */
function displayNameOf(key: string, raw: string, rows: readonly PantryRow[], merges: readonly PantryMerge[]): string {
  return (
    rows.find((r) => r.foodKey === key)?.displayName ??
    merges.find((m) => m.fromKey === key)?.fromDisplayName ??
    merges.find((m) => m.toKey === key)?.toDisplayName ??
    raw.trim()
  );
}

/** GET merge-suggestions: computed on every read from the rows as they are now. */
export async function listMergeSuggestions(deps: PantryMergeDeps, caller: Account, householdId: HouseholdId): Promise<Result<MergeSuggestion[], NotMember>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const [rows, rejections, merges] = await Promise.all([pantryRows(deps, householdId), deps.pantryMerges.rejections(householdId), deps.pantryMerges.activeMerges(householdId)]);
  return ok(suggestMerges(rows, rejections, merges));
}

export interface MergeOutcome {
  readonly fromKey: string;
  readonly toKey: string;
  readonly item: PantryRow;
}

/**
 * POST merges: `fromKey`'s observations count toward `toKey`'s row from now on.
 *  - Chains are resolved, so merges stay one step deep: with B→C standing, A→B is stored as A→C; merging B→C
 *    while A→B stands re-points A to C. The answer names the key that survives.
 *  - A key merged elsewhere before is re-pointed (a food folds into one other; the latest answer wins).
 *  - A stored "different foods" answer for the pair is removed.
 *  - The same pair again (A→C standing) writes nothing and answers as before.
 *  - toKey need not have observations of its own: fromKey's row then shows under toKey. At least one of the two
 *    keys must have a row now (else there is nothing to merge: 404 pantry-food-not-found).
 */
export async function mergePantryKeys(
  deps: PantryMergeDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { fromKey: string; toKey: string },
): Promise<Result<MergeOutcome, AdultsOnly | ErrorOf<'food-key-empty' | 'same-food' | 'mutual-merge' | 'pantry-food-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const from = keyOf(input.fromKey);
  if (!from.ok) return from;
  const to = keyOf(input.toKey);
  if (!to.ok) return to;
  if (from.value === to.value) return fail({ type: 'same-food' });
  // Two tries: a concurrent merge may have folded the target away between reading and writing.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const [rows, merges] = await Promise.all([pantryRows(deps, householdId), deps.pantryMerges.activeMerges(householdId)]);
    const target = merges.find((m) => m.fromKey === to.value)?.toKey ?? to.value;
    if (target === from.value) return fail({ type: 'mutual-merge' });
    const standing = merges.find((m) => m.fromKey === from.value);
    if (standing?.toKey !== target) {
      if (!rows.some((r) => r.foodKey === from.value || r.foodKey === target)) return fail({ type: 'pantry-food-not-found' });
      const written = await deps.pantryMerges.merge({
        householdId,
        fromKey: from.value,
        toKey: target,
        fromDisplayName: displayNameOf(from.value, input.fromKey, rows, merges),
        toDisplayName: displayNameOf(target, target === to.value ? input.toKey : target, rows, merges),
        mergedAt: deps.clock.now(),
      });
      if (written === 'target-merged') continue;
    }
    const item = (await pantryRows(deps, householdId)).find((r) => r.foodKey === target);
    // Only when the observations went in between (removed by someone else).
    if (!item) return fail({ type: 'pantry-food-not-found' });
    return ok({ fromKey: from.value, toKey: target, item });
  }
  return fail({ type: 'mutual-merge' });
}

/** DELETE merges/{fromKey}: the rows split again and the pair is remembered as different foods. */
export async function splitPantryMerge(
  deps: PantryMergeDeps,
  caller: Account,
  householdId: HouseholdId,
  rawFromKey: string,
): Promise<Result<void, AdultsOnly | ErrorOf<'food-key-empty' | 'merge-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const from = keyOf(rawFromKey);
  if (!from.ok) return from;
  const split = await deps.pantryMerges.split(householdId, from.value, deps.clock.now());
  return split ? ok(undefined) : fail({ type: 'merge-not-found' });
}

/** The unordered pair of a request: both keys normalized, sorted, with the spelling each came in. */
function pairOf(input: { keyA: string; keyB: string }): Result<{ keyA: string; keyB: string; rawA: string; rawB: string }, ErrorOf<'food-key-empty'>> {
  const a = keyOf(input.keyA);
  if (!a.ok) return a;
  const b = keyOf(input.keyB);
  if (!b.ok) return b;
  const [keyA, keyB] = sortedPair(a.value, b.value);
  return ok(keyA === a.value ? { keyA, keyB, rawA: input.keyA, rawB: input.keyB } : { keyA, keyB, rawA: input.keyB, rawB: input.keyA });
}

/** POST merge-rejections: the unordered pair is different foods (idempotent; a merge standing between them goes). */
export async function rejectPantryMerge(
  deps: PantryMergeDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { keyA: string; keyB: string },
): Promise<Result<void, AdultsOnly | ErrorOf<'food-key-empty' | 'same-food'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const pair = pairOf(input);
  if (!pair.ok) return pair;
  if (pair.value.keyA === pair.value.keyB) return fail({ type: 'same-food' });
  const [rows, merges] = await Promise.all([pantryRows(deps, householdId), deps.pantryMerges.activeMerges(householdId)]);
  const { keyA, keyB, rawA, rawB } = pair.value;
  const named = { [keyA]: displayNameOf(keyA, rawA, rows, merges), [keyB]: displayNameOf(keyB, rawB, rows, merges) };
  await deps.pantryMerges.reject({ householdId, keyA, keyB, keyADisplayName: named[keyA]!, keyBDisplayName: named[keyB]!, decidedAt: deps.clock.now() });
  return ok(undefined);
}

/** DELETE merge-rejections/{keyA}/{keyB}: the pair may be suggested again. Keys in either order. */
export async function removePantryMergeRejection(
  deps: PantryMergeDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { keyA: string; keyB: string },
): Promise<Result<void, AdultsOnly | ErrorOf<'food-key-empty' | 'merge-rejection-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const pair = pairOf(input);
  if (!pair.ok) return pair;
  const { keyA, keyB } = pair.value;
  return (await deps.pantryMerges.removeRejection(householdId, keyA, keyB)) ? ok(undefined) : fail({ type: 'merge-rejection-not-found' });
}

// Cursors are bound to the household and the list: another list's or household's cursor is refused.
const mergeScope = (householdId: HouseholdId): CursorScope => ({ scope: `pantry-merges\n${householdId}`, boundTo: 'this household' });
const rejectionScope = (householdId: HouseholdId): CursorScope => ({ scope: `pantry-merge-rejections\n${householdId}`, boundTo: 'this household' });

/** A date written by toISOString, or null: a cursor is input like any other. */
function dateOf(text: string): Date | null {
  const at = new Date(text);
  return Number.isNaN(at.getTime()) || at.toISOString() !== text ? null : at;
}

function mergePositionOf(sealed: readonly string[]): MergePosition | null {
  if (sealed.length !== 3) return null;
  const [toKey, mergedAt, fromKey] = sealed as [string, string, string];
  const at = dateOf(mergedAt);
  return at ? { toKey, mergedAt: at, fromKey } : null;
}

function rejectionPositionOf(sealed: readonly string[]): RejectionPosition | null {
  if (sealed.length !== 3) return null;
  const [decidedAt, keyA, keyB] = sealed as [string, string, string];
  const at = dateOf(decidedAt);
  return at ? { decidedAt: at, keyA, keyB } : null;
}

/** GET merges: by the surviving key (toKey), then the newest answer first, then fromKey. */
export async function listPantryMerges(
  deps: PantryMergeDeps,
  caller: Account,
  householdId: HouseholdId,
  query: { cursor: string | null; limit: number },
): Promise<Result<Page<PantryMerge>, NotMember | ErrorOf<'page-cursor-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return keysetPage(deps.pageCursors, mergeScope(householdId), query, {
    decode: mergePositionOf,
    rows: (after, limit) => deps.pantryMerges.pageMerges(householdId, { after, limit }),
    count: () => deps.pantryMerges.countMerges(householdId),
    positionOf: (m) => [m.toKey, m.mergedAt.toISOString(), m.fromKey],
  });
}

/** GET merge-rejections: newest answer first, then keyA, then keyB. */
export async function listPantryMergeRejections(
  deps: PantryMergeDeps,
  caller: Account,
  householdId: HouseholdId,
  query: { cursor: string | null; limit: number },
): Promise<Result<Page<PantryMergeRejection>, NotMember | ErrorOf<'page-cursor-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return keysetPage(deps.pageCursors, rejectionScope(householdId), query, {
    decode: rejectionPositionOf,
    rows: (after, limit) => deps.pantryMerges.pageRejections(householdId, { after, limit }),
    count: () => deps.pantryMerges.countRejections(householdId),
    positionOf: (r) => [r.decidedAt.toISOString(), r.keyA, r.keyB],
  });
}
