/**
 * W1's floor: how close to its baselines can ANY implementation of GET /api/v1/me on Koa come on this machine?
 * One process (this file with --serve) holds the real service, W1's two baselines (bare node:http and bare
 * Koa + @koa/router answering the very bytes of one real /me answer) and three Koa + @koa/router servers that each
 * do a little more of what api.md asks of every signed-in answer, with everything else made as cheap as it can be:
 *
 * - F1, the least any implementation does per request: find the session cookie in the Cookie header and the
 *   caller in a Map keyed by the raw token (no hashing, no freshness check), start a trace (X-Trace-Id,
 *   traceparent from a pooled random id), time the request (Server-Timing: total, db with its count), set the same
 *   headers, and answer the caller's /me bytes serialized once in advance.
 * - F2: F1, plus a per-account rate-limit count (a Map, fixed window) and the body serialized per request.
 * - F3: F2, with session and memberships read by two awaited functions inside one AsyncLocalStorage run that
 *   carries the request's db accounting, as Server-Timing's per-request query count asks.
 *
 * The service does all of F3 and more (a freshness check before each kept value, hashed tokens, validation,
 * api.md's other conventions). If F1 misses a W1 target, no implementation on Koa meets it here.
 *   tsx scripts/bench/w1-floor.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { newTraceId } from '../../adapters/http/observe.js';
import { announce, orStop, benchService, emit, listening, measure, meBaselines, measureMeBaselines, meRows, progress, spawnService, stopService, workloadArgs, type Figures } from './lib.js';

const FLOORS = ['f1', 'f2', 'f3'] as const;
type Floor = (typeof FLOORS)[number];

interface Served {
  appUrl: string;
  bareUrl: string;
  koaUrl: string;
  floorUrls: Record<Floor, string>;
  cookie: string;
}

const FLOOR_NAMES: Record<Floor, string> = {
  f1: 'F1: Koa + cookie, Map lookup, trace, timing, same headers',
  f2: 'F2: F1 + rate-limit count, body serialized per request',
  f3: 'F3: F2 + AsyncLocalStorage with two awaited reads',
};

// Made anew for each answer by the floors.
const PER_REQUEST = new Set(['x-trace-id', 'traceparent', 'server-timing']);


/** The raw session token of a Cookie header, the way any implementation must find it. */
function sessionToken(cookieHeader: string | undefined): string | null {
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

function floorApp(floor: Floor, headers: readonly (readonly [string, string])[], token: string, me: unknown): Koa {
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

async function serve(): Promise<void> {
  const { app, cookie } = await benchService('w1-floor');
  await orStop(app, async () => {
    const { sample, headers, ...baselines } = await meBaselines(app.url, cookie);
    const token = sessionToken(cookie)!;
    const fixed = headers.filter(([name]) => !PER_REQUEST.has(name));
    const me = JSON.parse(sample.toString('utf8')) as unknown;
    const floors = await Promise.all(FLOORS.map(async (f) => [f, await listening(createServer(floorApp(f, fixed, token, me).callback()))] as const));
    // Each floor answers what the service answers, bar the per-request values.
    for (const [f, server] of floors) {
      const got = await fetch(`${server.url}/api/v1/me`, { headers: { Cookie: cookie } });
      const body = Buffer.from(await got.arrayBuffer());
      if (got.status !== 200 || !body.equals(sample) || !got.headers.get('server-timing')?.startsWith('total;dur=')) throw new Error(`${f} does not answer the service's /me`);
    }
    announce(
      { appUrl: app.url, bareUrl: baselines.bareUrl, koaUrl: baselines.koaUrl, floorUrls: Object.fromEntries(floors.map(([f, s]) => [f, s.url])) as Record<Floor, string>, cookie } satisfies Served,
      async () => {
        baselines.close();
        for (const [, s] of floors) s.close();
        await app.stop();
      },
    );
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  const { info, child } = await spawnService<Served>('scripts/bench/w1-floor.ts');
  try {
    const load = { headers: { Cookie: info.cookie }, connections, seconds };
    const baselines = await measureMeBaselines(`W1 floor ${db}`, info, load);
    const subjects: [string, Figures][] = [];
    for (const f of FLOORS) {
      progress(`W1 floor ${db}: ${FLOOR_NAMES[f]}`);
      subjects.push([FLOOR_NAMES[f], await measure(`${info.floorUrls[f]}/api/v1/me`, load)]);
    }
    progress(`W1 floor ${db}: GET /api/v1/me`);
    subjects.push(['GET /api/v1/me (the service)', await measure(`${info.appUrl}/api/v1/me`, load)]);
    emit(subjects.flatMap(([subject, figures]) => meRows('W1 floor', db, subject, figures, baselines)), json);
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
