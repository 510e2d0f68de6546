/**
 * npm run bench [-- --seconds 5] [--rounds 1] [--db sqlite|postgres|both] [--only W1,W2] [--connections 10] [--write]
 * Runs every workload script (scripts/bench/w<N>-*.ts) on SQLite and then on Postgres (DATABASE_URL_PG, else the
 * local default), one at a time so that no two share the CPU, collects their rows (JSON lines on stdout), prints
 * one table and fails if any row fails or any workload is missing or broken. With --rounds N each workload runs N
 * times, each time with a fresh service, and a row shows its median run (medianRow in lib.ts): one stalled second
 * of the machine then moves no row across its target. The services run from tsc's output (buildForBench in lib.ts),
 * as `npm start` runs them. With --write the table goes to docs/performance.md
 * together with the machine it ran on.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { arg, buildForBench, medianRows, progress, tableCells, textTable, type BenchRow } from './lib.js';

interface Workload {
  id: string;
  script: string;
  /** Arguments of its own, after the common ones. */
  args?: readonly string[];
  /** autocannon measurements it takes, for the time estimate. */
  measurements: number;
  what: string;
}

const WORKLOADS: readonly Workload[] = [
  { id: 'W1', script: 'scripts/bench/w1-me.ts', measurements: 3, what: "GET /api/v1/me vs F3, the least a Koa + @koa/router server does for a signed-in answer (scripts/bench/floors.ts), answering the same bytes and headers; bare node:http beside it as the long-term mark" },
  { id: 'W2', script: 'scripts/bench/w2-pantry.ts', measurements: 2, what: 'first inventory page of 5,000 observations vs bare node:http running the page\'s SQL through a prepared statement' },
  { id: 'W3', script: 'scripts/bench/w3-generate.ts', measurements: 2, what: 'shopping-list generate vs raw SQL doing the same reads and writes, and its SQL statement count' },
  { id: 'W5', script: 'scripts/bench/w5-shopping-304.ts', measurements: 2, what: 'GET shopping-list answered 304 vs GET /api/v1/me side by side' },
  { id: 'W6', script: 'scripts/bench/w6-observation.ts', measurements: 2, what: 'POST inventory observation vs bare node:http and one prepared INSERT' },
  { id: 'W7', script: 'scripts/bench/w7-login.ts', measurements: 2, what: 'p99 of GET /api/v1/me while 16 logins run vs idle' },
  { id: 'W8', script: 'scripts/bench/w8-planner.ts', measurements: 2, what: "the planner's proposal for a week from 1,000 candidate recipes: p99 against 200 ms" },
  { id: 'W9', script: 'scripts/bench/web.ts', measurements: 1, what: 'the web app: first-load JavaScript gzipped against 100 kB, and the first rendered shopping list in Chromium at 4× CPU throttling against 2 s (painted, read in the page; beside it as a mark, as Playwright\'s polling locator notices it)' },
  { id: 'W10', script: 'scripts/bench/w10-history.ts', measurements: 10, what: 'five years of one household (2,000 recipes, 260 weekly plans with their events, 60,000 pantry observations, 260 shopping lists with their ticks, 10 members; made by scripts/bench/household-document.ts and imported): this week\'s plan, its shopping list, recipe search by a title word and by an ingredient, and the pantry\'s first page, each p99 against 50 ms with a 4-week household beside it, and the export against 2 s' },
  { id: 'W10', script: 'scripts/bench/web.ts', args: ['--household', 'w10'], measurements: 1, what: "the same household in the web app: W9's first rendered shopping list (this week's, 40 lines) at 4× CPU throttling against 2 s" },
  { id: 'W11', script: 'scripts/bench/w11-streams.ts', measurements: 14, what: "a thousand kitchens on one process: 1,000 households of two members, 2,000 live streams (GET /api/v1/me/changes) open on one service process, ticks at 50 a second spread over the households for 4 × --seconds: the time from a tick (PATCH of a line) to the other member's stream hearing it, p95 against 250 ms and p99 against 1 s, no stream missing a change of its household, and the process's memory (RSS after a full GC) growing by at most 20 kB per open stream; on Postgres also two processes on the one database with the streams split between them" },
  // Issue 47: a restart with nothing changed, and the idle service's memory; its 6 starts of ~7 s count as 6 measurements.
  { id: 'R1', script: 'scripts/bench/restart.ts', measurements: 6, what: '`npm start` with nothing changed since the last build (npm, its build check, the service) to the first 200 of /health, median of 5 starts against 2 s, and the idle service\'s resident memory 5 s after its first answer against 120 MB; each a restart of a service that has run before, configured from the environment, on a data folder (SQLite) or a database (Postgres) of its own' },
];
const DATABASES = ['sqlite', 'postgres'] as const;
/** Per workload and database: starting the service, migrating and seeding, besides the measurements. */
const SETUP_SECONDS = 10;
/** A workload that takes longer than this has hung. */
const HANG_MS = 15 * 60_000;

