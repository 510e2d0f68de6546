import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalInstants, optionalRefColumn, ownerColumn } from '../schema-kit.js';

export const name = '0006_invites_and_push_outbox';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'household_invites', (t) => {
    t.string('code', 32).primary();
    householdColumn(t);
    t.string('role', 16).notNullable();
    // The named person the code is for; a removed person's invites become open ones.
    optionalRefColumn(t, 'member_id', 'household_members');
    // The inviter's codes go with the inviter's account.
    ownerColumn(t, 'created_by', 'accounts');
    instants(t, 'created_at', 'expires_at');
    optionalInstants(t, 'used_at');
    optionalRefColumn(t, 'used_by', 'accounts');
    t.index(['household_id', 'expires_at']);
  });
  await createTableOnce(knex, 'push_outbox', (t) => {
    idColumn(t);
    householdColumn(t);
    t.text('event').notNullable(); // JSON
    instants(t, 'created_at');
    optionalInstants(t, 'sent_at');
    t.index(['sent_at', 'created_at']);
  });
}
