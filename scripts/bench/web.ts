/**
 * W9, the web app's own figures: the JavaScript a first load fetches, gzipped (target ≤ 100 kB), and the time from
 * navigation to the first rendered shopping list in Chromium with the CPU throttled 4× (a cheap phone; target ≤ 2 s),
 * for a week of 7 dinners of 10 ingredients each (some 70 lines), signed in. The built app (npm run build:web; built
 * here when missing) is served by the real service on the database of --db; median of `--runs` loads (default 7),
 * each in a fresh browser context with an empty cache. Two rows of `npm run bench`'s table.
 *   tsx scripts/bench/web.ts [--db sqlite|postgres] [--runs 7] [--json]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, PHONE } from '../../test/e2e/browser.js';
import { arg, benchService, emit, progress, workloadArgs, type BenchRow, type Figures } from './lib.js';

const WEB_DIR = 'web/dist';
const JS_BUDGET_KB = 100;
const FIRST_LIST_MS = 2000;
const runs = arg('runs', 7);
const { database, db, json } = workloadArgs();

if (!existsSync(join(WEB_DIR, 'index.html'))) {
  progress('W9: building the web app');
  if (spawnSync('npm', ['run', 'build:web'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) throw new Error('npm run build:web failed');
}

const index = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
const scripts = [...index.matchAll(/<script[^>]+src="([^"]+)"/g), ...index.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]!);
const jsGzipBytes = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(WEB_DIR, src)), { level: 9 }).length, 0);

const service = await benchService('web', database);
const timings: number[] = [];
try {
  const { call, cookie, householdId, app } = service;
  const plan = (await (await call('PUT', `/api/v1/households/${householdId}/plans/week/2026-11-23`, cookie)).json()) as { id: string; days: { date: string }[] };
  for (const [d, day] of plan.days.entries()) {
    const ingredients = Array.from({ length: 10 }, (_, i) => ({ displayName: `Vare ${d}-${i}`, quantity: 100 + i, unit: 'g', optional: false, baseRecipeId: null, reference: null }));
    const recipe = (await (await call('POST', `/api/v1/households/${householdId}/recipes`, cookie, { title: `Middag ${d}`, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients })).json()) as { id: string };
    await call('PUT', `/api/v1/households/${householdId}/plans/${plan.id}/days/${day.date}`, cookie, { recipeId: recipe.id, portions: null, note: null });
  }
  const [name, value] = cookie.split('=') as [string, string];
  const browser = await launch();
  try {
    for (let r = 0; r < runs; r++) {
      const context = await browser.newContext({ viewport: PHONE });
      await context.addCookies([{ name, value, url: app.url }]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(`${app.url}/list/${plan.id}`, { waitUntil: 'commit' });
      await page.locator('ul.items > li').first().waitFor();
      // performance.now() counts from the navigation's start.
      timings.push(await page.evaluate(() => performance.now()));
      await context.close();
      progress(`web: run ${r + 1}/${runs}: ${timings.at(-1)!.toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
  }
} finally {
  await service.app.stop();
}

const sorted = [...timings].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
const jsKb = jsGzipBytes / 1024;
// Not request rates: the figures' fields carry what there is (the times in ms as mean, median and slowest).
const none: Figures = { rps: 0, mean: 0, p50: 0, p99: 0, unexpected: 0 };
const loads: Figures = { rps: 0, mean: timings.reduce((a, b) => a + b, 0) / timings.length, p50: Math.round(median), p99: Math.round(sorted.at(-1)!), unexpected: 0 };
const rows: BenchRow[] = [
  {
    workload: 'W9',
    db,
    subject: 'web app: first-load JavaScript, gzipped',
    baseline: `budget ${JS_BUDGET_KB} kB`,
    subjectFigures: none,
    baselineFigures: none,
    ratio: jsKb / JS_BUDGET_KB,
    target: '≤ 1.00',
    pass: jsKb <= JS_BUDGET_KB,
    note: `${jsKb.toFixed(1)} kB of ${JS_BUDGET_KB} kB: ${scripts.length} files (the entry and its preloads)`,
  },
  {
    workload: 'W9',
    db,
    subject: 'web app: first rendered shopping list, 4x CPU throttling',
    baseline: `${FIRST_LIST_MS} ms`,
    subjectFigures: loads,
    baselineFigures: none,
    ratio: median / FIRST_LIST_MS,
    target: '≤ 1.00',
    pass: median <= FIRST_LIST_MS,
    note: `median ${Math.round(median)} ms over ${runs} loads (${timings.map((t) => Math.round(t)).join(', ')}); 70 lines, phone size, Chromium, each load with an empty cache`,
  },
];
emit(rows, json);
