import type { PantryMerge, PantryMergeRejection, UnitWeight } from '../../core/pantry/types.js';
import type { MergePosition, PantryMergeStore, RejectionPosition } from '../../ports/pantry-merge-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import { bumpRevision, type MemoryTables } from './stores.js';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byMergeOrder = (a: MergePosition, b: MergePosition) => cmp(a.toKey, b.toKey) || b.mergedAt.getTime() - a.mergedAt.getTime() || cmp(a.fromKey, b.fromKey);
const byRejectionOrder = (a: RejectionPosition, b: RejectionPosition) => b.decidedAt.getTime() - a.decidedAt.getTime() || cmp(a.keyA, b.keyA) || cmp(a.keyB, b.keyB);
const copy = <T>(v: T): T => structuredClone(v);

/** A keyset page of `rows` in `order`: those after `after` (from the start when null), at most `limit`, copied. */
function pageOf<T extends P, P>(rows: T[], order: (a: P, b: P) => number, after: P | null, limit: number): T[] {
  return rows
    .filter((r) => after === null || order(r, after) > 0)
    .sort(order)
    .slice(0, limit)
    .map(copy);
}

/**
 * Answers of a household that is gone are gone too (the SQL cascade), checked on every access. No await
 * between a check and its write: a write is as atomic as the database's transaction.
 */
// The answers live with the tables, not the store: every store made over one set of tables (the row model's
// reader and the merge use cases' writer) sees the same answers, as two connections to one database would.
const answersOf = new WeakMap<MemoryTables, { merges: Map<string, PantryMerge>; rejections: Map<string, PantryMergeRejection> }>();

export function memoryPantryMergeStore(t: MemoryTables): PantryMergeStore {
  let answers = answersOf.get(t);
  if (!answers) answersOf.set(t, (answers = { merges: new Map(), rejections: new Map() }));
  const { merges, rejections } = answers;
  const mKey = (householdId: string, fromKey: string) => `${householdId}\n${fromKey}`;
  const rKey = (householdId: string, a: string, b: string) => `${householdId}\n${a}\n${b}`;
  const mergesOf = (householdId: string) => (t.households.has(householdId) ? [...merges.values()].filter((m) => m.householdId === householdId) : []);
  const rejectionsOf = (householdId: string) => (t.households.has(householdId) ? [...rejections.values()].filter((r) => r.householdId === householdId) : []);
  const addRejection = (r: PantryMergeRejection) => {
    const k = rKey(r.householdId, r.keyA, r.keyB);
    if (!rejections.has(k)) rejections.set(k, copy(r));
  };
  return {
    async activeMerges(householdId) {
      return mergesOf(householdId).sort(byMergeOrder).map(copy);
    },
    async mergeOf(householdId, fromKey) {
      const m = mergesOf(householdId).find((x) => x.fromKey === fromKey);
      return m ? copy(m) : null;
    },
    async merge(m) {
      if (merges.has(mKey(m.householdId, m.toKey))) return 'target-merged';
      merges.set(mKey(m.householdId, m.fromKey), copy(m));
      for (const x of mergesOf(m.householdId)) {
        if (x.toKey === m.fromKey) merges.set(mKey(x.householdId, x.fromKey), { ...x, toKey: m.toKey, toDisplayName: m.toDisplayName });
      }
      const [a, b] = m.fromKey < m.toKey ? [m.fromKey, m.toKey] : [m.toKey, m.fromKey];
      rejections.delete(rKey(m.householdId, a, b));
      bumpRevision(t, m.householdId);
      return 'merged';
    },
    async split(householdId, fromKey, decidedAt) {
      const m = mergesOf(householdId).find((x) => x.fromKey === fromKey);
      if (!m) return null;
      merges.delete(mKey(householdId, fromKey));
      bumpRevision(t, householdId);
      const fromFirst = m.fromKey < m.toKey;
      addRejection({
        householdId,
        keyA: fromFirst ? m.fromKey : m.toKey,
        keyB: fromFirst ? m.toKey : m.fromKey,
        keyADisplayName: fromFirst ? m.fromDisplayName : m.toDisplayName,
        keyBDisplayName: fromFirst ? m.toDisplayName : m.fromDisplayName,
        decidedAt: new Date(decidedAt.getTime()),
      });
      return copy(m);
    },
    async pageMerges(householdId, q) {
      return pageOf(mergesOf(householdId), byMergeOrder, q.after, q.limit);
    },
    async countMerges(householdId) {
      return mergesOf(householdId).length;
    },
    async rejections(householdId) {
      return rejectionsOf(householdId).sort(byRejectionOrder).map(copy);
    },
    async reject(r) {
      if (!t.households.has(r.householdId)) return;
      addRejection(r);
      for (const m of mergesOf(r.householdId)) {
        if ((m.fromKey === r.keyA && m.toKey === r.keyB) || (m.fromKey === r.keyB && m.toKey === r.keyA)) merges.delete(mKey(m.householdId, m.fromKey));
      }
    },
    async removeRejection(householdId, keyA, keyB) {
      if (!t.households.has(householdId)) return false;
      return rejections.delete(rKey(householdId, keyA, keyB));
    },
    async pageRejections(householdId, q) {
      return pageOf(rejectionsOf(householdId), byRejectionOrder, q.after, q.limit);
    },
    async countRejections(householdId) {
      return rejectionsOf(householdId).length;
    },
  };
}

export function memoryUnitWeightStore(t: MemoryTables): UnitWeightStore {
  const weights = new Map<string, UnitWeight>();
  const key = (householdId: string, foodKey: string, unit: string) => `${householdId}\n${foodKey}\n${unit}`;
  const of = (householdId: string) => (t.households.has(householdId) ? [...weights.values()].filter((w) => w.householdId === householdId) : []);
  return {
    async list(householdId, foodKey) {
      return of(householdId)
        .filter((w) => foodKey === null || w.foodKey === foodKey)
        .sort((a, b) => cmp(a.foodKey, b.foodKey) || cmp(a.unit, b.unit))
        .map(copy);
    },
    async get(householdId, foodKey, unit) {
      const w = of(householdId).find((x) => x.foodKey === foodKey && x.unit === unit);
      return w ? copy(w) : null;
    },
    async put(w) {
      weights.set(key(w.householdId, w.foodKey, w.unit), copy(w));
      bumpRevision(t, w.householdId);
      return copy(w);
    },
    async remove(householdId, foodKey, unit) {
      if (!t.households.has(householdId)) return false;
      const removed = weights.delete(key(householdId, foodKey, unit));
      if (removed) bumpRevision(t, householdId);
      return removed;
    },
  };
}
