import type { Knex } from 'knex';
import { createTableOnce, instants } from '../schema-kit.js';

export const name = '0024_job_runs';

export async function up(knex: Knex): Promise<void> {
  // One row per scheduled tick of a job that some process ran: the process whose insert of (job, slot) lands runs
  // the tick, every other process finds the row and skips it, so a tick runs once however many processes share the
  // database. A scheduled purge forgets rows a week old.
  await createTableOnce(knex, 'job_runs', (t) => {
    t.string('job', 64).notNullable();
    instants(t, 'slot'); // the tick's scheduled time, the same in every process
    instants(t, 'claimed_at');
    t.primary(['job', 'slot']);
    t.index(['slot']);
  });
}