const option = (name: string): string | null => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
};

const seconds = arg('seconds', 5);
const connections = arg('connections', 10);
const rounds = arg('rounds', 1);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds is a whole number, 1 or more');
const dbOption = option('db') ?? 'both';
if (dbOption !== 'both' && !(DATABASES as readonly string[]).includes(dbOption)) throw new Error('--db is sqlite, postgres or both');
const databases = DATABASES.filter((d) => dbOption === 'both' || d === dbOption);
const only = option('only')?.split(',').map((s) => s.trim().toUpperCase()) ?? null;
const workloads = WORKLOADS.filter((w) => only === null || only.includes(w.id));
const pgUrl = process.env['DATABASE_URL_PG'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A row standing for a workload that gave no figures: it fails the run. */
const brokenRow = (w: Workload, db: BenchRow['db'], note: string): BenchRow => {
  const none = { rps: 0, mean: 0, p50: 0, p99: 0, unexpected: 0 };
  return { workload: w.id, db, subject: w.script, baseline: '-', subjectFigures: none, baselineFigures: none, ratio: 0, target: '-', pass: false, note };
};

/** Runs one workload script on one database and answers its rows; anything else it prints goes to stderr. */
async function runWorkload(w: Workload, db: BenchRow['db']): Promise<BenchRow[]> {
  if (!existsSync(w.script)) {
    progress(`${w.id} ${db}: ${w.script} does not exist`);
    return [brokenRow(w, db, `${w.script} is missing`)];
  }
  const args = ['--import', 'tsx', w.script, '--db', db, '--seconds', String(seconds), '--connections', String(connections), '--json', ...(w.args ?? [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATABASE_URL_PG: pgUrl } });
  const rows: BenchRow[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      const row = JSON.parse(line) as BenchRow;
      if (typeof row === 'object' && row !== null && typeof row.workload === 'string' && typeof row.pass === 'boolean') {
        rows.push(row);
        return;
      }
    } catch {
      // Not a row: progress printed to the wrong stream.
    }
    progress(`${w.id} ${db}: ${line}`);
  });
  const hang = setTimeout(() => child.kill('SIGTERM'), HANG_MS);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(hang);
  if (rows.length === 0) return [brokenRow(w, db, `exited with code ${code} and no rows`)];
  // A script fails by itself when a row fails; failing with every row passing means it broke afterwards.
  if (code !== 0 && rows.every((r) => r.pass)) rows.push(brokenRow(w, db, `exited with code ${code} after its rows`));
  return rows;
}

async function sqliteVersion(): Promise<string> {
  const Driver = createRequire(import.meta.url)('better-sqlite3') as new (f: string) => { prepare(s: string): { get(): { v: string } }; close(): void };
  const db = new Driver(':memory:');
  try {
    return db.prepare('select sqlite_version() as v').get().v;
  } finally {
    db.close();
  }
}

async function postgresVersion(): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return ((await client.query('show server_version')).rows[0] as { server_version: string }).server_version;
  } catch (err) {
    return `unreachable (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) return `${pretty}, ${os.type()} ${os.release()} (${os.arch()})`;
  } catch {
    // Not Linux, or no os-release: the kernel alone says enough.
  }
  return `${os.type()} ${os.release()} (${os.arch()})`;
}

async function machine(loadBefore: number[]): Promise<[string, string][]> {
  const cpus = os.cpus();
  return [
    ['CPU', `${cpus[0]?.model.trim() ?? 'unknown'}, ${cpus.length} logical CPUs`],
    ['Memory', `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ['OS', osName()],
    ['Node.js', process.version],
    ['SQLite', await sqliteVersion()],
    ['PostgreSQL', databases.includes('postgres') ? await postgresVersion() : 'not run'],
    ['Load average (1, 5, 15 min) before the run', loadBefore.map((l) => l.toFixed(2)).join(', ')],
    ['Date', new Date().toISOString()],
  ];
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|');

