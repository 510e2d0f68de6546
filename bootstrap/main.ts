import { configOrExit } from './entry.js';
import { jsonLogger } from '../adapters/log/json-logger.js';
import { scheduleJobs } from './jobs.js';
import { createRuntime } from './runtime.js';
import { listen } from './server.js';
import { startMetricsServer } from './metrics.js';
import { releaseStartMemory } from './start-memory.js';

/** How long after listening the start's memory is given back (bootstrap/start-memory.ts). */
const START_MEMORY_DELAY_MS = 1000;

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = jsonLogger(config.logLevel);
  const runtime = await createRuntime(config, { logger });
  const running = await listen(runtime, config.port, config.host);
  const jobs = scheduleJobs(runtime);
  const metrics = config.metrics ? await startMetricsServer(runtime, config.metrics.host, config.metrics.port) : null;
  logger.info('listening', { url: running.url, database: config.database.kind, publicBaseUrl: config.publicBaseUrl, ...(metrics ? { metrics: `${metrics.url}/metrics` } : {}) });
  // A moment after the first answers can be given (a restart is timed to the first /health), not before them.
  setTimeout(() => {
    const before = process.memoryUsage.rss();
    const started = performance.now();
    releaseStartMemory();
    logger.debug('start memory released', { ms: Math.round(performance.now() - started), rssMbBefore: Math.round(before / 2 ** 20), rssMbAfter: Math.round(process.memoryUsage.rss() / 2 ** 20) });
  }, START_MEMORY_DELAY_MS).unref();

  const shutdown = (signal: string) => {
    logger.info('shutting down', { signal });
    jobs.stop();
    void metrics?.stop();
    running.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'failed to start', err: String(err instanceof Error ? err.stack : err) })}\n`);
  process.exit(1);
});
