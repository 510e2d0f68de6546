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

/** Times `fn` as a named step of the current request (shown in Server-Timing). */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const metrics = storage.getStore();
  if (!metrics) return fn();
  const start = process.hrtime.bigint();
  try {
    return await fn();
  } finally {
    metrics.steps.push({ name, ms: elapsedMs(start) });
  }
}

export function recordQuery(ms: number): void {
  const metrics = storage.getStore();
  if (!metrics) return;
  metrics.dbMs += ms;
  metrics.dbQueries += 1;
}
