/**
 * npm run bench:pantry [-- --seconds 10 --connections 10]
 * Throughput and p50/p99 latency of GET inventory (first page) and GET inventory/summary for a household of 5,000
 * observations over 400 foods, next to GET /api/v1/me, against the real service on SQLite over loopback. The
 * service runs in a child process of its own (this file with --serve), so that autocannon does not share its
 * event loop; the observations are seeded through the store directly.
 */
import { randomUUID } from 'node:crypto';
import { announce, arg, benchService, measure, report, spawnService } from './lib.js';

const FOODS = 400;
const OBSERVATIONS = 5000;

async function serve(): Promise<void> {
  const { OBSERVATION_TYPES, STORAGE_LOCATIONS } = await import('../../core/pantry/types.js');
  const { runtime, app, cookie, householdId } = await benchService('pantry');
  const household = { id: householdId };
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
  announce({ appUrl: app.url, cookie, householdId: household.id }, () => app.stop());
}

async function drive(): Promise<void> {
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 10);
  const { info, child } = await spawnService<{ appUrl: string; cookie: string; householdId: string }>('scripts/bench/pantry.ts');
  const get = (path: string) => measure(info.appUrl + path, { headers: { Cookie: info.cookie }, connections, seconds });
  try {
    const inventory = `/api/v1/households/${info.householdId}/inventory`;
    const rows = [
      ['GET /api/v1/me', await get('/api/v1/me')],
      ['GET inventory (page 1)', await get(inventory)],
      ['GET inventory/summary', await get(`${inventory}/summary`)],
    ] as const;
    console.log(`loopback, SQLite, ${OBSERVATIONS} observations over ${FOODS} foods, ${connections} connections, ${seconds} s each (after 2 s warm-up)`);
    report(rows);
  } finally {
    child.kill('SIGTERM');
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
