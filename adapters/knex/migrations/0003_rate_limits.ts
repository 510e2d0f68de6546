import type { Knex } from 'knex';
import { createTableOnce } from '../schema-kit.js';

export const name = '0003_rate_limits';

/** Counters of rate-limiter-flexible's Postgres store, shared by every process on one database. */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire').nullable();
  });
}
