import type { Knex } from 'knex';
import { createTableOnce, instants, ownerKeyColumn } from '../schema-kit.js';

export const name = '0018_dinner_calendar_links';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'dinner_calendar_links', (t) => {
    // One link per household: concurrent first reads meet here.
    ownerKeyColumn(t, 'household_id', 'households');
    // The feed token as handed out (members read the link back); null while turned off. Unique: the .ics
    // route finds the household by it through the index (several NULLs are allowed on both databases).
    t.string('token', 128).nullable().unique();
    instants(t, 'created_at', 'updated_at');
  });
}
