import { AsyncLocalStorage } from 'node:async_hooks';

/** What one request measures about itself: the trace it belongs to, database work, and named steps. */
export interface RequestMetrics {
  readonly traceId: string;
  readonly spanId: string;
  readonly startedAt: bigint;
  dbMs: number;
  dbQueries: number;
  readonly steps: { name: string; ms: number }[];
}

const storage = new AsyncLocalStorage<RequestMetrics>();

export function runWithMetrics<T>(metrics: RequestMetrics, fn: () => T): T {
  return storage.run(metrics, fn);
}

export function currentMetrics(): RequestMetrics | undefined {
  return storage.getStore();
}

export function elapsedMs(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}

/** Records a named step of the request (shown in Server-Timing) that began at `since` (process.hrtime.bigint()). */
export function stepDone(metrics: RequestMetrics, name: string, since: bigint): void {
  metrics.steps.push({ name, ms: elapsedMs(since) });
}

export function recordQuery(ms: number): void {
  const metrics = storage.getStore();
  if (!metrics) return;
  metrics.dbMs += ms;
  metrics.dbQueries += 1;
}
