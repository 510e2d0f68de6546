import { randomFillSync } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../../ports/logger.js';
import { observeRequest } from '../observability/prometheus.js';
import { elapsedMs, runWithMetrics, type RequestMetrics } from '../observability/request-context.js';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The trace id of a valid W3C `traceparent`, else null (version ff, all-zero ids and bad shapes are invalid). */
export function traceIdFrom(traceparent: string | undefined): string | null {
  if (!traceparent) return null;
  const m = TRACEPARENT.exec(traceparent.trim());
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return null;
  return m[2]!;
}

/**
 * Trace and span ids come from a pool refilled 4 KiB at a time: one system call per request for 24 random bytes
 * was a visible share of a request that touches no database (W1; docs/performance.md, figures from code comments).
 */
const pool = Buffer.alloc(4096);
let taken = pool.length;
const randomHex = (bytes: number): string => {
  if (taken + bytes > pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  taken += bytes;
  return pool.toString('hex', taken - bytes, taken);
};

export const newTraceId = (): string => randomHex(16);

// The query is parsed only when there is one (Koa parses it anew on each ctx.query).
const wantsDiagnostics = (ctx: Koa.Context) => ctx.req.headers['x-diagnostics'] === '1' || (ctx.querystring !== '' && ctx.query['diagnostics'] === '1');

/** A duration in milliseconds to one decimal, rounded half up: toFixed(1)'s text at a tenth of its cost (six a request). */
export const fmt = (ms: number): string => {
  const tenths = Math.round(ms * 10);
  return `${Math.trunc(tenths / 10)}.${tenths % 10}`;
};

/** Server-Timing: total, db with its query count, then each named step. */
export function serverTiming(m: RequestMetrics, totalMs: number): string {
  let out = `total;dur=${fmt(totalMs)}, db;dur=${fmt(m.dbMs)};desc="${m.dbQueries} queries"`;
  for (const s of m.steps) out += `, ${s.name};dur=${fmt(s.ms)}`;
  return out;
}

/**
 * Outermost middleware: continues or starts the trace, measures the request, runs `check` (the request line's own
 * rules) and the rest of the chain under the request's context, answers any error with `answerProblem` (still under
 * it, so that a logged failure carries the trace), and writes X-Trace-Id, Server-Timing, the browser-safety headers,
 * X-Diagnostics on request, and one access-log line. One async function for all of it: each layer is a promise more
 * for every request.
 */
export function observe(logger: Logger, check: (ctx: Koa.Context) => void, answerProblem: (ctx: Koa.Context, err: unknown) => void): Koa.Middleware {
  return async (ctx, next) => {
    const metrics: RequestMetrics = {
      // Node's own lower-case header (ctx.get lower-cases its argument on every call).
      traceId: traceIdFrom(ctx.req.headers.traceparent as string | undefined) ?? newTraceId(),
      spanId: randomHex(8),
      startedAt: process.hrtime.bigint(),
      dbMs: 0,
      dbQueries: 0,
      steps: [],
    };
    ctx.state['metrics'] = metrics;
    try {
      check(ctx);
      // The request context follows the chain's promises.
      await runWithMetrics(metrics, next);
    } catch (err) {
      runWithMetrics(metrics, () => answerProblem(ctx, err));
    } finally {
      const totalMs = elapsedMs(metrics.startedAt);
      observeRequest(ctx.method, (ctx.state['route'] as string | undefined) ?? null, ctx.status, totalMs / 1000);
      // Node's own setHeader: Koa's ctx.set makes three arrays and a closure for each header (half a microsecond for these).
      const res = ctx.res;
      if (!res.headersSent) {
        res.setHeader('X-Trace-Id', metrics.traceId);
        res.setHeader('traceparent', `00-${metrics.traceId}-${metrics.spanId}-01`);
        res.setHeader('Server-Timing', serverTiming(metrics, totalMs));
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Referrer-Policy', 'no-referrer');
      }
      if (wantsDiagnostics(ctx)) {
        ctx.set(
          'X-Diagnostics',
          JSON.stringify({
            traceId: metrics.traceId,
            totalMs: Number(fmt(totalMs)),
            db: { ms: Number(fmt(metrics.dbMs)), queries: metrics.dbQueries },
            steps: metrics.steps.map((s) => ({ name: s.name, ms: Number(fmt(s.ms)) })),
          }),
        );
      }
      // The request's trace and span by hand, as the logger adds them under a request's context (entering one again
      // for the line cost a signed-in request a visible share of its time: W1, docs/performance.md).
      if (logger.enabled('info')) {
        logger.info('request', {
          traceId: metrics.traceId,
          requestId: metrics.spanId,
          method: ctx.method,
          path: loggedPath(ctx.path),
          status: ctx.status,
          ms: Number(fmt(totalMs)),
          dbQueries: metrics.dbQueries,
        });
      }
    }
  };
}

/** The path as logged: a dinner calendar's token is its only proof, so it never reaches the logs. */
export const loggedPath = (path: string): string => path.replace(/^(\/api\/v1\/calendar\/)[^/]+(\.ics)$/i, '$1{token}$2');
