/** What the benchmarks share: the service under test in a process of its own, and autocannon figures. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import Koa from 'koa';
import Router from '@koa/router';
import type { RuntimeOptions } from '../../bootstrap/runtime.js';

export const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** Where a benchmark's service keeps its data: a fresh SQLite file, or a fresh schema of the Postgres at `url`. */
export type BenchDatabase = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

/** `--db postgres` (with DATABASE_URL_PG, else the local default) or the SQLite default. */
export function benchDatabase(): BenchDatabase {
  const i = process.argv.indexOf('--db');
  if (i < 0 || process.argv[i + 1] === 'sqlite') return { kind: 'sqlite' };
  if (process.argv[i + 1] !== 'postgres') throw new Error('--db is sqlite or postgres');
  return { kind: 'postgres', url: process.env['DATABASE_URL_PG'] ?? 'postgres://postgres@127.0.0.1:5432/test' };
}

/** A fresh schema for one benchmark run on Postgres, dropped by the answer's `drop`. */
export async function benchSchema(url: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const { default: knexFactory } = await import('knex');
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw('create schema ??', [schema]);
  await admin.destroy();
  return {
    schema,
    async drop() {
      const k = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
      await k.raw('drop schema if exists ?? cascade', [schema]);
      await k.destroy();
    },
  };
}

/** What a bench may change of the service it starts: the composition root's overrides (a cheap password hasher). */
export type BenchOverrides = RuntimeOptions;

/** The service's config for a bench: its data under `dir` (SQLite) or at the Postgres URL, rate limits out of the way. */
async function benchConfig(dir: string, database: BenchDatabase) {
  const { loadConfig } = await import('../../config/config.js');
  return loadConfig({
    DATABASE_URL: database.kind === 'postgres' ? database.url : `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'silent',
    OUTBOX_DIR: join(dir, 'outbox'),
    // Limits out of the way: the bench measures the work, not the quotas (W8's planner, compiled, outran 240 an hour).
    RATE_LIMITS: 'auth=1000000/60,anonymous-per-ip=1000000/60,data-per-ip=1000000/60,dinner-price-signup-per-ip=1000000/60,backstop=1000000/60,planner-per-household=1000000/3600',
    // The hashing share comes along from the environment, so that W7 can be run at another one.
    ...(process.env['PASSWORD_HASH_CPU_PERCENT'] ? { PASSWORD_HASH_CPU_PERCENT: process.env['PASSWORD_HASH_CPU_PERCENT'] } : {}),
  });
}

/** The service started on `database` (in `schema` on Postgres) and listening on loopback. */
async function startBench(dir: string, database: BenchDatabase, schema: string | null, overrides: BenchOverrides) {
  const { createRuntime } = await import('../../bootstrap/runtime.js');
  const { listen } = await import('../../bootstrap/server.js');
  const runtime = await createRuntime(await benchConfig(dir, database), { ...overrides, ...(schema ? { schema } : {}) });
  return { runtime, listening: await listen(runtime, 0, '127.0.0.1') };
}

/**
 * The real service on a fresh SQLite database with rate limits out of the way, a signed-in account and its
 * household. `call` throws on any error answer, so seeding never goes on silently half-done.
 */
export async function benchService(name: string, database: BenchDatabase = benchDatabase(), overrides: BenchOverrides = {}) {
  const dir = mkdtempSync(join(tmpdir(), `dinner-bench-${name}-`));
  const pg = database.kind === 'postgres' ? await benchSchema(database.url) : null;
  const started = await (async () => {
    try {
      return await startBench(dir, database, pg?.schema ?? null, overrides);
    } catch (err) {
      await pg?.drop();
      throw err;
    }
  })();
  const { runtime, listening } = started;
  // Stopping also drops the Postgres schema, so runs leave nothing behind.
  const app = { ...listening, stop: async () => { await listening.stop(); await pg?.drop(); } };
  const call = async (method: string, path: string, cookie: string | null, body?: unknown) => {
    const res = await fetch(app.url + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const register = await call('POST', '/api/v1/auth/register', null, { email: 'bench@example.com', password: 'benchmark password', displayName: 'Bench' });
  const cookie = /app_session=[^;]+/.exec(register.headers.getSetCookie().join(';'))![0];
  const household = (await (await call('POST', '/api/v1/households', cookie, { name: 'Bench' })).json()) as { id: string };
  // Where the data is, for baselines that read and write the same tables without the service.
  const sqliteFile = database.kind === 'sqlite' ? join(dir, 'bench.db') : null;
  return { runtime, app, call, cookie, householdId: household.id, schema: pg?.schema ?? null, sqliteFile, dir };
}

/**
 * Waits until the service has delivered the mail its seeding caused (each registration's confirmation waits in the
 * mail outbox until it is handed over), so that a process measured after the seeding does not deliver it while it
 * is measured (W11: 2,000 registrations' mails, delivered by the fresh process's sweep, were counted as memory per
 * stream on SQLite).
 */
export async function seededMailDelivered(runtime: { db: { knex: import('knex').Knex } }, timeoutMs = 120_000): Promise<void> {
  const { mailDepth } = await import('../../adapters/knex/outbox-depth.js');
  const deadline = Date.now() + timeoutMs;
  while ((await mailDepth(runtime.db.knex)) > 0) {
    if (Date.now() > deadline) throw new Error(`the seeding's mail was not delivered within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Another process of the service on the database of a running (or stopped, on SQLite) benchService: its `dir` (the
 * SQLite file) or Postgres `schema`. It neither seeds nor drops anything: the database stays the first one's.
 */
export async function benchJoinService(database: BenchDatabase, at: { dir: string; schema: string | null }, overrides: BenchOverrides = {}) {
  const { runtime, listening } = await startBench(at.dir, database, at.schema, overrides);
  return { runtime, app: listening };
}

// Set by node:http itself for every answer, or changing per answer: not part of "the same headers".
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** `server` listening on a free loopback port: its URL, and how to close it. */
export const listening = (server: Server): Promise<{ url: string; close(): void }> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => void server.close() })),
  );

