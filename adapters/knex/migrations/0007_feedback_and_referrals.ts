import type { Knex } from 'knex';

export const name = '0007_feedback_and_referrals';

export async function up(knex: Knex): Promise<void> {
  // Reports go with their account (screenshots included); a deleted household only loses the reference.
  if (!(await knex.schema.hasTable('feedback_reports'))) {
    await knex.schema.createTable('feedback_reports', (t) => {
      t.uuid('id').primary();
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.uuid('household_id').nullable().references('id').inTable('households').onDelete('SET NULL');
      t.text('message').notNullable();
      t.string('screen', 200).nullable();
      t.string('build', 100).nullable();
      t.text('failed_calls').notNullable(); // JSON array, newest first
      t.string('screenshot_type', 32).nullable();
      t.binary('screenshot').nullable();
      t.timestamp('received_at', { useTz: true }).notNullable();
      t.index(['account_id']);
      t.index(['household_id']);
    });
  }
  // An unused code holds one of its household's slots (0 .. count-1); the unique key lets only one of two
  // concurrent readers fill a slot. A spent code gives its slot up (NULL never collides).
  if (!(await knex.schema.hasTable('referral_codes'))) {
    await knex.schema.createTable('referral_codes', (t) => {
      t.string('code', 32).primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.integer('slot').nullable();
      t.timestamp('used_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['household_id', 'slot']);
    });
  }
}
