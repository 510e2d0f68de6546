/**
 * Issue 42: how large is the household document of the largest realistic household, and what do its import and its
 * export cost? The answer sets the default of HOUSEHOLD_IMPORT_MAX_BYTES.
 *
 * The household, five years of a family of four (two adults, two children) that plans every week:
 * - 261 weekly plans (five years of Mondays), each with its seven days; 86 % of the days have a recipe (the rest:
 *   leftovers, eating out), one day in ten has a note, one in twelve a portions override.
 * - 1,000 meal events (about four a week): guests (30 %: member rows plus one or two guest groups with 0 to 3
 *   avoids), eating out (25 %), someone away (25 %: that member's row, not present), activity (10 %), celebration
 *   (5 %: guests too) and travel (5 %).
 * - The pantry log, 96 observations a week = 25,056: the week's shopping trip ticks 34 lines (Purchased, linked
 *   from the trip), a second, smaller shop 26 more (Purchased), and 36 are entered by hand (Seen, Used, Gone,
 *   Estimated). Beside it 100 merges, 100 "these differ" answers and 100 unit weights (300 decisions).
 * - 261 shopping lists, one a plan, of 40 lines each (1 or 2 days they serve, a price suggestion on most), every
 *   one closed by a trip: 34 lines bought, 6 left, the 34 observations it wrote, a closing tick per line.
 * - 2,000 recipes (the library of five years of saving from recipe sites): 6 to 14 ingredients (10 on average),
 *   4 to 8 steps (6 on average) of 80 to 320 characters (about 200 on average, a recipe site's step), a source and
 *   a picture address; one recipe in twenty uses a base recipe (a dough, a sauce).
 * - Every recipe has a picture. Recipe sites serve their share picture (og:image) at about 1200×800, as a JPEG of
 *   quality 75 to 85 or a WebP: 60 to 300 kB, most near 100 kB, averaging about 150 kB. The sizes here follow a
 *   triangular distribution from 0.4 to 2 times the mean with its mode at 0.6 times it (so 60 to 300 kB, mode 90
 *   kB, for the default mean of 150 kB; 1 kB = 1,000 bytes), spread evenly over its quantiles so that the mean is
 *   the one asked for. Each picture is a real baseline JPEG of 1200×800 (one grey frame that any decoder reads)
 *   padded to its size with random bytes in comment segments, so it passes the import's check of the bytes
 *   (inspectImage) and is as incompressible as a photograph.
 *
 * The service runs in a child process (spawnService: the compiled build, as users run it; --tsx runs the sources
 * under tsx instead), with HOUSEHOLD_IMPORT_MAX_BYTES at its ceiling of 1 GiB so that the cap is not what is
 * measured, and otherwise as configured by default (the upload's deadline HOUSEHOLD_IMPORT_TIMEOUT_MS, the default
 * V8 heap). First a tiny
 * household of the same making goes through import and export, and the export's shape (every key path) is held to
 * the generated document's, so that the large document is known to be what an export writes. Then the large one:
 * its size (pictures and the rest), the import's answer, time and the service's peak RSS, and GET .../export of the
 * imported household: status, size, time and peak RSS. The export is one JSON.stringify: past V8's longest string
 * (buffer.constants.MAX_STRING_LENGTH, 2^29 - 24 characters) it fails; the run prints at how many recipes of this
 * picture size that happens.
 *
 * Meanwhile GET /health/live is asked every 50 ms: the longest it waits is how long the service stops answering.
 * --upload-mbit sends the import at a home connection's upload speed (the upload's deadline counts until the last
 * byte of the body is in).
 *
 *   tsx scripts/bench/household-size.ts [--db sqlite|postgres] [--recipes 2000] [--picture-kb 150] [--weeks 261]
 *     [--upload-mbit N] [--tsx] [--keep]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as bufferConstants } from 'node:buffer';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { countsOf, writeDocument, type Scale } from './household-document.js';
import { announce, arg, benchDatabase, benchSchema, orStop, progress, spawnService, stopService, type ServedService } from './lib.js';

/** The ceiling config allows: the cap must not be what this measures. */
const IMPORT_MAX_BYTES = 1024 * 1024 * 1024;

