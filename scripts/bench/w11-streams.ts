/**
 * W11: a thousand kitchens on one process. 1,000 households of two members each (2,000 accounts), each with a
 * shopping list of a few lines, seeded over HTTP (the accounts with a cheap argon2 setting: signing in is W7's
 * subject, not this one's); 2,000 live streams (GET /api/v1/me/changes, one per member) opened by a plain node:http
 * client; then ticks at 50 a second spread over the households (PATCH a line as one member, the two members in
 * turn), each timed from sending the PATCH until the OTHER member's stream hears `changed` naming the household.
 * Every stream must hear every change of its household (a tick missed by either member's stream fails the rows),
 * and the service process's memory (RSS, after a full GC, the child runs with --expose-gc) may grow by at most
 * 20 kB per open stream. Rows: p95 ≤ 250 ms, p99 ≤ 1 s, no stream missing a change, memory per stream ≤ 20 kB.
 * On Postgres the same again with two processes on the one database, the streams split between them (a household's
 * two members on different processes) and the ticks sent to either.
 *   tsx scripts/bench/w11-streams.ts [--db sqlite|postgres] [--seconds 5] [--json] [--households 1000]
 * The ticks run for 4 × --seconds (at least 10 s). For looking into a stream's memory: --snapshot-dir DIR writes heap
 * snapshots before and after the streams open; W11_DEBUG=1 prints the process's memory at each step; W11_NODE_ARGS
 * adds node options to the measured processes.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request, createServer } from 'node:http';
import os from 'node:os';
import { getHeapSpaceStatistics } from 'node:v8';
import type { AddressInfo } from 'node:net';
import { announce, arg, benchDatabase, benchJoinService, benchService, emit, orStop, progress, seededMailDelivered, spawnService, stopService, workloadArgs, type BenchRow, type Figures } from './lib.js';

const HOUSEHOLDS = arg('households', 1000);
const LINES = 3;
const TICKS_PER_SECOND = 50;
const P95_MS = 250;
const P99_MS = 1000;
const BYTES_PER_STREAM = 20_000;
/** How long a tick's event may still come after the last tick was sent, before it counts as missed. */
const GRACE_MS = 5000;
const SEED_CONCURRENCY = 16;
const OPEN_CONCURRENCY = 50;
const PASSWORD = 'benchmark password';

interface Member {
  cookie: string;
}
interface Kitchen {
  id: string;
  members: [Member, Member];
  /** The lines' ids. */
  items: string[];
}
/** What the seeding process announces: where the data is, and the households with their members' sign-ins. */
interface Seeded {
  dir: string;
  schema: string | null;
  kitchens: Kitchen[];
  seedSeconds: number;
}

/** What a measured process announces. */
interface Served {
  appUrl: string;
  /** The operator hook of this bench's child: GET /memory (after a full GC, with the open streams' count). */
  hookUrl: string;
}

/** The service process's memory after a full GC, its CPU time so far, and its open streams. */
interface ProcessFacts {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  cpuMs: number;
  streams: number;
  /** With W11_DEBUG: V8's heap spaces, kB of each (size / used). */
  spaces?: Record<string, string>;
}

/** A side door on loopback in the child (not the service's routes): the process's memory after a full GC. */
async function operatorHook(streams: () => number): Promise<{ url: string; close(): void }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const server = createServer((req, res) => {
    if (req.url === '/memory') {
      gc?.();
      // A second pass after a turn: what the first freed is then given back too.
      setTimeout(() => {
        gc?.();
        const m = process.memoryUsage();
        const cpu = process.cpuUsage();
        const facts: ProcessFacts = { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, cpuMs: (cpu.user + cpu.system) / 1000, streams: streams() };
        if (process.env['W11_DEBUG']) facts.spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, `${Math.round(s.space_size / 1024)} / ${Math.round(s.space_used_size / 1024)}`]));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(facts));
      }, 50);
      return;
    }
    // For looking into what a stream holds: a heap snapshot in the directory named by --snapshot.
    const snapshot = /^\/snapshot\?name=(\w+)$/.exec(req.url ?? '');
    if (snapshot) return void import('node:v8').then((v8) => res.writeHead(200).end(v8.writeHeapSnapshot(`${option('snapshot-dir')}/${snapshot[1]}.heapsnapshot`)));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => void server.close() };
}

