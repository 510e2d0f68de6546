import type { Knex } from 'knex';
import { createTableOnce, instants } from '../schema-kit.js';

export const name = '0020_public_data_files';

export async function up(knex: Knex): Promise<void> {
  // The built public downloads (food-db-derived, library-derived): in the database rather than on a disk, so that
  // every server process sharing it serves the same bytes, whichever process built them.
  await createTableOnce(knex, 'public_data_files', (t) => {
    t.string('name', 100).primary();
    t.string('sha256', 64).notNullable();
    t.bigInteger('size').notNullable();
    instants(t, 'built_at');
    // bytea on Postgres, blob on SQLite.
    t.binary('bytes').notNullable();
  });
}
