/**
 * npm run bench:shopping [-- --seconds 10 --connections 10]
 * Throughput and p50/p99 latency of GET shopping-list (200), the same GET with the first answer's ETag in
 * If-None-Match (304) and GET shopping-list/better-choices, next to GET /api/v1/me, for a week of 7 dinners whose
 * recipes have 30 ingredients each (210 foods, some of the sample catalogue's so that lines carry prices), against
 * the real service on SQLite over loopback. Also prints the SQL statements of one POST generate (Server-Timing).
 * The service runs in a child process of its own (this file with --serve); recipes and plan are seeded over HTTP.
 */
import { announce, arg, benchService, measure, report, spawnService } from './lib.js';

const DINNERS = 7;
const INGREDIENTS = 30;

async function serve(): Promise<void> {
  const { runtime, app, call, cookie, householdId } = await benchService('shopping');
  const household = { id: householdId };
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
  announce({ appUrl: app.url, cookie, list: `${base}/plans/${plan.id}/shopping-list` }, () => app.stop());
}

async function drive(): Promise<void> {
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 10);
  const { info, child } = await spawnService<{ appUrl: string; cookie: string; list: string }>('scripts/bench/shopping.ts');
  const { appUrl, cookie, list } = info;
  const get = (path: string, expected = 200, headers: Record<string, string> = {}) =>
    measure(appUrl + path, { headers: { Cookie: cookie, ...headers }, connections, seconds, expected });
  try {
    const generated = await fetch(`${appUrl}${list}/generate`, { method: 'POST', headers: { Cookie: cookie } });
    const lines = ((await generated.json()) as { items: unknown[] }).items.length;
    const timing = generated.headers.get('Server-Timing') ?? '';
    const queries = /desc="(\d+) queries"/.exec(timing)?.[1] ?? '?';
    const first = await fetch(appUrl + list, { headers: { Cookie: cookie } });
    const etag = first.headers.get('ETag')!;
    await first.arrayBuffer();
    const rows = [
      ['GET /api/v1/me', await get('/api/v1/me')],
      ['GET shopping-list (200)', await get(list)],
      ['GET shopping-list (304)', await get(list, 304, { 'If-None-Match': etag })],
      ['GET better-choices', await get(`${list}/better-choices`)],
    ] as const;
    console.log(`loopback, SQLite, ${DINNERS} dinners x ${INGREDIENTS} ingredients, ${lines} list lines, ${connections} connections, ${seconds} s each (after 2 s warm-up)`);
    console.log(`POST generate: ${queries} SQL statements (Server-Timing: ${timing})`);
    report(rows);
  } finally {
    child.kill('SIGTERM');
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
