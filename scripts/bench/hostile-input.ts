/**
 * Hostile input (issue 42): what refusing a hostile body costs the service, measured in the service's own process.
 * For each body: the service's CPU time over the request (user + system, from process.cpuUsage, so it includes
 * reading and draining the body), the longest the event loop was held while it was worked on (monitorEventLoopDelay
 * at 1 ms resolution), the slowest of the GET /health/live answers a second client asked for every 10 ms meanwhile
 * (seen from this process), the answer's status, code and size, and the service's heap after a full collection
 * against before the bodies. Targets: a refusal of a JSON body (1 MiB) within 100 ms of CPU, the event loop and
 * the health answers within 100 ms for every body, the import's included; every answer within 16 kB.
 *   tsx scripts/bench/hostile-input.ts [--db sqlite|postgres] [--json]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { announce, benchService, listening, orStop, progress, spawnService, stopService } from './lib.js';

interface Served {
  url: string;
  statsUrl: string;
  cookie: string;
  householdId: string;
}

interface Stats {
  cpuMs: number;
  loopMaxMs: number;
  heapMb: number;
}

async function serve(): Promise<void> {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const service = await benchService('hostile');
  const { app, cookie, householdId } = service;
  await orStop(app, async () => {
    // A side door for the driver: reset the counters before a body, read them after; nothing of the service's.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    let cpu = process.cpuUsage();
    const stats = await listening(
      createServer((req, res) => {
        if (req.url === '/reset') {
          gc();
          loop.reset();
          cpu = process.cpuUsage();
          res.end('{}');
          return;
        }
        const used = process.cpuUsage(cpu);
        const loopMaxMs = loop.max / 1e6;
        gc();
        res.end(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, loopMaxMs, heapMb: process.memoryUsage().heapUsed / 1024 / 1024 } satisfies Stats));
      }),
    );
    announce({ url: app.url, statsUrl: stats.url, cookie, householdId } satisfies Served, async () => {
      stats.close();
      await app.stop();
    });
  });
}

interface Case {
  readonly name: string;
  readonly path: (s: Served) => string;
  readonly body: (s: Served, exportText: string) => Buffer;
  readonly contentType?: string;
  /** A JSON route of 1 MiB, held to 100 ms of CPU; the import's rows are shown beside them. */
  readonly cpuTarget: boolean;
}

