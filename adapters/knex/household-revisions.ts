import type { Knex } from 'knex';
import type { HouseholdRevisions } from '../../ports/household-revisions.js';
import { translated } from './errors.js';

/** Reads the revision that migration 0016's triggers move on every write to a list input. */
export function knexHouseholdRevisions(knex: Knex): HouseholdRevisions {
  return translated<HouseholdRevisions>(knex, {
    async of(householdId) {
      const row = (await knex('household_revisions').where({ household_id: householdId }).first('revision')) as { revision: number | string } | undefined;
      return row ? String(row.revision) : null;
    },
  });
}
