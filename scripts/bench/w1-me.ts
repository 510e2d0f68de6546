/**
 * W1: GET /api/v1/me with a session, against (a) a bare node:http server and (b) bare Koa + @koa/router with no
 * middleware, both answering the very bytes and headers of one real /me answer. One process (this file with
 * --serve) holds the service and both baselines, measured one after the other by autocannon in this process.
 *   tsx scripts/bench/w1-me.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { announce, orStop, benchService, emit, measure, progress, spawnService, stopService, throughputRow, workloadArgs, type ServedWithBaseline } from './lib.js';

interface Served extends ServedWithBaseline {
  koaUrl: string;
}

// Set by node:http itself for every answer, or changing per answer: not part of "the same headers".
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const listening = (server: Server) => new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));

async function serve(): Promise<void> {
  const { app, cookie } = await benchService('w1');
  await orStop(app, async () => {
    const res = await fetch(`${app.url}/api/v1/me`, { headers: { Cookie: cookie } });
    if (res.status !== 200) throw new Error(`GET /me answered ${res.status}`);
    const sample = Buffer.from(await res.arrayBuffer());
    const headers = [...res.headers].filter(([name]) => !OWN_HEADERS.has(name));
    const bare = await listening(
      createServer((_req, out) => {
        for (const [name, value] of headers) out.setHeader(name, value);
        out.setHeader('Content-Length', sample.length);
        out.end(sample);
      }),
    );
    const koa = new Koa();
    const router = new Router();
    router.get('/api/v1/me', (ctx) => {
      for (const [name, value] of headers) ctx.set(name, value);
      ctx.body = sample;
    });
    koa.use(router.routes());
    const koaServer = await listening(createServer(koa.callback()));
    announce({ appUrl: app.url, bareUrl: urlOf(bare), koaUrl: urlOf(koaServer), cookie } satisfies Served, async () => {
      bare.close();
      koaServer.close();
      await app.stop();
    });
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  const { info, child } = await spawnService<Served>('scripts/bench/w1-me.ts');
  try {
    const load = { headers: { Cookie: info.cookie }, connections, seconds };
    progress(`W1 ${db}: bare node:http`);
    const bare = await measure(`${info.bareUrl}/api/v1/me`, load);
    progress(`W1 ${db}: bare Koa + @koa/router`);
    const koa = await measure(`${info.koaUrl}/api/v1/me`, load);
    progress(`W1 ${db}: GET /api/v1/me`);
    const me = await measure(`${info.appUrl}/api/v1/me`, load);
    const subject = 'GET /api/v1/me';
    emit(
      [
        throughputRow({ workload: 'W1', db, subject, baseline: 'bare node:http, same bytes', subjectFigures: me, baselineFigures: bare }, 0.5),
        throughputRow({ workload: 'W1', db, subject, baseline: 'bare Koa + @koa/router, same bytes', subjectFigures: me, baselineFigures: koa }, 0.75),
      ],
      json,
    );
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
