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
    write: (archive) =>
      knex.transaction(async (trx) => {
        if (!postgres) return writeArchive(storesOn(trx), archive);
        const quiet = quietRevision(trx, archive.household.id);
        await writeArchive(quiet.stores, archive);
        await quiet.restore();
      }),
  };
}

/**
 * Postgres: the stores on `trx` for writing a new household without its revision row until the shopping lists.
 * Every write to a list input moves the household's revision (migration 0016's triggers, one UPDATE of its one row
 * per row written), and in one transaction each UPDATE of a row walks every version of it that transaction left: an
 * import of five years (150,000 rows: 60,000 observations, 20,000 recipe lines written twice, plan days, ...) took
 * over 5 minutes, nearly all of it there (W10, docs/performance.md). The revision row goes once the household is made,
 * so those UPDATEs find no row, and comes back (at 0) before the lists, whose stored state names the revision (or at the end), in the
 * same transaction: no other transaction ever sees the household without it. SQLite updates its row in place.
 */
function quietRevision(trx: Knex.Transaction, householdId: string): { stores: ArchiveStores; restore(): Promise<void> } {
  const stores = storesOn(trx);
  let quiet = false;
  const restore = async () => {
    if (!quiet) return;
    quiet = false;
    await trx('household_revisions').insert({ household_id: householdId, revision: 0 }).onConflict('household_id').ignore();
  };
  const quieter: ArchiveStores = {
    ...stores,
    households: {
      ...stores.households,
      async create(...args) {
        const made = await stores.households.create(...args);
        await trx('household_revisions').where({ household_id: householdId }).delete();
        quiet = true;
        return made;
      },
    },
    shoppingLists: {
      ...stores.shoppingLists,
      async change(...args) {
        await restore();
        return stores.shoppingLists.change(...args);
      },
    },
  };
  return { stores: quieter, restore };
}
