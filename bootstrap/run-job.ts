/**
 * Runs one scheduled job now, by hand, and exits: `npm run job -- mail-dinner-prices` (or `node
 * dist/bootstrap/run-job.js <name>`), with the server's settings from the environment. A run by hand is not a tick:
 * it claims none, and takes the job's lock like any run, so it skips while another process runs a locked job.
 * Exit status: 0 ran, 1 failed or skipped (the log says which), 64 unknown job, 78 bad settings.
 */
import { jsonLogger } from '../adapters/log/json-logger.js';
import { configOrExit } from './entry.js';
import { jobsOf, runExclusive } from './jobs.js';
import { createRuntime } from './runtime.js';

async function main(): Promise<number> {
  const config = configOrExit();
  const logger = jsonLogger(config.logLevel);
  const runtime = await createRuntime(config, { logger });
  try {
    const jobs = jobsOf(runtime);
    const job = jobs.find((j) => j.name === process.argv[2]);
    if (!job) {
      process.stderr.write(`usage: run-job <name>, one of: ${jobs.map((j) => j.name).join(', ')}\n`);
      return 64; // EX_USAGE
    }
    const ran = await runExclusive(runtime.db, logger, job);
    logger.info(ran ? 'job run by hand' : 'job run by hand did not run', { job: job.name });
    return ran ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'job run failed', err: String(err instanceof Error ? err.stack : err) })}\n`);
    process.exit(1);
  },
);
