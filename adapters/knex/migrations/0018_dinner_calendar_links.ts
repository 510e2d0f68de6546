import type { Knex } from 'knex';

export const name = '0018_dinner_calendar_links';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('dinner_calendar_links'))) {
    await knex.schema.createTable('dinner_calendar_links', (t) => {
      // One link per household: concurrent first reads meet here.
      t.uuid('household_id').primary().references('id').inTable('households').onDelete('CASCADE');
      // The feed token as handed out (members read the link back); null while turned off. Unique: the .ics
      // route finds the household by it through the index (several NULLs are allowed on both databases).
      t.string('token', 128).nullable().unique();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  }
}
