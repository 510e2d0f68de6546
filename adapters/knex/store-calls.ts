import { AsyncLocalStorage } from 'node:async_hooks';

/** What one store call (a method of a store made by `translated`) did, followed through its awaits. */
export interface StoreCall {
  /** SQLite: a statement that may have changed the database ran under it (group commit waits for it). */
  wrote: boolean;
  /** Postgres: a statement that may have changed a table of the read cache ran under it. */
  wroteCached: boolean;
  /** Postgres: a statement that may have changed only tables a household's cached values depend on ran under it. */
  wroteHouseholds: boolean;
  /**
   * The read cache that holds back for what this call wrote, and that its end lets answer again: the database's
   * own, whichever knex the call's store was made on (a store on a transaction has no cache of its own).
   */
  heldBy?: { settled(call: StoreCall): Promise<void> | null };
}

/**
 * One for the process, not one per database or per purpose: every AsyncLocalStorage in use adds its own work to
 * every promise the process makes.
 */
const calls = new AsyncLocalStorage<StoreCall>();

/** Runs `run` as a store call of its own (a nested call is one of its own too). */
export function runStoreCall<T>(run: (call: StoreCall) => Promise<T>): Promise<T> {
  const call: StoreCall = { wrote: false, wroteCached: false, wroteHouseholds: false };
  return calls.run(call, () => run(call));
}

/** The store call under way at this point of the code, if any. */
export const currentStoreCall = (): StoreCall | undefined => calls.getStore();
