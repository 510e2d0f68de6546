import type { PantryObservation } from '../../../core/pantry/types.js';

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

/** Pantry logs kept in the process (one set per database, made by the speed layer: index.ts). */
export function pantryLogs(): PantryLogs {
  const kept = new Map<string, { version: string; log: readonly PantryObservation[] }>();
  return {
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
}

/** With the speed layer off: nothing kept, every read reads the log. */
export const noPantryLogs: PantryLogs = {
  held: () => undefined,
  keep: (_household, _version, log) => Object.freeze(log.map((o) => Object.freeze(o))),
};

/** An observation of a kept food log, with its place in the order written. */
export interface LoggedObservation {
  readonly o: PantryObservation;
  readonly seq: number;
}

/** Log order: observedAt, then the order written. */
export const logOrder = (a: LoggedObservation, b: LoggedObservation): number => a.o.observedAt.getTime() - b.o.observedAt.getTime() || a.seq - b.seq;

/** How many food logs a store keeps between writes. */
const CACHED_FOODS = 5000;

/** A food's log (its observations in log order) as it was at the food's revision `version` (migration 0029). */
export interface FoodLog {
  version: bigint;
  readonly log: LoggedObservation[];
}

/**
 * The food logs a store keeps: POST observations answers the food's row, derived from all of the food's
 * observations, so each write would read them all back. A write moves the food's revision by one; when the
 * revision before the write is the kept log's, the kept log plus the new observation is the log after it.
 */
export interface FoodLogs {
  held(household: string, foodKey: string): FoodLog | undefined;
  /** Keeps `log`, read at `version`. */
  keep(household: string, foodKey: string, version: bigint, log: LoggedObservation[]): void;
  /** `added` was written as the first write to its food after `food.version`: the log takes it at its place. */
  advance(food: FoodLog, added: LoggedObservation): void;
}

/** A store's kept food logs (a store made for a transaction keeps its own). */
export function foodLogs(): FoodLogs {
  const kept = new Map<string, FoodLog>();
  const keyOf = (household: string, foodKey: string) => `${household} ${foodKey}`;
  return {
    held(household, foodKey) {
      // Kept longest is the one used longest ago: a food in use moves to the end.
      const key = keyOf(household, foodKey);
      const food = kept.get(key);
      if (food) {
        kept.delete(key);
        kept.set(key, food);
      }
      return food;
    },
    keep(household, foodKey, version, log) {
      const key = keyOf(household, foodKey);
      kept.delete(key);
      kept.set(key, { version, log });
      if (kept.size > CACHED_FOODS) kept.delete(kept.keys().next().value!);
    },
    advance(food, added) {
      let i = food.log.length;
      while (i > 0 && logOrder(food.log[i - 1]!, added) > 0) i--;
      food.log.splice(i, 0, added);
      food.version += 1n;
    },
  };
}

/** With the speed layer off: no food log is kept, so every write reads its food's log back. */
export const noFoodLogs: FoodLogs = {
  held: () => undefined,
  keep() {},
  advance() {
    throw new Error('no food log is kept, so none can advance');
  },
};
