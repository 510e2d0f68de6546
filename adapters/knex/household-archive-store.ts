import type { Knex } from 'knex';
import { readArchive, writeArchive, type ArchiveStores } from '../../core/transfer/archive.js';
import type { HouseholdArchiveStore } from '../../ports/household-archive.js';
import { knexHouseholdStore } from './household-store.js';
import { knexMealEventStore } from './meal-event-store.js';
import { knexPantryMergeStore } from './pantry-merge-store.js';
import { knexPantryObservationStore } from './pantry-observation-store.js';
import { knexPlanStore } from './plan-store.js';
import { knexRecipeImageStore } from './recipe-image-store.js';
import { knexRecipeStore } from './recipe-store.js';
import { knexShoppingListStore } from './shopping-list-store.js';
import { knexUnitWeightStore } from './unit-weight-store.js';

/** The household's stores on one transaction: their own transactions nest in it as savepoints. */
const storesOn = (trx: Knex.Transaction): ArchiveStores => ({
  households: knexHouseholdStore(trx),
  recipes: knexRecipeStore(trx),
  recipeImages: knexRecipeImageStore(trx),
  plans: knexPlanStore(trx),
  events: knexMealEventStore(trx),
  pantry: knexPantryObservationStore(trx),
  pantryMerges: knexPantryMergeStore(trx),
  unitWeights: knexUnitWeightStore(trx),
  shoppingLists: knexShoppingListStore(trx),
});

/**
 * A household read in one snapshot (Postgres: a repeatable-read transaction; SQLite: one transaction on its one
 * writing connection) and written in one transaction, through the same stores every request uses.
 */
export function knexHouseholdArchiveStore(knex: Knex): HouseholdArchiveStore {
  const postgres = knex.client.config.client === 'pg';
  return {
    read: (householdId) =>
      knex.transaction((trx) => readArchive(storesOn(trx), householdId), postgres ? { isolationLevel: 'repeatable read', readOnly: true } : {}),
    write: (archive) => knex.transaction((trx) => writeArchive(storesOn(trx), archive)),
  };
}
