/**
 * The web app's own figures: the JavaScript a first load fetches, gzipped (target ≤ 100 kB), and the time from
 * navigation to the first rendered shopping list in Chromium with the CPU throttled 4× (a cheap phone), for a week
 * of 7 dinners of 10 ingredients each (some 70 lines), signed in. The built app (npm run build:web) is served by the
 * real service on SQLite; median of `--runs` loads (default 7), each in a fresh browser context with an empty cache.
 *   tsx scripts/bench/web.ts [--runs 7] [--json]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, PHONE } from '../../test/e2e/browser.js';
import { arg, benchService, progress } from './lib.js';

const WEB_DIR = 'web/dist';
const JS_BUDGET_KB = 100;
const runs = arg('runs', 7);
const json = process.argv.includes('--json');

const index = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
const scripts = [...index.matchAll(/<script[^>]+src="([^"]+)"/g), ...index.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]!);
const jsGzipBytes = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(WEB_DIR, src)), { level: 9 }).length, 0);

const service = await benchService('web', { kind: 'sqlite' });
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
const result = {
  jsGzipKb: Number((jsGzipBytes / 1024).toFixed(1)),
  jsBudgetKb: JS_BUDGET_KB,
  withinBudget: jsGzipBytes / 1024 <= JS_BUDGET_KB,
  firstListMsMedian: Math.round(median),
  firstListMsRuns: timings.map((t) => Math.round(t)),
  cpuThrottling: 4,
};
if (json) console.log(JSON.stringify(result));
else {
  console.log(`first-load JavaScript, gzipped: ${result.jsGzipKb} kB (budget ${JS_BUDGET_KB} kB: ${result.withinBudget ? 'within' : 'OVER'})`);
  console.log(`first rendered shopping list, 4x CPU throttling, 70 lines: median ${result.firstListMsMedian} ms over ${runs} loads (${result.firstListMsRuns.join(', ')})`);
}
if (!result.withinBudget) process.exitCode = 1;
