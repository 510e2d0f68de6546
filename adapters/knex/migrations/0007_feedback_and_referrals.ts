import type { Knex } from 'knex';
import { accountColumn, createTableOnce, householdColumn, idColumn, instants, optionalInstants, optionalRefColumn } from '../schema-kit.js';

export const name = '0007_feedback_and_referrals';

export async function up(knex: Knex): Promise<void> {
  // Reports go with their account (screenshots included); a deleted household only loses the reference.
  await createTableOnce(knex, 'feedback_reports', (t) => {
    idColumn(t);
    accountColumn(t);
    optionalRefColumn(t, 'household_id', 'households');
    t.text('message').notNullable();
    t.string('screen', 200).nullable();
    t.string('build', 100).nullable();
    t.text('failed_calls').notNullable(); // JSON array, newest first
    t.string('screenshot_type', 32).nullable();
    t.binary('screenshot').nullable();
    instants(t, 'received_at');
    t.index(['account_id']);
    t.index(['household_id']);
  });
  // An unused code holds one of its household's slots (0 .. count-1); the unique key lets only one of two
  // concurrent readers fill a slot. A spent code gives its slot up (NULL never collides).
  await createTableOnce(knex, 'referral_codes', (t) => {
    t.string('code', 32).primary();
    householdColumn(t);
    t.integer('slot').nullable();
    optionalInstants(t, 'used_at');
    instants(t, 'created_at');
    t.unique(['household_id', 'slot']);
  });
}
