/** What the benchmarks share: the service under test in a process of its own, and autocannon figures. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/**
 * The real service on a fresh SQLite database with rate limits out of the way, a signed-in account and its
 * household. `call` throws on any error answer, so seeding never goes on silently half-done.
 */
export async function benchService(name: string) {
  const { loadConfig } = await import('../../config/config.js');
  const { createRuntime } = await import('../../bootstrap/runtime.js');
  const { listen } = await import('../../bootstrap/server.js');
  const dir = mkdtempSync(join(tmpdir(), `dinner-bench-${name}-`));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'silent',
    OUTBOX_DIR: join(dir, 'outbox'),
    RATE_LIMITS: 'auth=1000000/60,anonymous-per-ip=1000000/60,backstop=1000000/60',
  });
  const runtime = await createRuntime(config);
  const app = await listen(runtime, 0, '127.0.0.1');
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
  return { runtime, app, call, cookie, householdId: household.id };
}

/** Hands the driving process what it needs (one JSON line) and stops the service on SIGTERM. */
export function announce(info: unknown, stop: () => Promise<void>): void {
  process.stdout.write(JSON.stringify(info) + '\n');
  process.on('SIGTERM', () => void stop().then(() => process.exit(0)));
}

/** Starts `script --serve` in a child process and answers the JSON line it announces. */
export async function spawnService<T>(script: string): Promise<{ info: T; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { info: JSON.parse(line) as T, child };
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

/** A 2 s warm-up, then `seconds` of load from `connections` connections. */
export async function measure(url: string, options: { headers?: Record<string, string>; connections: number; seconds: number; expected?: number }): Promise<Figures> {
  const base = { url, headers: options.headers ?? {}, connections: options.connections };
  await autocannon({ ...base, duration: 2 });
  const r = await autocannon({ ...base, duration: options.seconds });
  const codes = (r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats;
  const total = Object.values(codes).reduce((n, c) => n + c.count, 0);
  const hits = codes[String(options.expected ?? 200)]?.count ?? 0;
  return { rps: r.requests.average, mean: r.latency.average, p50: r.latency.p50, p99: r.latency.p99, unexpected: total - hits + r.errors };
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