const MB = 1024 * 1024;
const recipes = (s: Served) => `/api/v1/households/${s.householdId}/recipes`;
const atKey = (text: string, key: string, junk: Buffer, tail = ''): Buffer => {
  const at = text.indexOf(key) + key.length;
  return Buffer.concat([Buffer.from(text.slice(0, at)), junk, Buffer.from(tail + text.slice(at))]);
};
const repeat = (unit: string, bytes: number) => Buffer.from(unit.repeat(Math.floor(bytes / unit.length)));
const RECIPE = JSON.stringify({ id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', title: 'Suppe', servings: 4, activeMinutes: null, totalMinutes: null, steps: ['Kok'], ingredients: [], sourceUrl: null, imageUrl: null, image: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

const CASES: readonly Case[] = [
  { name: 'recipe: 500,000 steps (1 MiB)', cpuTarget: true, path: recipes, body: () => Buffer.from(`{"title":"x","servings":4,"activeMinutes":null,"totalMinutes":null,"ingredients":[],"steps":[${'0,'.repeat(499_999)}0]}`) },
  {
    name: 'recipe: 100 steps and 100 ingredients, all wrong',
    cpuTarget: true,
    path: recipes,
    body: () => Buffer.from(JSON.stringify({ title: 7, servings: 'x', steps: Array.from({ length: 100 }, () => ({})), ingredients: Array.from({ length: 100 }, () => ({ displayName: 5, quantity: 'x'.repeat(9_000) })) })),
  },
  { name: 'household: a name of 1 MiB', cpuTarget: true, path: () => '/api/v1/households', body: () => Buffer.from(`{"name":"${'x'.repeat(MB - 20)}"}`) },
  { name: 'recipe: 1 MiB of junk keys beside a wrong title', cpuTarget: true, path: recipes, body: () => Buffer.from(`{"title":true${Array.from({ length: Math.floor((MB - 40) / 22) }, (_, i) => `,"zz${String(i).padStart(7, '0')}":[0,{}]`).join('')}}`) },
  { name: 'recipe: 1 MiB of nested arrays', cpuTarget: true, path: recipes, body: () => Buffer.from(`{"title":"x","steps":${'['.repeat(MB - 40)}`) },
  { name: 'recipe: "__proto__" at the end of 1 MiB', cpuTarget: true, path: recipes, body: () => Buffer.from(`{"title":"x","junk":[${'{"a":1},'.repeat(MB / 8 - 10)}{"__proto__":{}}]}`) },
  { name: 'recipe: not UTF-8 at the end of 1 MiB', cpuTarget: true, path: recipes, body: () => Buffer.concat([Buffer.from(`{"title":"${'x'.repeat(MB - 30)}`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]) },
  { name: 'import: 18 MB of junk members', cpuTarget: false, path: () => '/api/v1/households/import', body: (_s, t) => atKey(t, '"members":[', repeat('{},', 18 * MB)) },
  { name: 'import: 60 MB of junk members', cpuTarget: false, path: () => '/api/v1/households/import', body: (_s, t) => atKey(t, '"members":[', repeat('{},', 60 * MB)) },
  { name: 'import: 60 MB nested', cpuTarget: false, path: () => '/api/v1/households/import', body: () => Buffer.concat([Buffer.from('{"junk":'), repeat('[', 60 * MB)]) },
  { name: 'import: 60 MB of well-formed recipes past 5,000', cpuTarget: false, path: () => '/api/v1/households/import', body: (_s, t) => atKey(t, '"recipes":[', repeat(`${RECIPE},`, 60 * MB), RECIPE) },
  { name: 'import: a name of 18 MB', cpuTarget: false, path: () => '/api/v1/households/import', body: (_s, t) => atKey(t, '"name":"', repeat('x', 18 * MB)) },
  { name: 'import: 60 MB under an unknown key', cpuTarget: false, path: () => '/api/v1/households/import', body: (_s, t) => Buffer.concat([Buffer.from('{"junk":['), repeat('[0,[1,{"a":[]}]],', 60 * MB), Buffer.from(`0],${t.slice(1)}`)]) },
];

/** Asks for the health answer every 10 ms until told to stop, then answers the slowest (ms). */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
let slowest = 0, going = true;
parentPort.on('message', () => { going = false; });
parentPort.postMessage('ready');
(async () => {
  while (going) {
    const t = performance.now();
    await (await fetch(workerData)).arrayBuffer();
    slowest = Math.max(slowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  parentPort.postMessage(slowest);
})();
`;

interface Row {
  name: string;
  status: number;
  code: string;
  answerBytes: number;
  cpuMs: number;
  loopMaxMs: number;
  healthMaxMs: number;
  heapDeltaMb: number;
  pass: boolean;
}

async function drive(): Promise<void> {
  const json = process.argv.includes('--json');
  const { info: s, child } = await spawnService<Served>('scripts/bench/hostile-input.ts');
  try {
    const headers = { Cookie: s.cookie };
    const exportText = await (await fetch(`${s.url}/api/v1/households/${s.householdId}/export`, { headers })).text();
    const stats = async (what: 'reset' | 'read') => (await (await fetch(`${s.statsUrl}/${what}`)).json()) as Stats;
    const start = await stats('read');
    const rows: Row[] = [];
    for (const c of CASES) {
      const body = c.body(s, exportText);
      await stats('reset');
      // The health probe runs on a thread of its own, so that this thread's work of sending the body is not counted.
      const prober = new Worker(PROBER, { eval: true, workerData: `${s.url}/health/live` });
      await new Promise((r) => prober.once('message', r));
      const res = await fetch(s.url + c.path(s), { method: 'POST', headers: { ...headers, 'Content-Type': c.contentType ?? 'application/json' }, body: new Uint8Array(body) });
      const text = await res.text();
      prober.postMessage('stop');
      const healthMaxMs = await new Promise<number>((r) => prober.once('message', r));
      await prober.terminate();
      const after = await stats('read');
      const code = res.status >= 400 ? String((JSON.parse(text) as { code?: unknown }).code) : '';
      const row = { name: c.name, status: res.status, code, answerBytes: Buffer.byteLength(text), cpuMs: after.cpuMs, loopMaxMs: after.loopMaxMs, healthMaxMs, heapDeltaMb: after.heapMb - start.heapMb, pass: false };
      row.pass = row.answerBytes <= 16 * 1024 && row.loopMaxMs <= 100 && row.healthMaxMs <= 100 && (!c.cpuTarget || row.cpuMs <= 100);
      rows.push(row);
      progress(`${c.name}: ${res.status} ${code} in ${row.answerBytes} B, CPU ${row.cpuMs.toFixed(1)} ms, loop ${row.loopMaxMs.toFixed(1)} ms, health ${healthMaxMs.toFixed(1)} ms, heap ${row.heapDeltaMb >= 0 ? '+' : ''}${row.heapDeltaMb.toFixed(1)} MB`);
    }
    if (json) process.stdout.write(JSON.stringify(rows) + '\n');
    else {
      console.log('| body | answer | size | service CPU | event loop held | slowest health | heap after | pass |');
      console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
      for (const r of rows) {
        console.log(`| ${r.name} | ${r.status} ${r.code} | ${r.answerBytes} B | ${r.cpuMs.toFixed(0)} ms | ${r.loopMaxMs.toFixed(0)} ms | ${r.healthMaxMs.toFixed(0)} ms | ${r.heapDeltaMb >= 0 ? '+' : ''}${r.heapDeltaMb.toFixed(1)} MB | ${r.pass ? 'yes' : 'NO'} |`);
      }
    }
  } finally {
    await stopService(child);
  }
}

if (process.argv.includes('--serve')) await serve();
else await drive();