/**
 * W1's baselines: a bare node:http server and bare Koa + @koa/router (no middleware), both answering the very
 * bytes and headers of one real GET /api/v1/me answer of the service at `appUrl`, which they answer along.
 */
export async function meBaselines(appUrl: string, cookie: string) {
  const res = await fetch(`${appUrl}/api/v1/me`, { headers: { Cookie: cookie } });
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
  return {
    sample,
    headers,
    bareUrl: bare.url,
    koaUrl: koaServer.url,
    close() {
      bare.close();
      koaServer.close();
    },
  };
}

/** Where W1's baselines answer, as a --serve child announces them. */
export interface MeBaselineUrls {
  bareUrl: string;
  koaUrl: string;
}

/** W1's two baselines measured under `load`, one after the other (`label` heads the progress lines). */
export async function measureMeBaselines(label: string, urls: MeBaselineUrls, load: Load): Promise<{ bare: Figures; koa: Figures }> {
  progress(`${label}: bare node:http`);
  const bare = await measure(`${urls.bareUrl}/api/v1/me`, load);
  progress(`${label}: bare Koa + @koa/router`);
  const koa = await measure(`${urls.koaUrl}/api/v1/me`, load);
  return { bare, koa };
}

/** W1's two rows for a subject answering /me: against bare node:http (≥ 0.50) and bare Koa + router (≥ 0.75). */
export function meRows(workload: string, db: BenchRow['db'], subject: string, figures: Figures, baselines: { bare: Figures; koa: Figures }): BenchRow[] {
  return [
    throughputRow({ workload, db, subject, baseline: 'bare node:http, same bytes', subjectFigures: figures, baselineFigures: baselines.bare }, 0.5),
    throughputRow({ workload, db, subject, baseline: 'bare Koa + @koa/router, same bytes', subjectFigures: figures, baselineFigures: baselines.koa }, 0.75),
  ];
}

/** The part of better-sqlite3 the baselines use. */
export interface RawSqlite {
  pragma(s: string): unknown;
  prepare(sql: string): { all(...v: unknown[]): Record<string, unknown>[]; run(...v: unknown[]): unknown; reader: boolean };
  close(): void;
}