interface Served extends ServedService {
  householdId: string;
  /** The service's V8 heap limit: what a string or object graph of the import or export has to fit in. */
  heapLimit: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The service, in its own process.

/** benchService's start, with the import cap raised (benchService passes a fixed environment to loadConfig). */
async function serve(): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const { createRuntime } = await import('../../bootstrap/runtime.js');
  const { listen } = await import('../../bootstrap/server.js');
  const database = benchDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-household-size-'));
  const pg = database.kind === 'postgres' ? await benchSchema(database.url) : null;
  const config = loadConfig({
    DATABASE_URL: database.kind === 'postgres' ? database.url : `sqlite:${join(dir, 'bench.db')}`,
    // Errors only: the driver shows them (an export that fails says why only in the log).
    LOG_LEVEL: 'error',
    OUTBOX_DIR: join(dir, 'outbox'),
    RATE_LIMITS: 'auth=1000000/60,anonymous-per-ip=1000000/60,data-per-ip=1000000/60,backstop=1000000/60',
    HOUSEHOLD_IMPORT_MAX_BYTES: String(IMPORT_MAX_BYTES),
  });
  let runtime;
  let listening;
  try {
    runtime = await createRuntime(config, pg ? { schema: pg.schema } : {});
    listening = await listen(runtime, 0, '127.0.0.1');
  } catch (err) {
    await pg?.drop();
    throw err;
  }
  const server = listening;
  // A full collection on SIGUSR2, so that the export starts from a settled heap, as it would some time after an
  // import, rather than on the import's garbage (which would count in its peak RSS). Only this process may send it.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  process.on('SIGUSR2', () => {
    gc();
    gc();
  });
  // Stopping drops the Postgres schema and the SQLite file: a run leaves nothing behind.
  const app = {
    url: server.url,
    stop: async () => {
      await server.stop();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await orStop(app, async () => {
    const register = await fetch(`${app.url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark password', displayName: 'Bench' }),
    });
    if (register.status >= 400) throw new Error(`register: ${register.status} ${await register.text()}`);
    const cookie = /app_session=[^;]+/.exec(register.headers.getSetCookie().join(';'))![0];
    const made = await fetch(`${app.url}/api/v1/households`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ name: 'Familien Hansen' }),
    });
    if (made.status >= 400) throw new Error(`household: ${made.status} ${await made.text()}`);
    const { id } = (await made.json()) as { id: string };
    announce({ appUrl: app.url, cookie, householdId: id, heapLimit: getHeapStatistics().heap_size_limit } satisfies Served, app.stop);
  });
}

/** The sources under tsx, for when the build is not wanted (--tsx). Same announcement as spawnService's children. */
async function spawnTsx<T>(): Promise<{ info: T; child: ChildProcess }> {
  const db = process.argv.indexOf('--db');
  const pass = db >= 0 ? ['--db', process.argv[db + 1] ?? 'sqlite'] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', ...pass], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { info: JSON.parse(line) as T, child };
}

// ---------------------------------------------------------------------------------------------------------------
// The service's memory, read from outside.

/** Resident memory in bytes, and its high-water mark, from /proc/<pid>/status. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * The peak RSS of the child over one phase. The kernel's own high-water mark (VmHWM) misses nothing, but counts from
 * the start of the process: writing 5 to clear_refs sets it back to the present RSS, so it covers this phase only.
 * Where that is not allowed, the peak is the largest RSS seen by polling every 10 ms (a short spike may slip by).
 */
function watchMemory(pid: number): { stop(): { before: number; peak: number; exact: boolean } } {
  let exact = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    exact = false;
  }
  const before = memoryOf(pid).rss;
  let polled = before;
  const timer = setInterval(() => {
    try {
      polled = Math.max(polled, memoryOf(pid).rss);
    } catch {
      // The process has gone (out of memory, say): its last reading stands, and the phase reports the failure.
    }
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      let hwm = 0;
      try {
        hwm = memoryOf(pid).hwm;
      } catch {
        exact = false;
      }
      return { before, peak: exact ? Math.max(hwm, polled) : polled, exact };
    },
  };
}


// ---------------------------------------------------------------------------------------------------------------
// The requests.

interface Answer {
  status: number;
  /** Seconds from the first byte sent to the last byte of the answer. */
  seconds: number;
  /** Seconds until the request's body was all handed over (uploads). */
  sentSeconds: number | null;
  /** Seconds until the answer's headers (downloads). */
  firstByteSeconds: number;
  bytes: number;
  /** The answer's text, when short; else its first 300 characters. */
  text: string;
  error: string | null;
}

/**
 * One request over node:http (fetch would buffer the upload's bookkeeping and the download), the body streamed from
 * `upload` (at `mbit` megabits a second when given, as over a home connection's uplink) and the answer streamed to
 * `download` when given; only the first 64 kB of the answer are kept as text.
 */
function send(service: Served, method: string, path: string, options: { upload?: string; download?: string; mbit?: number }): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let sentSeconds: number | null = null;
    let firstByteSeconds = 0;
    const headers: Record<string, string | number> = { Cookie: service.cookie };
    if (options.upload) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': statSync(options.upload).size });
    const req = request(`${service.appUrl}${path}`, { method, headers }, (res) => {
      firstByteSeconds = seconds();
      const out = options.download ? createWriteStream(options.download) : null;
      const kept: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (bytes < 65_536) kept.push(chunk.subarray(0, 65_536 - bytes));
        bytes += chunk.length;
        out?.write(chunk);
      });
      res.on('end', () => {
        const done = () => resolve({ status: res.statusCode ?? 0, seconds: seconds(), sentSeconds, firstByteSeconds, bytes, text: Buffer.concat(kept).toString('utf8'), error: null });
        if (out) out.end(done);
        else done();
      });
      res.on('error', (err) => resolve({ status: res.statusCode ?? 0, seconds: seconds(), sentSeconds, firstByteSeconds, bytes, text: '', error: String(err) }));
    });
    req.on('error', (err) => resolve({ status: 0, seconds: seconds(), sentSeconds, firstByteSeconds, bytes: 0, text: '', error: String(err) }));
    req.on('finish', () => (sentSeconds = seconds()));
    if (!options.upload) req.end();
    else if (!options.mbit) createReadStream(options.upload).pipe(req);
    else void paced(createReadStream(options.upload, { highWaterMark: 64 * 1024 }), req, options.mbit * 1e6, started);
  });
}

/** Writes `from` into `req` no faster than `bitsPerSecond`; stops when the request has gone (an early answer). */
async function paced(from: AsyncIterable<Buffer>, req: ReturnType<typeof request>, bitsPerSecond: number, started: number): Promise<void> {
  let sent = 0;
  try {
    for await (const chunk of from) {
      if (req.destroyed) return;
      if (!req.write(chunk)) await once(req, 'drain');
      sent += chunk.length;
      const due = started + ((sent * 8) / bitsPerSecond) * 1000 - performance.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
    req.end();
  } catch {
    // The request failed (the service closed it): send() reports that from the request's own events.
  }
}

/**
 * How long the service keeps others waiting during a phase: GET /health/live one after the other (50 ms apart),
 * the longest answer. The export's JSON.stringify, for one, answers nothing else while it runs.
 */
function stallProbe(service: Served): { stop(): Promise<number> } {
  let running = true;
  let worst = 0;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        await (await fetch(`${service.appUrl}/health/live`)).arrayBuffer();
      } catch {
        // A refused probe counts by its time like any other.
      }
      worst = Math.max(worst, performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return worst / 1000;
    },
  };
}

/** Every key path of a JSON value (arrays as []), to hold an export's shape to a document's. */
function shapeOf(value: unknown, at = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${at}[]`, into);
  else if (value !== null && typeof value === 'object') {
    // madeFor is keyed by dates: one shape for all of them.
    const record = at.endsWith('.madeFor');
    for (const [key, item] of Object.entries(value)) shapeOf(item, `${at}.${record ? '<date>' : key}`, into);
  } else into.add(`${at}: ${value === null ? 'null' : typeof value}`);
  return into;
}


const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB (${(bytes / 1024 / 1024).toFixed(1)} MiB)`;
const s = (seconds: number) => `${seconds.toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------------------------
// The run.

async function drive(): Promise<void> {
  const database = benchDatabase();
  const scale: Scale = { recipes: arg('recipes', 2000), weeks: arg('weeks', 261), eventsPerWeek: 1000 / 261, pictureKb: arg('picture-kb', 150) };
  const keep = process.argv.includes('--keep');
  const mbit = arg('upload-mbit', 0);
  const dir = mkdtempSync(join(tmpdir(), 'dinner-household-size-'));
  progress(`starting the service (${database.kind}${process.argv.includes('--tsx') ? ', under tsx' : ', compiled'})`);
  const { info: service, child } = process.argv.includes('--tsx') ? await spawnTsx<Served>() : await spawnService<Served>(fileURLToPath(import.meta.url));
  const pid = child.pid!;
  // What the service logs after its announcement (errors only) goes to stderr, beside the progress.
  createInterface({ input: child.stdout! }).on('line', (line) => progress(`service: ${line.slice(0, 2000)}`));
  try {
    const fresh = await send(service, 'GET', `/api/v1/households/${service.householdId}/export`, {});
    if (fresh.status !== 200) throw new Error(`export of the fresh household: ${fresh.status} ${fresh.text}`);
    const head = JSON.parse(fresh.text) as Record<string, unknown>;

    // A tiny household of the same making, round-tripped: what the large one is made of is what an export writes.
    progress('checking the shape: a small household through import and export');
    const small = join(dir, 'small.json');
    await writeDocument(small, head, { recipes: 30, weeks: 4, eventsPerWeek: 4, pictureKb: 20 });
    const smallImport = await send(service, 'POST', '/api/v1/households/import', { upload: small });
    if (smallImport.status !== 201) throw new Error(`import of the small household: ${smallImport.status} ${smallImport.text}`);
    const smallId = (JSON.parse(smallImport.text) as { id: string }).id;
    const smallExport = await send(service, 'GET', `/api/v1/households/${smallId}/export`, { download: join(dir, 'small-export.json') });
    if (smallExport.status !== 200) throw new Error(`export of the small household: ${smallExport.status} ${smallExport.text}`);
    const written = JSON.parse(readFileSync(small, 'utf8')) as Record<string, unknown>;
    const exported = JSON.parse(readFileSync(join(dir, 'small-export.json'), 'utf8')) as Record<string, unknown>;
    const [ours, theirs] = [shapeOf(written), shapeOf(exported)];
    const missing = [...theirs].filter((p) => !ours.has(p));
    const extra = [...ours].filter((p) => !theirs.has(p));
    if (missing.length + extra.length > 0) throw new Error(`the document's shape is not the export's: not made here ${JSON.stringify(missing)}, not exported ${JSON.stringify(extra)}`);
    if (JSON.stringify(countsOf(written)) !== JSON.stringify(countsOf(exported))) {
      throw new Error(`the export does not hold what was imported: ${JSON.stringify(countsOf(written))} → ${JSON.stringify(countsOf(exported))}`);
    }

    progress(`writing the household: ${scale.recipes} recipes with pictures averaging ${scale.pictureKb} kB, ${scale.weeks} weeks`);
    const file = join(dir, 'household.json');
    const { size, counts } = await writeDocument(file, head, scale);

    console.log(`household-size: ${database.kind}, ${scale.recipes} recipes, pictures averaging ${scale.pictureKb} kB, ${scale.weeks} weeks; service heap limit ${mb(service.heapLimit)}`);
    console.log(`document            ${mb(size.total)}: ${size.total.toLocaleString('en')} bytes, ${size.totalChars.toLocaleString('en')} characters`);
    console.log(`  pictures          ${mb(size.pictures)} (${((100 * size.pictures) / size.total).toFixed(1)} %) in base64, of ${mb(size.pictureBytes)} of JPEG`);
    console.log(`  the rest          ${mb(size.total - size.pictures)}`);
    for (const [part, n] of Object.entries(size.parts)) if (part !== 'pictures (base64)') console.log(`    ${part.padEnd(22)} ${mb(n.bytes)}`);

    progress(`importing${mbit ? ` at ${mbit} Mbit/s` : ''}`);
    let memory = watchMemory(pid);
    let probe = stallProbe(service);
    const imported = await send(service, 'POST', '/api/v1/households/import', { upload: file, ...(mbit ? { mbit } : {}) });
    let peak = memory.stop();
    let stall = await probe.stop();
    const importedId = imported.status === 201 ? (JSON.parse(imported.text) as { id: string }).id : null;
    console.log(`import              ${imported.status}${imported.error ? ` (${imported.error})` : ''} in ${s(imported.seconds)} (body sent after ${s(imported.sentSeconds ?? NaN)})`);
    console.log(`  answer            ${imported.text.slice(0, 300)}`);
    console.log(`  peak RSS          ${mb(peak.peak)} (from ${mb(peak.before)}${peak.exact ? '' : '; polled every 10 ms'})`);
    console.log(`  longest stall     ${s(stall)} (GET /health/live meanwhile)`);

    if (importedId) {
      progress('exporting');
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const download = join(dir, 'export.json');
      memory = watchMemory(pid);
      probe = stallProbe(service);
      const exportedBig = await send(service, 'GET', `/api/v1/households/${importedId}/export`, { download });
      peak = memory.stop();
      stall = await probe.stop();
      console.log(`export              ${exportedBig.status}${exportedBig.error ? ` (${exportedBig.error})` : ''} in ${s(exportedBig.seconds)} (headers after ${s(exportedBig.firstByteSeconds)})`);
      console.log(`  size              ${mb(exportedBig.bytes)}`);
      if (exportedBig.status !== 200) console.log(`  answer            ${exportedBig.text.slice(0, 300)}`);
      console.log(`  peak RSS          ${mb(peak.peak)} (from ${mb(peak.before)} after a full GC${peak.exact ? '' : '; polled every 10 ms'})`);
      console.log(`  longest stall     ${s(stall)} (GET /health/live meanwhile)`);
      if (exportedBig.status === 200) {
        // It was one string in the service, so it is one here too; what went in must have come out.
        const back = countsOf(JSON.parse(readFileSync(download, 'utf8')) as Record<string, unknown>);
        const same = JSON.stringify(back) === JSON.stringify(counts);
        console.log(`  holds             ${JSON.stringify(back)}${same ? ', all that was imported' : `: NOT what was imported, ${JSON.stringify(counts)}`}`);
      }
    }

    // Where the export's one string runs out: the document and the export are the same text but for ids and times
    // of the same length, so the recipes that fit are those whose characters fit beside the rest.
    const max = bufferConstants.MAX_STRING_LENGTH;
    const perRecipe = (size.parts['recipes (text)']!.chars + size.pictures) / scale.recipes;
    const rest = size.totalChars - perRecipe * scale.recipes;
    console.log(
      `export limit        V8's longest string is ${max.toLocaleString('en')} characters; at ${(perRecipe / 1000).toFixed(1)} k characters a recipe beside ` +
        `${(rest / 1e6).toFixed(1)} M of the rest, the export fails above about ${Math.floor((max - rest) / perRecipe).toLocaleString('en')} recipes`,
    );
  } finally {
    await stopService(child);
    if (keep) progress(`the documents are kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) await serve();
else await drive();