/** Where the generated part of docs/performance.md ends and the kept, hand-written reading of it begins. */
const ANALYSIS_MARKER = '<!-- Below this line: written by hand, kept when the figures above are rewritten. -->';

function markdown(rows: readonly BenchRow[], facts: [string, string][], command: string, minutes: number, loadBefore: number[]): string {
  const cells = tableCells(rows);
  // Figures taken beside other work say little about the service: the page says so rather than leaving it to the reader.
  const busy = loadBefore[0]! > os.cpus().length / 2
    ? ` The machine was busy with other work when it ran (load average ${loadBefore[0]!.toFixed(1)} on ${os.cpus().length} CPUs): treat the figures as rough.`
    : '';
  const table = [cells[0]!, cells[0]!.map(() => '---'), ...cells.slice(1)].map((line) => `| ${line.map(mdCell).join(' | ')} |`).join('\n');
  return `# Performance

Written by \`${command}\` (scripts/bench/run.ts); run it again to refresh this page. Each workload runs on
loopback with the service in a child process of its own, run from tsc's output as \`npm start\` runs it, and
autocannon in the driving one; the subject and its
baseline are measured in the same run, one after the other, on the same database, each after a 2 s warm-up, for
${seconds} s with ${connections} connections, unless a workload's note says it measures otherwise (W1 measures its three,
and W5 its two, side by side, in 1 s turns forwards and backwards; W3, W7). Latencies are
autocannon's, in milliseconds. A row passes when its ratio meets the target and no answer had another status than
expected; a mark (W1 against bare node:http) is shown, not passed or failed.${rounds > 1 ? ` Every workload ran ${rounds} times, each with a fresh service and database; a row shows the median run by ratio (counted from the worst), and its note gives every run's ratio.` : ''} The whole run took ${minutes.toFixed(1)} minutes.${busy}

## Workloads

${WORKLOADS.map((w) => `- **${w.id}** (\`${[w.script, ...(w.args ?? [])].join(' ')}\`): ${w.what}.`).join('\n')}

Every script runs alone too: \`npx tsx scripts/bench/<script> --db sqlite|postgres --seconds 5\` prints its rows.

## Results

${table}

## Machine

${facts.map(([k, v]) => `- ${k}: ${v}`).join('\n')}
`;
}

const perDb = workloads.reduce((n, w) => n + w.measurements * (2 + seconds) + SETUP_SECONDS, 0) * rounds;
progress(
  `${workloads.map((w) => w.id).join(', ')} on ${databases.join(' and ')}, ${seconds} s per measurement after a 2 s warm-up` +
    `${rounds > 1 ? `, ${rounds} rounds` : ''}: about ${Math.ceil((perDb * databases.length) / 60)} minutes`,
);
// The services run from tsc's output, as `npm start` runs them: built once here for every workload (lib.ts).
progress('building the service and the bench scripts with tsc (tsconfig.bench.json)');
buildForBench();
const loadBefore = os.loadavg();
const started = Date.now();
const runs: BenchRow[] = [];
for (const db of databases) {
  for (const w of workloads) {
    for (let round = 1; round <= rounds; round++) {
      progress(`— ${w.id} on ${db}${rounds > 1 ? `, round ${round} of ${rounds}` : ''}`);
      runs.push(...(await runWorkload(w, db)));
    }
  }
}
const rows = medianRows(runs);
const minutes = (Date.now() - started) / 60_000;
process.stdout.write(`\n${textTable(rows)}\n`);
const failed = rows.filter((r) => !r.pass).length;
progress(`${rows.length} rows, ${failed} failing, in ${minutes.toFixed(1)} minutes`);
if (process.argv.includes('--write')) {
  const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  // The hand-written reading of the figures below the marker survives a rewrite; the figures above it do not.
  const previous = existsSync('docs/performance.md') ? readFileSync('docs/performance.md', 'utf8') : '';
  const kept = previous.includes(ANALYSIS_MARKER) ? previous.slice(previous.indexOf(ANALYSIS_MARKER)) : `${ANALYSIS_MARKER}\n`;
  writeFileSync('docs/performance.md', `${markdown(rows, await machine(loadBefore), command, minutes, loadBefore)}\n${kept}`);
  progress('written to docs/performance.md');
}
if (failed > 0) process.exitCode = 1;
