import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (prom-client). Off until startMetrics(): every hook below is then a call that
 * does nothing, so the request path pays nothing for metrics nobody reads. On, they are served on a port of their
 * own (serveMetrics), never on the public one.
 */
interface Instruments {
  readonly registry: Registry;
  readonly requests: Histogram<'method' | 'route' | 'status_class'>;
  readonly queries: Histogram<never>;
  readonly jobs: Histogram<'job' | 'outcome'>;
  readonly pushes: Counter<'outcome'>;
  readonly mailsFailed: Counter<never>;
}

let on: Instruments | null = null;

/** What the gauges read when Prometheus scrapes: the outboxes' depth. */
export interface MetricsSources {
  /** Push outbox entries not yet handed over, and deliveries waiting to be sent (pending or to be retried). */
  pushDepth(): Promise<{ outbox: number; deliveries: number }>;
  /** Mails in the mail outbox not yet delivered (nor given up, nor dropped). */
  mailDepth(): Promise<number>;
}

/** Turns the metrics on for this process (once; a later call gives the same registry and new sources). */
export function startMetrics(sources: MetricsSources): Registry {
  current = sources;
  if (on) return on.registry;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const seconds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  on = {
    registry,
    requests: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Requests by method, route template (unmatched: no route) and status class, from the first byte in to the answer.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: seconds,
      registers: [registry],
    }),
    queries: new Histogram({ name: 'db_query_duration_seconds', help: 'Database statements, from sent to answered (or failed).', buckets: seconds, registers: [registry] }),
    jobs: new Histogram({
      name: 'job_run_duration_seconds',
      help: 'Scheduled job runs by job and outcome (ran, skipped: another process had it, failed).',
      labelNames: ['job', 'outcome'],
      buckets: [0.01, 0.1, 1, 10, 60, 300],
      registers: [registry],
    }),
    pushes: new Counter({ name: 'push_sends_total', help: 'Push sends by outcome (sent, retried, failed: given up, dropped, gone: token no longer valid).', labelNames: ['outcome'], registers: [registry] }),
    mailsFailed: new Counter({ name: 'mail_failures_total', help: 'Mails given up: refused for good, or still failing a day after they were written.', registers: [registry] }),
  };
  new Gauge({
    name: 'push_outbox_depth',
    help: 'Push events recorded and not yet handed over to deliveries.',
    registers: [registry],
    async collect() {
      this.set((await current!.pushDepth()).outbox);
    },
  });
  new Gauge({
    name: 'push_deliveries_waiting',
    help: 'Push deliveries waiting to be sent (new or to be retried).',
    registers: [registry],
    async collect() {
      this.set((await current!.pushDepth()).deliveries);
    },
  });
  new Gauge({
    name: 'mail_outbox_depth',
    help: 'Mails in the outbox not yet accepted by the mail server (nor given up, nor dropped with an expired link).',
    registers: [registry],
    async collect() {
      this.set(await current!.mailDepth());
    },
  });
  return registry;
}
let current: MetricsSources | null = null;

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** An answered request: `route` is its template (`/api/v1/households/{householdId}`), null when no route matched. */
export function observeRequest(method: string, route: string | null, status: number, seconds: number): void {
  on?.requests.observe({ method, route: route ?? 'unmatched', status_class: statusClass(status) }, seconds);
}

export function observeQuery(seconds: number): void {
  on?.queries.observe(seconds);
}

export function observeJob(job: string, outcome: 'ran' | 'skipped' | 'failed', seconds: number): void {
  on?.jobs.observe({ job, outcome }, seconds);
}

export function observePushes(report: { sent: number; retried: number; failed: readonly unknown[]; dropped: number; gone: number }): void {
  if (!on) return;
  for (const [outcome, n] of [['sent', report.sent], ['retried', report.retried], ['failed', report.failed.length], ['dropped', report.dropped], ['gone', report.gone]] as const) {
    if (n > 0) on.pushes.inc({ outcome }, n);
  }
}

export function observeMailFailed(): void {
  on?.mailsFailed.inc();
}

/** `/metrics` in the Prometheus text format on its own port; anything else 404. */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
