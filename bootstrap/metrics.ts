import { mailDepth, pushDepth } from '../adapters/knex/outbox-depth.js';
import { serveMetrics, startMetrics } from '../adapters/observability/prometheus.js';
import type { Runtime } from './runtime.js';

/**
 * Turns the Prometheus metrics on and serves them at `http://{host}:{port}/metrics` (config METRICS_PORT,
 * METRICS_HOST): a listener of its own, so the public port never answers them.
 */
export async function startMetricsServer(runtime: Runtime, host: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const registry = startMetrics({ pushDepth: () => pushDepth(runtime.db.knex), mailDepth: () => mailDepth(runtime.db.knex) });
  return serveMetrics(registry, host, port);
}