/** `work(i)` for i below `n`, `width` at a time. */
async function inTurns(n: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

type Call = (method: string, path: string, cookie: string | null, body?: unknown) => Promise<Response>;

const sessionOf = (res: Response) => /app_session=[^;]+/.exec(res.headers.getSetCookie().join(';'))![0];

/** One household: two members (the second joins by an invite), this week's plan, and LINES lines on its list. */
async function seedKitchen(call: Call, i: number, monday: string): Promise<Kitchen> {
  const register = async (who: string) => sessionOf(await call('POST', '/api/v1/auth/register', null, { email: `w11-${i}-${who}@example.com`, password: PASSWORD, displayName: `${who} ${i}` }));
  const a = await register('a');
  const b = await register('b');
  const household = (await (await call('POST', '/api/v1/households', a, { name: `Kitchen ${i}` })).json()) as { id: string };
  const base = `/api/v1/households/${household.id}`;
  const { code } = (await (await call('POST', `${base}/invites`, a, { role: 'Adult' })).json()) as { code: string };
  await call('POST', '/api/v1/invites/accept', b, { code });
  const plan = (await (await call('PUT', `${base}/plans/week/${monday}`, a)).json()) as { id: string };
  const items: string[] = [];
  for (const name of ['Melk', 'Brød', 'Egg'].slice(0, LINES)) {
    items.push(((await (await call('POST', `${base}/plans/${plan.id}/shopping-list/items`, a, { displayName: name })).json()) as { id: string }).id);
  }
  return { id: household.id, members: [{ cookie: a }, { cookie: b }], items };
}

const option = (name: string): string | null => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
};

async function serve(): Promise<void> {
  const { argon2Hasher } = await import('../../adapters/crypto/argon2-hasher.js');
  // Signing in is W7's subject: the 2,000 accounts are made with the tests' cheap setting.
  const hasher = argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const database = benchDatabase();
  const dir = option('join');
  if (dir !== null) {
    // A measured process, fresh: the seeding's garbage is not in its memory. Nothing seeded, nothing dropped.
    const { runtime, app } = await benchJoinService(database, { dir, schema: option('schema') }, { hasher });
    const hook = await operatorHook(() => runtime.live.size);
    announce({ appUrl: app.url, hookUrl: hook.url } satisfies Served, async () => {
      hook.close();
      await app.stop();
    });
    return;
  }
  const service = await benchService('w11', database, { hasher });
  const { app, call } = service;
  await orStop(app, async () => {
    const started = performance.now();
    const now = new Date();
    const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7))).toISOString().slice(0, 10);
    const kitchens: Kitchen[] = new Array<Kitchen>(HOUSEHOLDS);
    await inTurns(HOUSEHOLDS, SEED_CONCURRENCY, async (i) => {
      kitchens[i] = await seedKitchen(call, i, monday);
    });
    await seededMailDelivered(service.runtime);
    announce({ dir: service.dir, schema: service.schema, kitchens, seedSeconds: (performance.now() - started) / 1000 } satisfies Seeded, () => app.stop());
  });
}

/** One open stream as the driver reads it. */
interface Stream {
  readonly kitchen: number;
  readonly member: 0 | 1;
  /** Ticks of its household not yet heard: when each was sent, and whether this stream is the other member's. */
  pending: { sent: number; other: boolean }[];
  ended: boolean;
  close(): void;
}

/** GET /api/v1/me/changes on a plain node:http connection; resolves once `ready` came. `heard` gets each `changed`. */
function openStream(appUrl: string, cookie: string, kitchen: number, member: 0 | 1, householdId: string, heard: (s: Stream, at: number) => void): Promise<Stream> {
  const url = new URL('/api/v1/me/changes', appUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, agent: false, headers: { Cookie: cookie, Accept: 'text/event-stream' } });
    const stream: Stream = { kitchen, member, pending: [], ended: false, close: () => req.destroy() };
    req.on('error', (err) => {
      stream.ended = true;
      reject(err);
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /me/changes answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.includes('event: ready')) resolve(stream);
          else if (frame.includes('event: changed') && frame.includes(householdId)) heard(stream, performance.now());
          else if (frame.includes('event: end')) stream.ended = true;
        }
      });
      res.on('close', () => (stream.ended = true));
    });
    req.end();
  });
}

