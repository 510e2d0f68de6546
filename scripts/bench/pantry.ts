/**
 * npm run bench:pantry [-- --seconds 10 --connections 10]
 * Throughput and p50/p99 latency of GET inventory (first page) and GET inventory/summary for a household of 5,000
 * observations over 400 foods, next to GET /api/v1/me, against the real service on SQLite over loopback. The
 * service runs in a child process of its own (this file with --serve), so that autocannon does not share its
 * event loop; the observations are seeded through the store directly.
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

const FOODS = 400;
const OBSERVATIONS = 5000;

async function serve(): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const { createRuntime } = await import('../../bootstrap/runtime.js');
  const { listen } = await import('../../bootstrap/server.js');
  const { OBSERVATION_TYPES, STORAGE_LOCATIONS } = await import('../../core/pantry/types.js');
  const { randomUUID } = await import('node:crypto');
  const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-pantry-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'auth=1000000/60,anonymous-per-ip=1000000/60,backstop=1000000/60',
  });
  const runtime = await createRuntime(config);
  const app = await listen(runtime, 0, '127.0.0.1');
  const register = await fetch(`${app.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark password', displayName: 'Bench' }),
  });
  const cookie = /app_session=[^;]+/.exec(register.headers.getSetCookie().join(';'))![0];
  const household = (await (
    await fetch(`${app.url}/api/v1/households`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify({ name: 'Bench' }) })
  ).json()) as { id: string };
  // A fixed spread over the last 60 days: every section gets rows.
  const now = Date.now();
  for (let i = 0; i < OBSERVATIONS; i++) {
    const food = (i * 7919) % FOODS;
    await runtime.deps.pantry.add({
      id: randomUUID(),
      householdId: household.id,
      foodKey: `food-${food}`,
      displayName: `Food ${food}`,
      observationType: OBSERVATION_TYPES[i % OBSERVATION_TYPES.length]!,
      quantity: (i % 5) + 1,
      unit: 'pcs',
      storageLocation: STORAGE_LOCATIONS[food % STORAGE_LOCATIONS.length]!,
      confidence: null,
      observedAt: new Date(now - ((OBSERVATIONS - i) / OBSERVATIONS) * 60 * 86_400_000),
    });
  }
  process.stdout.write(JSON.stringify({ appUrl: app.url, cookie, householdId: household.id }) + '\n');
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function drive(): Promise<void> {
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 10);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/pantry.ts', '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  const { appUrl, cookie, householdId } = JSON.parse(line) as { appUrl: string; cookie: string; householdId: string };
  const measure = async (path: string): Promise<Figures> => {
    const url = appUrl + path;
    await autocannon({ url, headers: { Cookie: cookie }, connections, duration: 2 });
    const r = await autocannon({ url, headers: { Cookie: cookie }, connections, duration: seconds });
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
  };
  try {
    const inventory = `/api/v1/households/${householdId}/inventory`;
    const rows: [string, Figures][] = [
      ['GET /api/v1/me', await measure('/api/v1/me')],
      ['GET inventory (page 1)', await measure(inventory)],
      ['GET inventory/summary', await measure(`${inventory}/summary`)],
    ];
    console.log(`loopback, SQLite, ${OBSERVATIONS} observations over ${FOODS} foods, ${connections} connections, ${seconds} s each (after 2 s warm-up)`);
    for (const [name, f] of rows) {
      console.log(`${name.padEnd(24)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   non-2xx ${f.non2xx}`);
    }
    if (rows.some(([, f]) => f.non2xx > 0)) {
      console.error('a route answered non-2xx during the run: the figures are not valid');
      process.exitCode = 1;
    }
  } finally {
    child.kill('SIGTERM');
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