/**
 * The service's SQLite file opened with better-sqlite3 directly, with the service's guarantee: WAL, and an
 * acknowledged write is on disk. A plain prepared statement gives that with synchronous=FULL (an fsync in each
 * commit); the service gives it by group commit on synchronous=NORMAL (adapters/knex/wal-sync.ts).
 */
export function rawSqlite(file: string): RawSqlite {
  // better-sqlite3 ships no types of its own and the service only reaches it through knex.
  const Driver = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => RawSqlite;
  const db = new Driver(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

/** One prepared statement of a baseline: prepared once, run with positional values. */
export interface RawStatement {
  all(values: readonly unknown[]): Promise<Record<string, unknown>[]>;
  run(values: readonly unknown[]): Promise<void>;
}

/** Where a baseline finds the service's tables: its SQLite file, or its Postgres schema. */
export type RawTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };

/**
 * The service's database without knex, for baselines: better-sqlite3 with the service's pragmas, or a pg pool of
 * the service's size, working in its schema, whose statements are named (so each connection prepares each once).
 * SQL is written with $1, $2...
 */
export async function rawDatabase(target: RawTarget): Promise<{ prepare(name: string, sql: string): RawStatement; close(): Promise<void> }> {
  if (target.kind === 'sqlite') {
    const db = rawSqlite(target.file);
    return {
      prepare(_name, sql) {
        const statement = db.prepare(sql.replace(/\$\d+/g, '?'));
        return { all: async (v) => statement.all(...v), run: async (v) => void statement.run(...v) };
      },
      close: async () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  // The search path, not qualified names: the service's triggers name their tables unqualified.
  const pool = new pg.Pool({ connectionString: target.url, max: 10, options: `-c search_path=${target.schema}` });
  return {
    prepare(name, text) {
      return {
        all: async (values) => (await pool.query({ name, text, values: [...values] })).rows as Record<string, unknown>[],
        run: async (values) => void (await pool.query({ name, text, values: [...values] })),
      };
    },
    close: () => pool.end(),
  };
}

/** What every --serve child announces: the service's address and the signed-in cookie its requests carry. */
export interface ServedService {
  appUrl: string;
  cookie: string;
}

/** …and the address of the bare baseline beside it. */
export interface ServedWithBaseline extends ServedService {
  bareUrl: string;
}

/**
 * A bare node:http baseline on loopback. `answer` gives a request's JSON text from its body (read only for a
 * method other than GET), or null for 404; a failure answers 500 with the error.
 */
export async function bareJsonServer(answer: (req: IncomingMessage, body: string) => Promise<string> | string | null): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const respond = (body: string) => {
      Promise.resolve()
        .then(() => answer(req, body))
        .then(
          (text) => {
            if (text === null) return void res.writeHead(404).end();
            res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
            res.end(text);
          },
          (err: unknown) => void res.writeHead(500).end(String(err)),
        );
    };
    if (req.method === 'GET') return respond('');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => respond(Buffer.concat(chunks).toString('utf8')));
  });
  return listening(server);
}

/** Runs the rest of a --serve start; should it fail, the service stops first, so its Postgres schema goes too. */
export async function orStop<T>(app: { stop(): Promise<void> }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await app.stop().catch(() => undefined);
    throw err;
  }
}

/** The raw target of a service started by benchService. */
export function rawTarget(service: { sqliteFile: string | null; schema: string | null }, database: BenchDatabase): RawTarget {
  if (database.kind === 'postgres') return { kind: 'postgres', url: database.url, schema: service.schema! };
  return { kind: 'sqlite', file: service.sqliteFile! };
}

/**
 * Hands the driving process what it needs (one JSON line) and stops the service on SIGTERM, or when the driving
 * process is gone however it ended (its end of our stdin closes), so no service outlives a killed benchmark.
 */
