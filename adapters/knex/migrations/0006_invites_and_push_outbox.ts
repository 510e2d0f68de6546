import type { Knex } from 'knex';

export const name = '0006_invites_and_push_outbox';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('household_invites'))) {
    await knex.schema.createTable('household_invites', (t) => {
      t.string('code', 32).primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.string('role', 16).notNullable();
      // The named person the code is for; a removed person's invites become open ones.
      t.uuid('member_id').nullable().references('id').inTable('household_members').onDelete('SET NULL');
      // The inviter's codes go with the inviter's account.
      t.uuid('created_by').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true }).nullable();
      t.uuid('used_by').nullable().references('id').inTable('accounts').onDelete('SET NULL');
      t.index(['household_id', 'expires_at']);
    });
  }
  if (!(await knex.schema.hasTable('push_outbox'))) {
    await knex.schema.createTable('push_outbox', (t) => {
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.text('event').notNullable(); // JSON
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('sent_at', { useTz: true }).nullable();
      t.index(['sent_at', 'created_at']);
    });
  }
}
