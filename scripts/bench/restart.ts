/**
 * R1: a quick restart on a small box (issue 47). `npm start` with nothing changed since the last build, as a
 * self-hoster runs it: npm, its build check (scripts/build-if-changed.mjs: the fingerprint of every input,
 * nothing built) and then the service (`node dist/bootstrap/start.js`), timed from starting npm to the first 200 of
 * GET /health; the median of --starts starts (5) against 2,000 ms. Then the idle service's resident memory 5 s after
 * it answered (VmRSS in /proc/<pid>/status of the service's own process), the median of the same starts against
 * 120 MB.
 *
 * The service is configured from the environment only, as a self-hoster's is: its port, a data folder of its own in
 * the system's temporary folder (the SQLite file and the outbox), logs at the default level; on Postgres a database
 * of its own on the server of DATABASE_URL_PG, made here and dropped afterwards. The build is made current first
 * (the bench compiles dist/ its own way), then one start, not counted, creates and migrates the database and fills
 * Node's compile cache: every timed start is a restart of a service that has run before.
 *   tsx scripts/bench/restart.ts [--db sqlite|postgres] [--starts 5] [--json]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, emit, progress, workloadArgs, type BenchDatabase, type BenchRow, type Figures } from './lib.js';
import { scratchPostgresDatabase } from '../scratch-database.js';
import { freePort } from '../../test/support/service-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESTART_TARGET_MS = 2000;
const MEMORY_TARGET_MB = 120;
/** How long the service idles after its first answer before its memory is read. */
const IDLE_MS = 5000;
/** A start that has not answered by then has failed. */
const START_LIMIT_MS = 60_000;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** One GET /health: its status, or 0 when nothing answered. */
const healthStatus = (port: number): Promise<number> =>
  new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', () => resolve(0));
    req.setTimeout(1000, () => req.destroy());
  });

/** The process under `pid` (itself or a descendant, through npm's shell) whose command line runs `script`. */
function processRunning(pid: number, script: string): number | null {
  const cmdline = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
    } catch {
      return [];
    }
  };
  const childrenOf = (p: number): number[] => {
    try {
      return readdirSync(`/proc/${p}/task`).flatMap((t) => readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      return [];
    }
  };
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    const args = cmdline(p);
    if (args[0]?.endsWith('node') && args.some((a) => a.endsWith(script))) return p;
    queue.push(...childrenOf(p));
  }
  return null;
}

const residentMb = (pid: number): number => {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
};

/** npm start in a process group of its own, stopped as a self-hoster stops it: SIGTERM, then waiting for it to end. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid!, 'SIGTERM');
  const force = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
  await gone;
  clearTimeout(force);
}

/** One `npm start`: the time to the first 200 of /health, and the service's resident memory after IDLE_MS. */
async function oneStart(env: NodeJS.ProcessEnv, port: number): Promise<{ ms: number; mb: number }> {
  const started = performance.now();
  const child = spawn(npm, ['start'], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: 'ignore', detached: true });
  try {
    let exited = false;
    child.once('exit', () => (exited = true));
    while ((await healthStatus(port)) !== 200) {
      if (exited) throw new Error('npm start ended before /health answered');
      if (performance.now() - started > START_LIMIT_MS) throw new Error(`no 200 from /health within ${START_LIMIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const service = processRunning(child.pid!, 'dist/bootstrap/start.js');
    if (service === null) throw new Error('the service process (node dist/bootstrap/start.js) was not found under npm');
    return { ms, mb: residentMb(service) };
  } finally {
    await stop(child);
  }
}

/** DATABASE_URL for the service: a SQLite file in `dir`, or a database of its own on the Postgres server (and its drop). */
async function serviceDatabase(database: BenchDatabase, dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (database.kind === 'sqlite') return { url: `sqlite:${join(dir, 'dinner.db')}`, drop: async () => undefined };
  return scratchPostgresDatabase(database.url, 'bench_restart');
}

const medianOf = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const figuresOf = (xs: readonly number[]): Figures => ({ rps: 0, mean: xs.reduce((a, b) => a + b, 0) / xs.length, p50: Math.round(medianOf(xs)), p99: Math.round(Math.max(...xs)), unexpected: 0 });
const NONE: Figures = { rps: 0, mean: 0, p50: 0, p99: 0, unexpected: 0 };

/** A row of figures that are not request rates (their median in p50, the largest in p99), passing at `limit` or less. */
const againstTarget = (db: BenchRow['db'], subject: string, xs: readonly number[], limit: number, baseline: string, note: string): BenchRow => ({
  workload: 'R1',
  db,
  subject,
  baseline,
  subjectFigures: figuresOf(xs),
  baselineFigures: NONE,
  ratio: medianOf(xs) / limit,
  target: '≤ 1.00',
  pass: medianOf(xs) <= limit,
  note,
});

const { database, db, json } = workloadArgs();
const starts = arg('starts', 5);
const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-restart-'));
const target = await serviceDatabase(database, dir);
try {
  // What a self-hoster sets; NODE_OPTIONS is not passed on (a loader of the bench's own would weigh on the service).
  const { NODE_OPTIONS: _, ...inherited } = process.env;
  const env = { ...inherited, HOST: '127.0.0.1', DATABASE_URL: target.url, OUTBOX_DIR: join(dir, 'outbox') };
  // The build made current first, however long it takes (its output to stderr: stdout carries the rows).
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-if-changed.mjs')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error(`the build check failed with ${build.status}`);
  progress(`R1 ${db}: a first start, not counted (the database, the compile cache)`);
  await oneStart(env, await freePort());
  const loadBefore = os.loadavg()[0]!;
  const runs: { ms: number; mb: number }[] = [];
  for (let i = 1; i <= starts; i++) {
    runs.push(await oneStart(env, await freePort()));
    progress(`R1 ${db}: start ${i} of ${starts}: /health after ${Math.round(runs.at(-1)!.ms)} ms, ${runs.at(-1)!.mb.toFixed(1)} MB resident after ${IDLE_MS / 1000} s`);
  }
  const ms = runs.map((r) => r.ms);
  const mb = runs.map((r) => r.mb);
  const load = `load average ${loadBefore.toFixed(2)} before the starts, ${os.cpus().length} CPUs`;
  const rows = [
    againstTarget(
      db,
      'npm start to the first 200 of /health, nothing changed since the last build',
      ms,
      RESTART_TARGET_MS,
      `${RESTART_TARGET_MS} ms`,
      `median ${Math.round(medianOf(ms))} ms of ${starts} starts (${ms.map((t) => Math.round(t)).join(', ')}): npm, its build check and the service; ${load}`,
    ),
    againstTarget(
      db,
      `resident memory of the idle service ${IDLE_MS / 1000} s after its first answer`,
      mb,
      MEMORY_TARGET_MB,
      `${MEMORY_TARGET_MB} MB`,
      `median ${medianOf(mb).toFixed(1)} MB of ${starts} starts (${mb.map((m) => m.toFixed(1)).join(', ')}), VmRSS of node dist/bootstrap/start.js`,
    ),
  ];
  emit(rows, json);
} finally {
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
}
