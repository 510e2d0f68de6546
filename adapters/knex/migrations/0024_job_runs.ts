import type { Knex } from 'knex';

export const name = '0024_job_runs';

export async function up(knex: Knex): Promise<void> {
  // One row per scheduled tick of a job that some process ran: the process whose insert of (job, slot) lands runs
  // the tick, every other process finds the row and skips it, so a tick runs once however many processes share the
  // database. A scheduled purge forgets rows a week old.
  if (!(await knex.schema.hasTable('job_runs'))) {
    await knex.schema.createTable('job_runs', (t) => {
      t.string('job', 64).notNullable();
      t.timestamp('slot', { useTz: true }).notNullable(); // the tick's scheduled time, the same in every process
      t.timestamp('claimed_at', { useTz: true }).notNullable();
      t.primary(['job', 'slot']);
      t.index(['slot']);
    });
  }
}
