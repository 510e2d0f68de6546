import type { Knex } from 'knex';
import type { PantryObservation } from '../../core/pantry/types.js';

/** How many households' pantry logs a process keeps between reads. */
const CACHED_HOUSEHOLDS = 200;

/**
 * A household's pantry log kept in the process, under the household's revision as it was read with (migration
 * 0016: every write to the log moves the revision in its own transaction). One per database, shared by the pantry
 * store (GET inventory) and the shopping list's derivation, which both check the revision in the read that would
 * otherwise read the log. The log and its observations are frozen: every reader gets the same one.
 */
export interface PantryLogs {
  /** The log kept for `household`, with the revision it was read at. */
  held(household: string): { readonly version: string; readonly log: readonly PantryObservation[] } | undefined;
  /** Keeps `log` as read at `version` (null: no such household, nothing kept) and answers it frozen. */
  keep(household: string, version: string | null, log: PantryObservation[]): readonly PantryObservation[];
}

const perDatabase = new WeakMap<Knex, PantryLogs>();

/** The logs kept for `knex` (a transaction has its own, so a log it reads never outlives a rollback). */
export function pantryLogsOf(knex: Knex): PantryLogs {
  let logs = perDatabase.get(knex);
  if (!logs) {
    const kept = new Map<string, { version: string; log: readonly PantryObservation[] }>();
    logs = {
      held: (household) => kept.get(household),
      keep(household, version, log) {
        const frozen = Object.freeze(log.map((o) => Object.freeze(o)));
        kept.delete(household);
        if (version === null) return frozen;
        kept.set(household, { version, log: frozen });
        if (kept.size > CACHED_HOUSEHOLDS) kept.delete(kept.keys().next().value!);
        return frozen;
      },
    };
    perDatabase.set(knex, logs);
  }
  return logs;
}
