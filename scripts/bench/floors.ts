/**
 * W1's floors (docs/performance.md, "W1's floor"): Koa + @koa/router servers that answer the service's very GET
 * /api/v1/me bytes with the least work the API's conventions ask of a signed-in answer, everything else as cheap as it can be.
 * F3 is W1's baseline in `npm run bench` (issue 32); w1-floor.ts measures all three.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { newTraceId } from '../../adapters/http/observe.js';
import { listening } from './lib.js';

export const FLOORS = ['f1', 'f2', 'f3'] as const;
export type Floor = (typeof FLOORS)[number];


export const FLOOR_NAMES: Record<Floor, string> = {
  f1: 'F1: Koa + cookie, Map lookup, trace, timing, same headers',
  f2: 'F2: F1 + rate-limit count, body serialized per request',
  f3: 'F3: F2 + AsyncLocalStorage with two awaited reads',
};

// Made anew for each answer by the floors.
const PER_REQUEST = new Set(['x-trace-id', 'traceparent', 'server-timing']);


/** The raw session token of a Cookie header, the way any implementation must find it. */
export function sessionToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const at = cookieHeader.indexOf('app_session=');
  if (at < 0) return null;
  const end = cookieHeader.indexOf(';', at);
  return cookieHeader.slice(at + 'app_session='.length, end < 0 ? undefined : end);
}

interface Metrics {
  traceId: string;
  startedAt: bigint;
  dbMs: number;
  dbQueries: number;
}

export function floorApp(floor: Floor, headers: readonly (readonly [string, string])[], token: string, me: unknown): Koa {
  const accountId = 'bench';
  const sessions = new Map([[token, { accountId }]]);
  const memberships = new Map([[accountId, me]]);
  const serialized = new Map([[accountId, Buffer.from(JSON.stringify(me))]]);
  const counts = new Map<string, { window: number; count: number }>();
  const storage = new AsyncLocalStorage<Metrics>();
  // A value kept in memory, read the way the service reads one: the request's accounting is looked up (a read
  // of the database would add to it; one from memory, like these, adds nothing).
  const countedRead = async <T>(read: () => T): Promise<T> => {
    const value = read();
    if (!storage.getStore()) throw new Error('read outside a request');
    return value;
  };
  const app = new Koa();
  const router = new Router();
  router.get('/api/v1/me', async (ctx) => {
    const metrics: Metrics = { traceId: newTraceId(), startedAt: process.hrtime.bigint(), dbMs: 0, dbQueries: 0 };
    const answer = async () => {
      const raw = sessionToken(ctx.req.headers.cookie);
      const session = raw === null ? undefined : floor === 'f3' ? await countedRead(() => sessions.get(raw)) : sessions.get(raw);
      if (!session) {
        ctx.status = 401;
        return;
      }
      if (floor !== 'f1') {
        const window = Math.floor(Date.now() / 60_000);
        const c = counts.get(session.accountId);
        if (c && c.window === window) c.count++;
        else counts.set(session.accountId, { window, count: 1 });
      }
      for (const [name, value] of headers) ctx.set(name, value);
      if (floor === 'f1') ctx.body = serialized.get(session.accountId)!;
      else {
        const body = floor === 'f3' ? await countedRead(() => memberships.get(session.accountId)) : memberships.get(session.accountId);
        ctx.body = Buffer.from(JSON.stringify(body));
      }
    };
    if (floor === 'f3') await storage.run(metrics, answer);
    else await answer();
    const totalMs = Number(process.hrtime.bigint() - metrics.startedAt) / 1e6;
    ctx.set('X-Trace-Id', metrics.traceId);
    ctx.set('traceparent', `00-${metrics.traceId}-${metrics.traceId.slice(0, 16)}-01`);
    ctx.set('Server-Timing', `total;dur=${totalMs.toFixed(1)}, db;dur=${metrics.dbMs.toFixed(1)};desc="${metrics.dbQueries} queries"`);
  });
  app.use(router.routes());
  return app;
}

/**
 * The floors `which` on loopback, each answering what the service at `appUrl` answers for GET /me with `cookie`
 * (`sample`, with its `headers`), bar the per-request values: checked before anything is measured.
 */
export async function startFloors<F extends Floor>(which: readonly F[], cookie: string, sample: Buffer, headers: readonly (readonly [string, string])[]): Promise<{ urls: Record<F, string>; close(): void }> {
  const token = sessionToken(cookie)!;
  const fixed = headers.filter(([name]) => !PER_REQUEST.has(name));
  const me = JSON.parse(sample.toString('utf8')) as unknown;
  const floors = await Promise.all(which.map(async (f) => [f, await listening(createServer(floorApp(f, fixed, token, me).callback()))] as const));
  for (const [f, server] of floors) {
    const got = await fetch(`${server.url}/api/v1/me`, { headers: { Cookie: cookie } });
    const body = Buffer.from(await got.arrayBuffer());
    if (got.status !== 200 || !body.equals(sample) || !got.headers.get('server-timing')?.startsWith('total;dur=')) throw new Error(`${f} does not answer the service's /me`);
  }
  return {
    urls: Object.fromEntries(floors.map(([f, server]) => [f, server.url])) as Record<F, string>,
    close() {
      for (const [, server] of floors) server.close();
    },
  };
}