export function announce(info: unknown, stop: () => Promise<void>): void {
  process.stdout.write(JSON.stringify(info) + '\n');
  let stopping = false;
  const end = () => {
    if (stopping) return;
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', end);
  process.stdin.on('end', end).on('error', end).resume();
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Compiles the service and the bench's scripts with tsc (tsconfig.bench.json: the production build, `npm start`'s,
 * plus scripts/bench, into dist/), once per run: run.ts builds before its workloads, which learn it from
 * BENCH_BUILT. The service is measured as it runs for its users. Under tsx it ran slower than that: esbuild's
 * keepNames wraps every named function expression in a defineProperty call (`__name`) each time it is made, so a
 * closure made per request cost about a microsecond more than in tsc's output.
 */
export function buildForBench(): void {
  if (process.env['BENCH_BUILT'] === '1') return;
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.bench.json')], { stdio: ['ignore', 'inherit', 'inherit'] });
  process.env['BENCH_BUILT'] = '1';
}

/**
 * The options `npm start` gives node (package.json's start script: `node scripts/build-if-changed.mjs && node
 * <options> dist/bootstrap/start.js`), for a bench's service to run as the service does (the young generation's bound: docs/performance.md, W11).
 */
export function startNodeOptions(): string[] {
  return serviceCommand().slice(1).filter((word) => word.startsWith('--'));
}

/** The command npm start runs the service with: the last step of its start script (after the build check). */
export function serviceCommand(): string[] {
  const steps = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split('&&');
  const command = steps[steps.length - 1]!.trim().split(/\s+/);
  if (command[0] !== 'node') throw new Error(`package.json's start script does not run node last: ${command.join(' ')}`);
  return command;
}

/**
 * Starts `script --serve` in a child process, from tsc's output (buildForBench), and answers the JSON line it
 * announces. This process's `--db` goes along, so that the service and the driver agree on the database; node runs
 * it with `npm start`'s options (startNodeOptions), then `nodeArgs` (--expose-gc), and `args` go after the script.
 */
export async function spawnService<T>(script: string, options: { nodeArgs?: readonly string[]; args?: readonly string[] } = {}): Promise<{ info: T; child: ChildProcess }> {
  buildForBench();
  const db = process.argv.indexOf('--db');
  const pass = db >= 0 ? ['--db', process.argv[db + 1] ?? 'sqlite'] : [];
  const compiled = join(ROOT, 'dist', relative(ROOT, resolve(script)).replace(/\.ts$/, '.js'));
  const profile = process.env['BENCH_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROF']}`] : [];
  const child = spawn(process.execPath, [...profile, ...startNodeOptions(), ...(options.nodeArgs ?? []), compiled, '--serve', ...pass, ...(options.args ?? [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { info: JSON.parse(line) as T, child };
}

/** Stops a service started by spawnService and waits until it has gone (and dropped its Postgres schema). */
export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await gone;
}

export interface Figures {
  rps: number;
  /** autocannon records whole milliseconds; the mean keeps the fraction. */
  mean: number;
  p50: number;
  p99: number;
  /** Answers of another status than expected, and errors: any makes the run invalid. */
  unexpected: number;
}

/** What one autocannon measurement sends: a GET of `url` unless told otherwise. */
export interface Load {
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** The status every answer should have (200 unless told). */
  expected?: number;
  method?: 'GET' | 'POST';
  body?: string;
  /** A request sequence of autocannon's own, e.g. one whose setupRequest varies the body. */
  requests?: autocannon.Request[];
}

/** A 2 s warm-up, then `seconds` of load from `connections` connections. */
export async function measure(url: string, options: Load): Promise<Figures> {
  const base = {
    url,
    headers: options.headers ?? {},
    connections: options.connections,
    ...(options.method ? { method: options.method } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.requests ? { requests: options.requests } : {}),
  };
  await autocannon({ ...base, duration: 2 });
  const r = await autocannon({ ...base, duration: options.seconds });
  return { rps: r.requests.average, mean: r.latency.average, p50: r.latency.p50, p99: r.latency.p99, unexpected: unexpectedAnswers(r, options.expected ?? 200) };
}

/** Answers of a run with another status than `expected`, and its errors. */
function unexpectedAnswers(r: autocannon.Result, expected: number): number {
  const codes = (r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats;
  const total = Object.values(codes).reduce((n, c) => n + c.count, 0);
  return total - (codes[String(expected)]?.count ?? 0) + r.errors;
}

/** One subject of measureSideBySide with its own headers (added to the Load's) and expected status. */
export interface SideTarget {
  url: string;
  headers?: Record<string, string>;
  expected?: number;
}

/**
 * Several servers (or routes) measured side by side: a 2 s warm-up of each, then `seconds` of load for each, cut into 1 s
 * slices taken in turn, forwards and backwards (A B C, C B A, A B C ...). This machine's speed moves by a third
 * within minutes; measured one after the other, a server that happens to run in a slow stretch loses up to half its
 * ratio. Interleaved, a drift weighs on every server alike, and a turn and its mirror cancel a steady one. Each
 * server's req/s is its answers over its slices' time; p50 is the median slice's, p99 the worst slice's.
 */
export async function measureSideBySide(targets: readonly (string | SideTarget)[], options: Load): Promise<Figures[]> {
  const loads = targets.map((t) => (typeof t === 'string' ? { url: t } : t)).map((t) => ({
    url: t.url,
    headers: { ...options.headers, ...t.headers },
    connections: options.connections,
    expected: t.expected ?? options.expected ?? 200,
  }));
  for (const { expected: _, ...load } of loads) await autocannon({ ...load, duration: 2 });
  const slices: autocannon.Result[][] = loads.map(() => []);
  for (let turn = 0; turn < options.seconds; turn++) {
    const order = loads.map((_, i) => i);
    if (turn % 2 === 1) order.reverse();
    for (const i of order) {
      const { expected: _, ...load } = loads[i]!;
      slices[i]!.push(await autocannon({ ...load, duration: 1 }));
    }
  }
  return slices.map((runs, i) => {
    const answers = runs.reduce((n, r) => n + r.requests.total, 0);
    const time = runs.reduce((n, r) => n + r.duration, 0);
    const p50s = runs.map((r) => r.latency.p50).sort((a, b) => a - b);
    return {
      rps: answers / time,
      mean: runs.reduce((n, r) => n + r.latency.average * r.requests.total, 0) / Math.max(1, answers),
      p50: p50s[Math.floor((p50s.length - 1) / 2)]!,
      p99: Math.max(...runs.map((r) => r.latency.p99)),
      unexpected: runs.reduce((n, r) => n + unexpectedAnswers(r, loads[i]!.expected), 0),
    };
  });
}

/** Prints one line per route; a run with unexpected answers is reported and fails the command. */
export function report(rows: readonly (readonly [string, Figures])[]): void {
  for (const [name, f] of rows) {
    console.log(`${name.padEnd(26)} ${f.rps.toFixed(0).padStart(8)} req/s   mean ${f.mean.toFixed(2).padStart(6)} ms   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   unexpected ${f.unexpected}`);
  }
  if (rows.some(([, f]) => f.unexpected > 0)) {
    console.error('a route answered another status than expected during the run: the figures are not valid');
    process.exitCode = 1;
  }
}

/**
 * One line of the benchmark table: a subject measured against its baseline in the same run, on one database.
 * Workload scripts (`w<N>-*.ts --db sqlite|postgres --seconds S --json`) print one per stdout line; run.ts
 * collects them.
 */
export interface BenchRow {
  workload: string;
  db: 'sqlite' | 'postgres';
  subject: string;
  baseline: string;
  subjectFigures: Figures;
  baselineFigures: Figures;
  /** As the target states it: subject rps / baseline rps, or subject time / baseline time. */
  ratio: number;
  /** '≥ 0.50' or '≤ 2.0'. */
  target: string;
  pass: boolean;
  /** A long-term mark shown beside a target, not a pass condition: it fails only when a measurement was invalid. */
  mark?: boolean;
  note?: string;
}

/** The options every workload script takes. */
export function workloadArgs(): { database: BenchDatabase; db: BenchRow['db']; seconds: number; connections: number; json: boolean } {
  const database = benchDatabase();
  return { database, db: database.kind, seconds: arg('seconds', 5), connections: arg('connections', 10), json: process.argv.includes('--json') };
}

/** Progress goes to stderr: stdout belongs to the rows. */
export const progress = (message: string): void => void process.stderr.write(`${message}\n`);

/**
 * A throughput row: ratio = subject req/s / baseline req/s, passing at `atLeast` or more. Any unexpected answer,
 * on either side, fails the row whatever the ratio.
 */
export function throughputRow(row: Omit<BenchRow, 'ratio' | 'target' | 'pass'>, atLeast: number): BenchRow {
  const ratio = row.baselineFigures.rps > 0 ? row.subjectFigures.rps / row.baselineFigures.rps : 0;
  const bad = row.subjectFigures.unexpected + row.baselineFigures.unexpected;
  const notes = [row.note, bad > 0 ? `INVALID: ${row.subjectFigures.unexpected} + ${row.baselineFigures.unexpected} unexpected answers` : undefined].filter(Boolean);
  return { ...row, ratio, target: `≥ ${atLeast.toFixed(2)}`, pass: bad === 0 && ratio >= atLeast, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/** A throughput row kept as a mark (`≥ atLeast`, shown as "mark"): it fails only on unexpected answers. */
export function markRow(row: Omit<BenchRow, 'ratio' | 'target' | 'pass'>, atLeast: number): BenchRow {
  const measured = throughputRow(row, atLeast);
  return { ...measured, target: `mark ${measured.target}`, pass: row.subjectFigures.unexpected + row.baselineFigures.unexpected === 0, mark: true };
}

/**
 * One row standing for several runs of the same comparison: the median run by ratio, counted from the worst (of
 * an even number, the worse of the two middle runs), with every run's ratio in its note. It passes only when
 * that run passes and no run had an invalid measurement (its note says INVALID), whatever the ratios.
 */
export function medianRow(runs: readonly BenchRow[]): BenchRow {
  const first = runs[0];
  if (!first) throw new Error('a median of no runs');
  if (runs.length === 1) return first;
  const higherIsBetter = !first.target.startsWith('≤');
  const worstFirst = [...runs].sort((a, b) => (higherIsBetter ? a.ratio - b.ratio : b.ratio - a.ratio));
  const median = worstFirst[Math.floor((runs.length - 1) / 2)]!;
  const invalid = runs.filter((r) => r.note?.includes('INVALID') === true);
  const notes = [
    median.note,
    `median of ${runs.length} runs, ratios ${runs.map((r) => r.ratio.toFixed(2)).join(', ')}`,
    invalid.length > 0 && !median.note?.includes('INVALID') ? `INVALID in ${invalid.length} of the runs` : undefined,
  ].filter(Boolean);
  return { ...median, pass: median.pass && invalid.length === 0, note: notes.join('; ') };
}

/** Rows of repeated runs, grouped by what they compare (in first-seen order), each group as its median row. */
export function medianRows(rows: readonly BenchRow[]): BenchRow[] {
  const groups = new Map<string, BenchRow[]>();
  for (const r of rows) {
    const key = [r.workload, r.db, r.subject, r.baseline].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map(medianRow);
}

const rps = (f: Figures) => f.rps.toFixed(0);
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The table's header and cells, shared by the terminal and docs/performance.md. */
export function tableCells(rows: readonly BenchRow[]): string[][] {
  return [
    ['workload', 'db', 'subject', 'baseline', 'req/s', 'baseline req/s', 'p50 / p99 ms', 'baseline p50 / p99 ms', 'ratio', 'target', 'pass', 'note'],
    ...rows.map((r) => [
      r.workload,
      r.db,
      r.subject,
      r.baseline,
      rps(r.subjectFigures),
      rps(r.baselineFigures),
      `${ms(r.subjectFigures.p50)} / ${ms(r.subjectFigures.p99)}`,
      `${ms(r.baselineFigures.p50)} / ${ms(r.baselineFigures.p99)}`,
      r.ratio.toFixed(2),
      r.target,
      r.mark && r.pass ? 'mark' : r.pass ? 'yes' : 'NO',
      r.note ?? '',
    ]),
  ];
}

/** A plain-text table with padded columns, for the terminal. */
export function textTable(rows: readonly BenchRow[]): string {
  const cells = tableCells(rows);
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((line) => line[c]!.length)));
  return cells.map((line) => line.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()).join('\n');
}

/** Hands the rows on: JSON lines on stdout with --json (for run.ts), else the table; a failing row fails the command. */
export function emit(rows: readonly BenchRow[], json: boolean): void {
  if (json) for (const r of rows) process.stdout.write(JSON.stringify(r) + '\n');
  else process.stdout.write(textTable(rows) + '\n');
  if (rows.some((r) => !r.pass)) process.exitCode = 1;
}