const facts = async (hookUrl: string): Promise<ProcessFacts> => (await (await fetch(`${hookUrl}/memory`)).json()) as ProcessFacts;

/** What one measurement (one or two processes) found. */
interface Measured {
  latencies: number[];
  ticks: number;
  tickErrors: number;
  /** Ticks a stream of the household never heard (counted per stream), and streams that ended early. */
  misses: number;
  endedStreams: number;
  streams: number;
  bytesPerStream: number;
  /** What each stream of the second half added. */
  bytesPerStreamMore: number;
  heapPerStreamMore: number;
  heapPerStream: number;
  externalPerStream: number;
  bytesPerStreamAfterTicks: number;
  serviceCpuPercent: number;
  driverCpuPercent: number;
  load: string;
  seconds: number;
}

/**
 * Opens a stream for every member, `processOf(kitchen, member)` telling on which process; ticks for `seconds`;
 * answers the figures. The streams are closed again at the end.
 */
async function measureStreams(services: readonly Served[], kitchens: readonly Kitchen[], processOf: (kitchen: number, member: 0 | 1) => number, seconds: number, label: string): Promise<Measured> {
  const before = await Promise.all(services.map((s) => facts(s.hookUrl)));
  const snapshots = option('snapshot-dir') !== null && kitchens.length > 100;
  if (snapshots) await fetch(`${services[0]!.hookUrl}/snapshot?name=before`);
  const latencies: number[] = [];
  const heard = (s: Stream, at: number) => {
    const still: Stream['pending'] = [];
    for (const p of s.pending) {
      if (p.sent > at) still.push(p);
      else if (p.other) latencies.push(at - p.sent);
    }
    s.pending = still;
  };
  progress(`${label}: opening ${kitchens.length * 2} streams`);
  const streams: Stream[] = new Array<Stream>(kitchens.length * 2);
  const openFrom = async (from: number, to: number) => {
    await inTurns(to - from, OPEN_CONCURRENCY, async (i) => {
      const n = from + i;
      const kitchen = n >> 1;
      const member = (n & 1) as 0 | 1;
      const service = services[processOf(kitchen, member)]!;
      streams[n] = await openStream(service.appUrl, kitchens[kitchen]!.members[member].cookie, kitchen, member, kitchens[kitchen]!.id, heard);
    });
    // The checks the openings started have run by now.
    await new Promise((r) => setTimeout(r, 1000));
  };
  // In two halves, the memory read after each: what the second half added is what a stream more costs, without
  // what the first streams cost once (the young generation grown, code compiled, caches filled).
  const half = kitchens.length;
  await openFrom(0, half);
  const halfway = await Promise.all(services.map((s) => facts(s.hookUrl)));
  await openFrom(half, streams.length);
  const opened = await Promise.all(services.map((s) => facts(s.hookUrl)));
  if (process.env['W11_DEBUG']) progress(JSON.stringify({ before, halfway, opened }));
  if (snapshots) await fetch(`${services[0]!.hookUrl}/snapshot?name=open`);
  const open = opened.reduce((n, f) => n + f.streams, 0);
  if (open !== streams.length) throw new Error(`${open} streams open on the service, ${streams.length} opened`);
  progress(`${label}: ticking ${TICKS_PER_SECOND}/s for ${seconds} s`);
  const loadBefore = os.loadavg()[0]!;
  const order = kitchens.map((_, i) => i).sort(() => Math.random() - 0.5);
  const status = kitchens.map((k) => k.items.map(() => 'Buy'));
  const tickCount = kitchens.map(() => 0);
  let tickErrors = 0;
  const total = seconds * TICKS_PER_SECOND;
  const driverCpu = process.cpuUsage();
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let t = 0; t < total; t++) {
    const due = started + (t * 1000) / TICKS_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const k = order[t % order.length]!;
    const kitchen = kitchens[k]!;
    const n = tickCount[k]!++;
    const actor = (n % 2) as 0 | 1;
    const line = n % kitchen.items.length;
    const next = status[k]![line] === 'Buy' ? 'Purchased' : 'Buy';
    status[k]![line] = next;
    const sent = performance.now();
    for (const member of [0, 1] as const) streams[k * 2 + member]!.pending.push({ sent, other: member !== actor });
    const service = services[t % services.length]!;
    sends.push(
      fetch(`${service.appUrl}/api/v1/households/${kitchen.id}/shopping-items/${kitchen.items[line]}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Cookie: kitchen.members[actor].cookie },
        body: JSON.stringify({ status: next }),
      }).then(
        async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) tickErrors++;
        },
        () => void tickErrors++,
      ),
    );
  }
  await Promise.all(sends);
  const sentFor = (performance.now() - started) / 1000;
  const graceUntil = performance.now() + GRACE_MS;
  while (performance.now() < graceUntil && streams.some((s) => s.pending.length > 0)) await new Promise((r) => setTimeout(r, 100));
  const cpu = process.cpuUsage(driverCpu);
  const after = await Promise.all(services.map((s) => facts(s.hookUrl)));
  const load = `${loadBefore.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}`;
  const misses = streams.reduce((n, s) => n + s.pending.length, 0);
  const endedStreams = streams.filter((s) => s.ended).length;
  for (const s of streams) s.close();
  // The streams are gone on the service before the next measurement starts.
  for (let i = 0; i < 50; i++) {
    const left = (await Promise.all(services.map((s) => facts(s.hookUrl)))).reduce((n, f) => n + f.streams, 0);
    if (left === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const grown = (key: 'rss' | 'heapUsed' | 'external', at: readonly ProcessFacts[], from = before, n = streams.length) => at.reduce((sum, f, i) => sum + f[key] - from[i]![key], 0) / n;
  const elapsed = (performance.now() - started) / 1000;
  return {
    latencies,
    ticks: total,
    tickErrors,
    misses,
    endedStreams,
    streams: streams.length,
    bytesPerStream: grown('rss', opened),
    bytesPerStreamMore: grown('rss', opened, halfway, streams.length - half),
    heapPerStreamMore: grown('heapUsed', opened, halfway, streams.length - half),
    heapPerStream: grown('heapUsed', opened),
    externalPerStream: grown('external', opened),
    bytesPerStreamAfterTicks: grown('rss', after),
    serviceCpuPercent: (after.reduce((n, f, i) => n + f.cpuMs - opened[i]!.cpuMs, 0) / (elapsed * 1000)) * 100,
    driverCpuPercent: ((cpu.user + cpu.system) / 1000 / (elapsed * 1000)) * 100,
    load,
    seconds: sentFor,
  };
}

const percentile = (sorted: readonly number[], p: number) => (sorted.length === 0 ? Infinity : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

/** The four rows of one measurement. */
function rows(db: BenchRow['db'], setup: string, m: Measured): BenchRow[] {
  const sorted = [...m.latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p95 = percentile(sorted, 95);
  const p99 = percentile(sorted, 99);
  const bad = m.tickErrors + m.misses + m.endedStreams;
  const figures: Figures = { rps: m.ticks / m.seconds, mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length), p50: Math.round(p50), p99: Math.round(p99), unexpected: bad };
  const none: Figures = { rps: 0, mean: 0, p50: 0, p99: 0, unexpected: 0 };
  const heard = `${sorted.length} ticks heard by the other member's stream, of ${m.ticks} sent at ${(m.ticks / m.seconds).toFixed(1)}/s`;
  const invalid = bad > 0 ? `; INVALID: ${m.tickErrors} ticks answered other than 200, ${m.misses} changes missed by a stream, ${m.endedStreams} streams ended early` : '';
  const context = `service CPU ${m.serviceCpuPercent.toFixed(0)} %, driver CPU ${m.driverCpuPercent.toFixed(0)} % of one core; load average ${m.load}`;
  const row = (subject: string, ratio: number, target: string, note: string, f: Figures = figures): BenchRow => ({
    workload: 'W11',
    db,
    subject: `${setup}: ${subject}`,
    baseline: '-',
    subjectFigures: f,
    baselineFigures: none,
    ratio,
    target,
    pass: bad === 0 && ratio <= Number(target.replace(/[^\d.]/g, '')),
    note: note + invalid,
  });
  return [
    row('tick to the other stream, p95', p95 / P95_MS, '≤ 1.00', `p95 ${p95.toFixed(0)} ms / ${P95_MS} ms (max ${percentile(sorted, 100).toFixed(0)} ms); ${heard}; ${context}`),
    row('tick to the other stream, p99', p99 / P99_MS, '≤ 1.00', `p99 ${p99.toFixed(0)} ms / ${P99_MS} ms; ${heard}`),
    row('changes missed by a stream', m.misses + m.endedStreams, '≤ 0', `${m.misses} of ${m.ticks * 2} (every tick, each of its household's two streams); ${m.endedStreams} of ${m.streams} streams ended early`),
    row(
      'memory per open stream',
      m.bytesPerStream / BYTES_PER_STREAM,
      '≤ 1.00',
      `RSS +${(m.bytesPerStream / 1000).toFixed(1)} kB per stream / ${BYTES_PER_STREAM / 1000} kB (after a full GC, ${m.streams} streams open; JS heap +${(m.heapPerStream / 1000).toFixed(1)} kB, external +${(m.externalPerStream / 1000).toFixed(1)} kB); each stream of the second half: RSS +${(m.bytesPerStreamMore / 1000).toFixed(1)} kB, JS heap +${(m.heapPerStreamMore / 1000).toFixed(1)} kB; after the ticks RSS +${(m.bytesPerStreamAfterTicks / 1000).toFixed(1)} kB`,
      none,
    ),
  ];
}

/** Fresh measured processes on the seeded database, `n` of them, each run with --expose-gc. */
async function measured(seeded: Seeded, n: number): Promise<{ services: Served[]; children: ChildProcess[] }> {
  const args = ['--join', seeded.dir, ...(seeded.schema ? ['--schema', seeded.schema] : []), ...(option('snapshot-dir') ? ['--snapshot-dir', option('snapshot-dir')!] : [])];
  const started = await Promise.all(Array.from({ length: n }, () => spawnService<Served>('scripts/bench/w11-streams.ts', { nodeArgs: ['--expose-gc', ...(process.env['W11_NODE_ARGS']?.split(' ') ?? [])], args })));
  return { services: started.map((s) => s.info), children: started.map((s) => s.child) };
}

/** Warms the processes up (a few streams and ticks: the code paths compiled), then measures all the streams. */
async function run(db: BenchRow['db'], seeded: Seeded, n: number, seconds: number): Promise<BenchRow[]> {
  const label = `W11 ${db}, ${n} process${n > 1 ? 'es' : ''}`;
  const { services, children } = await measured(seeded, n);
  try {
    // A household's two members on different processes (when there are two), so one of its streams hears each tick from the other process.
    const processOf = (k: number, member: 0 | 1) => (k + member) % n;
    await measureStreams(services, seeded.kitchens.slice(0, 25), processOf, 2, `${label}, warm-up`);
    return rows(db, n === 1 ? '1 process' : `${n} processes`, await measureStreams(services, seeded.kitchens, processOf, seconds, label));
  } finally {
    for (const child of children) await stopService(child);
  }
}

async function drive(): Promise<void> {
  const { db, seconds, json } = workloadArgs();
  const tickSeconds = Math.max(10, seconds * 4);
  progress(`W11 ${db}: seeding ${HOUSEHOLDS} households of two members`);
  const seeder = await spawnService<Seeded>('scripts/bench/w11-streams.ts', { args: ['--households', String(HOUSEHOLDS)] });
  try {
    const seeded = seeder.info;
    progress(`W11 ${db}: seeded in ${seeded.seedSeconds.toFixed(1)} s`);
    // SQLite is one process: the seeding one goes; on Postgres it stays, idle, and drops its schema at the end.
    if (db === 'sqlite') await stopService(seeder.child);
    const out = await run(db, seeded, 1, tickSeconds);
    if (db === 'postgres') out.push(...(await run(db, seeded, 2, tickSeconds)));
    emit(out, json);
    if (db === 'sqlite') rmSync(seeded.dir, { recursive: true, force: true });
  } finally {
    await stopService(seeder.child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
