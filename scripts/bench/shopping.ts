/**
 * npm run bench:shopping [-- --seconds 10 --connections 10]
 * Throughput and p50/p99 latency of GET shopping-list (200), the same GET with the first answer's ETag in
 * If-None-Match (304) and GET shopping-list/better-choices, next to GET /api/v1/me, for a week of 7 dinners whose
 * recipes have 30 ingredients each (210 foods, some of the sample catalogue's so that lines carry prices), against
 * the real service on SQLite over loopback. Also prints the SQL statements of one POST generate (Server-Timing).
 * The service runs in a child process of its own (this file with --serve); recipes and plan are seeded over HTTP.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

const DINNERS = 7;
const INGREDIENTS = 30;

async function serve(): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const { createRuntime } = await import('../../bootstrap/runtime.js');
  const { listen } = await import('../../bootstrap/server.js');
  const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-shopping-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'silent',
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
  const base = `/api/v1/households/${household.id}`;
  await call('PATCH', base, cookie, { chains: ['Kiwi'] });
  const today = new Date().toISOString().slice(0, 10);
  const plan = (await (await call('PUT', `${base}/plans/week/${today}`, cookie)).json()) as { id: string; days: { date: string }[] };
  // Foods: every food key of the sample catalogue first (priced lines, some NOVA 4), then made-up ones.
  const known = [...new Set((await runtime.deps.foodSource.load()).map((p) => p.foodKey))];
  const foods = Array.from({ length: DINNERS * INGREDIENTS }, (_, i) => known[i] ?? `benchvare ${i}`);
  for (let d = 0; d < DINNERS; d++) {
    const recipe = (await (
      await call('POST', `${base}/recipes`, cookie, {
        title: `Middag ${d + 1}`,
        servings: 4,
        activeMinutes: null,
        totalMinutes: null,
        steps: [],
        ingredients: foods.slice(d * INGREDIENTS, (d + 1) * INGREDIENTS).map((f, i) => ({ displayName: f, quantity: 100 + i, unit: 'g', optional: false, baseRecipeId: null, reference: null })),
      })
    ).json()) as { id: string };
    await call('PUT', `${base}/plans/${plan.id}/days/${plan.days[d]!.date}`, cookie, { recipeId: recipe.id, portions: 4, note: null });
  }
  process.stdout.write(JSON.stringify({ appUrl: app.url, cookie, list: `${base}/plans/${plan.id}/shopping-list` }) + '\n');
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  unexpected: number;
}

async function drive(): Promise<void> {
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 10);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/shopping.ts', '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  const { appUrl, cookie, list } = JSON.parse(line) as { appUrl: string; cookie: string; list: string };
  const measure = async (path: string, expected: number, headers: Record<string, string> = {}): Promise<Figures> => {
    const options = { url: appUrl + path, headers: { Cookie: cookie, ...headers }, connections };
    await autocannon({ ...options, duration: 2 });
    const r = await autocannon({ ...options, duration: seconds });
    const codes = (r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats;
    const hits = codes[String(expected)]?.count ?? 0;
    const total = Object.values(codes).reduce((n, c) => n + c.count, 0);
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, unexpected: total - hits + r.errors };
  };
  try {
    const generated = await fetch(`${appUrl}${list}/generate`, { method: 'POST', headers: { Cookie: cookie } });
    const lines = ((await generated.json()) as { items: unknown[] }).items.length;
    const timing = generated.headers.get('Server-Timing') ?? '';
    const queries = /desc="(\d+) queries"/.exec(timing)?.[1] ?? '?';
    const first = await fetch(appUrl + list, { headers: { Cookie: cookie } });
    const etag = first.headers.get('ETag')!;
    await first.arrayBuffer();
    const rows: [string, Figures][] = [
      ['GET /api/v1/me', await measure('/api/v1/me', 200)],
      ['GET shopping-list (200)', await measure(list, 200)],
      ['GET shopping-list (304)', await measure(list, 304, { 'If-None-Match': etag })],
      ['GET better-choices', await measure(`${list}/better-choices`, 200)],
    ];
    console.log(`loopback, SQLite, ${DINNERS} dinners x ${INGREDIENTS} ingredients, ${lines} list lines, ${connections} connections, ${seconds} s each (after 2 s warm-up)`);
    console.log(`POST generate: ${queries} SQL statements (Server-Timing: ${timing})`);
    for (const [name, f] of rows) {
      console.log(`${name.padEnd(26)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   unexpected ${f.unexpected}`);
    }
    if (rows.some(([, f]) => f.unexpected > 0)) {
      console.error('a route answered another status than expected during the run: the figures are not valid');
      process.exitCode = 1;
    }
  } finally {
    child.kill('SIGTERM');
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
