import type { Knex } from 'knex';
import type { HouseholdChange } from '../../ports/household-changes.js';

type Listener = (change: HouseholdChange) => void;

const watchers = new WeakMap<Knex, Set<Listener>>();

/** Hears of the commits on the database of `knex` (its own instance, never a transaction); answers how to stop. */
export function watchCommits(knex: Knex, listener: Listener): () => void {
  let set = watchers.get(knex);
  if (!set) watchers.set(knex, (set = new Set()));
  const own: Listener = (c) => listener(c);
  set.add(own);
  return () => {
    set.delete(own);
  };
}

/** Tells the watchers of the database of `knex` of a commit; a listener that throws does not stop the others. */
export function committed(knex: Knex, change: HouseholdChange): void {
  const set = watchers.get(knex);
  if (!set) return;
  for (const listener of set) {
    try {
      listener(change);
    } catch {
      // A watcher's failure is its own (the live stream ends its streams itself).
    }
  }
}

/**
 * SQLite's single writer commits nothing a watcher could tell apart by household: every household, and access when
 * `accessMayHaveChanged` says a commit may have changed who may see what (asked only while someone watches).
 */
export function committedAnything(knex: Knex, accessMayHaveChanged: () => boolean = () => true): void {
  if (!watchers.get(knex)?.size) return;
  committed(knex, { kind: 'household', householdId: null });
  if (accessMayHaveChanged()) committed(knex, { kind: 'access' });
}
