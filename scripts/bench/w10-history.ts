/**
 * W10: five years of one household. Every other row measures a young household on a fresh database; this one asks
 * what grows with history. The household is made by scripts/bench/household-document.ts (the same generator as
 * household-size.ts, from one seed) and imported through POST /api/v1/households/import: 2,000 recipes (no
 * pictures: they are the household-size bench's subject), 260 weekly plans with their days and about 1,000 meal
 * events, 60,000 pantry observations, 260 shopping lists of 40 lines each closed by a trip (its ticks), 10 members.
 * Its last planned week is the present one, so "the week" is this week's plan and its shopping list.
 *
 * Subjects, each at --connections (10) for --seconds after a 2 s warm-up, ratio p99 / 50 ms (target ≤ 1.00):
 * GET plans/{planId} (this week), GET plans/{planId}/shopping-list, GET recipe-summaries?q=&limit=100 (the web app's
 * recipe search) by a word of titles only and by an ingredient's name, GET inventory (the pantry's first page). Baseline, for scale: the same request on a young
 * household (four weeks, 30 recipes, the same making) in the same service and run.
 * The export: GET .../export of the five-year household five times one after the other; ratio the slowest / 2 s.
 *   tsx scripts/bench/w10-history.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importMade, nextMonday, W10_SCALE, type MadePaths as Paths } from './household-document.js';
import { announce, benchService, emit, measure, orStop, progress, spawnService, stopService, workloadArgs, type BenchRow, type Figures, type ServedService } from './lib.js';

const TARGET_MS = 50;
const EXPORT_TARGET_S = 2;
const EXPORTS = 5;

interface Served extends ServedService {
  old: Paths;
  young: Paths;
  exportPath: string;
  /** What the five-year household holds, as imported. */
  counts: Record<string, number>;
  importSeconds: number;
}

async function serve(): Promise<void> {
  const { app, cookie, householdId } = await benchService('w10');
  const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-w10-'));
  const stop = async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  await orStop({ stop }, async () => {
    const fresh = await fetch(`${app.url}/api/v1/households/${householdId}/export`, { headers: { Cookie: cookie } });
    if (fresh.status !== 200) throw new Error(`export of the fresh household: ${fresh.status}`);
    const head = (await fresh.json()) as Record<string, unknown>;
    const end = nextMonday(Date.now());
    const young = await importMade(app.url, cookie, head, { recipes: 30, weeks: 4, eventsPerWeek: 4, pictureKb: 0, end }, dir);
    const old = await importMade(app.url, cookie, head, { ...W10_SCALE, end }, dir);
    const served: Served = { appUrl: app.url, cookie, old: old.paths, young: young.paths, exportPath: old.exportPath, counts: old.counts, importSeconds: old.importSeconds };
    announce(served, stop);
  });
}

/** `n` exports one after the other: their figures (p99 is the slowest), in milliseconds, and the bytes of the last. */
async function exports(url: string, cookie: string, n: number): Promise<{ figures: Figures; bytes: number }> {
  const times: number[] = [];
  let unexpected = 0;
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie } });
    bytes = (await res.arrayBuffer()).byteLength;
    times.push(performance.now() - started);
    if (res.status !== 200) unexpected++;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / n;
  return { figures: { rps: 1000 / mean, mean, p50: Math.round(sorted[Math.floor((n - 1) / 2)]!), p99: Math.round(sorted[n - 1]!), unexpected }, bytes };
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  progress(`W10 ${db}: making and importing five years of one household`);
  const { info, child } = await spawnService<Served>('scripts/bench/w10-history.ts');
  try {
    progress(`W10 ${db}: imported in ${info.importSeconds.toFixed(1)} s: ${JSON.stringify(info.counts)}`);
    const headers = { Cookie: info.cookie };
    const subjects: [keyof Paths, string][] = [
      ['week', 'GET plans/{planId} (this week)'],
      ['list', 'GET plans/{planId}/shopping-list'],
      ['byTitle', 'GET recipe-summaries?q= (a title word)'],
      ['byIngredient', 'GET recipe-summaries?q= (an ingredient)'],
      ['pantry', 'GET inventory (first page)'],
    ];
    const rows: BenchRow[] = [];
    for (const [key, subject] of subjects) {
      progress(`W10 ${db}: ${subject}`);
      const old = await measure(info.appUrl + info.old[key], { headers, connections, seconds });
      const young = await measure(info.appUrl + info.young[key], { headers, connections, seconds });
      rows.push(latencyRow(db, `${subject}, 5 years`, old, young, `p99 ${old.p99} ms / ${TARGET_MS} ms at ${connections} connections; the young household's p99 ${young.p99} ms`));
    }
    progress(`W10 ${db}: ${EXPORTS} exports`);
    const done = await exports(info.appUrl + info.exportPath, info.cookie, EXPORTS);
    const exportRow = latencyRow(db, 'GET .../export, 5 years', done.figures, done.figures, `slowest of ${EXPORTS} one after the other ${done.figures.p99} ms / ${EXPORT_TARGET_S} s, ${(done.bytes / 1e6).toFixed(1)} MB`);
    rows.push({ ...exportRow, baseline: '-', ratio: done.figures.p99 / (EXPORT_TARGET_S * 1000), pass: done.figures.unexpected === 0 && done.figures.p99 <= EXPORT_TARGET_S * 1000 });
    emit(rows, json);
  } finally {
    await stopService(child);
  }
}

/** A row held to TARGET_MS at p99, with the young household's figures beside it. */
function latencyRow(db: BenchRow['db'], subject: string, figures: Figures, young: Figures, note: string): BenchRow {
  const ratio = figures.p99 / TARGET_MS;
  const bad = figures.unexpected + young.unexpected;
  return {
    workload: 'W10',
    db,
    subject,
    baseline: 'the same on a 4-week household, same run',
    subjectFigures: figures,
    baselineFigures: young,
    ratio,
    target: '≤ 1.00',
    pass: bad === 0 && ratio <= 1,
    note: [note, bad > 0 ? `INVALID: ${figures.unexpected} + ${young.unexpected} unexpected answers` : null].filter(Boolean).join('; '),
  };
}

await (process.argv.includes('--serve') ? serve() : drive());
