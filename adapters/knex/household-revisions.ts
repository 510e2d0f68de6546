import type { Knex } from 'knex';
import type { HouseholdRevisions } from '../../ports/household-revisions.js';
import { translated } from './errors.js';
import { speedOf } from './speed/index.js';


/** A household's revision; the pantry store reads it as its log's version. */
export async function revisionOf(knex: Knex, householdId: string): Promise<string | null> {
  const [row] = await speedOf(knex).fixedRows<{ revision: number | string }>('select revision from household_revisions where household_id = ?', [householdId]);
  return row ? String(row.revision) : null;
}

/** Reads the revision that migration 0016's triggers move on every write to a list input. */
export function knexHouseholdRevisions(knex: Knex): HouseholdRevisions {
  return translated<HouseholdRevisions>(knex, {
    of: (householdId) => revisionOf(knex, householdId),
  });
}
