/**
 * W5: GET shopping-list with the ETag of its last answer in If-None-Match (the 304 path) against GET /api/v1/me
 * (W1's subject) side by side in 1 s turns (measureSideBySide), on the same service: a week of 7 dinners whose recipes have 30 ingredients
 * each (210 foods, the sample catalogue's first so that lines carry prices), the list generated once. One
 * process (this file with --serve) holds the service; recipes and plan are seeded over HTTP.
 *   tsx scripts/bench/w5-shopping-304.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { announce, orStop, benchService, emit, measureSideBySide, progress, spawnService, stopService, throughputRow, workloadArgs, type Figures, type ServedService } from './lib.js';

const DINNERS = 7;
const INGREDIENTS = 30;

interface Served extends ServedService {
  list: string;
  lines: number;
}

async function serve(): Promise<void> {
  const { runtime, app, call, cookie, householdId } = await benchService('w5');
  await orStop(app, async () => {
    const base = `/api/v1/households/${householdId}`;
    await call('PATCH', base, cookie, { chains: ['Kiwi'] });
    const today = new Date().toISOString().slice(0, 10);
    const plan = (await (await call('PUT', `${base}/plans/week/${today}`, cookie)).json()) as { id: string; days: { date: string }[] };
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
    const list = `${base}/plans/${plan.id}/shopping-list`;
    const generated = (await (await call('POST', `${list}/generate`, cookie)).json()) as { items: unknown[] };
    announce({ appUrl: app.url, cookie, list, lines: generated.items.length } satisfies Served, () => app.stop());
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  progress(`W5 ${db}: seeding ${DINNERS} dinners x ${INGREDIENTS} ingredients`);
  const { info, child } = await spawnService<Served>('scripts/bench/w5-shopping-304.ts');
  try {
    const headers = { Cookie: info.cookie };
    // The ETag is taken right before the measurement: the list's answer may change as time passes.
    const first = await fetch(info.appUrl + info.list, { headers });
    const etag = first.headers.get('ETag');
    await first.arrayBuffer();
    if (first.status !== 200 || etag === null) throw new Error(`GET shopping-list answered ${first.status} with ETag ${etag}`);
    const check = await fetch(info.appUrl + info.list, { headers: { ...headers, 'If-None-Match': etag } });
    const queries = /desc="(\d+) queries"/.exec(check.headers.get('Server-Timing') ?? '')?.[1] ?? '?';
    await check.arrayBuffer();
    progress(`W5 ${db}: GET /api/v1/me and GET shopping-list with If-None-Match (304), side by side`);
    const [me, notModified] = (await measureSideBySide(
      [`${info.appUrl}/api/v1/me`, { url: info.appUrl + info.list, headers: { 'If-None-Match': etag }, expected: 304 }],
      { headers, connections, seconds },
    )) as [Figures, Figures];
    emit(
      [
        throughputRow(
          {
            workload: 'W5',
            db,
            subject: 'GET shopping-list, 304',
            baseline: 'GET /api/v1/me (W1), side by side',
            subjectFigures: notModified,
            baselineFigures: me,
            note: `${info.lines} list lines; the 304 runs ${queries} SQL statements; side by side, ${seconds} × 1 s turns each`,
          },
          0.8,
        ),
      ],
      json,
    );
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
