import type { Knex } from 'knex';
import { isPostgres } from '../schema-kit.js';

export const name = '0025_rate_limits_unlogged';

export async function up(knex: Knex): Promise<void> {
  // Rate-limit counters are consumed on nearly every request, each an upsert of its own. Logged, every one waited
  // for a WAL flush to disk (a few ms on this kind of machine, and the main cost of a signed-in GET on Postgres).
  // The counters are worth nothing after a crash (a window lasts a minute), so the table skips the WAL: a crash
  // empties it, which lets a client start a fresh window early, never locks anyone out.
  if (isPostgres(knex)) await knex.raw('alter table rate_limits set unlogged');
}
