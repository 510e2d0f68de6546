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
import { randomBytes, randomUUID } from 'node:crypto';
import { constants as bufferConstants } from 'node:buffer';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, type WriteStream } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { inspectImage } from '../../adapters/recipe-import/image.js';
import { mulberry32 } from '../../core/kernel/seeded.js';
import { announce, arg, benchDatabase, benchSchema, orStop, progress, spawnService, stopService, type ServedService } from './lib.js';

/** The ceiling config allows: the cap must not be what this measures. */
const IMPORT_MAX_BYTES = 1024 * 1024 * 1024;
const KB = 1000;
const DAY = 86_400_000;

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
// Pictures.

/**
 * A baseline JPEG of `width`×`height`, one grey component, every 8×8 block flat (its DC difference 0, then end of
 * block): with one-symbol Huffman tables each block is the two bits 00, so the scan is all zero bytes and needs no
 * stuffing. `padding` bytes go into comment segments before the scan (a comment holds at most 65,533).
 */
function jpeg(width: number, height: number, padding: number): Buffer {
  const segment = (marker: number, body: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  const jfif = segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  const dqt = segment(0xdb, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)]));
  const sof = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  // One code of length 1 ("0") for symbol 0: DC category 0, and AC end of block.
  const table = (classAndId: number) => segment(0xc4, Buffer.concat([Buffer.from([classAndId, 1]), Buffer.alloc(15), Buffer.from([0])]));
  const sos = segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0]));
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan = Buffer.alloc(Math.ceil((blocks * 2) / 8));
  const fixed = 2 + jfif.length + dqt.length + (sof.length + 4) + 2 * table(0).length + sos.length + scan.length + 2;
  const comments: Buffer[] = [];
  // Each comment costs 4 bytes of marker and length besides what it holds.
  for (let left = Math.max(0, padding - fixed); left > 4; ) {
    const size = Math.min(65_533, left - 4);
    comments.push(segment(0xfe, randomBytes(size)));
    left -= size + 4;
  }
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, dqt, segment(0xc0, sof), table(0x00), table(0x10), ...comments, sos, scan, Buffer.from([0xff, 0xd9])]);
}

/**
 * `n` picture sizes in bytes with mean `meanBytes`: the triangular distribution from 0.4 to 2 times the mean with
 * its mode at 0.6 times it (mean (a + b + c) / 3 = the mean), one size at each of n evenly spread quantiles, in
 * a fixed shuffled order (so neighbouring recipes differ as a library's would).
 */
function pictureSizes(n: number, meanBytes: number): number[] {
  const a = 0.4 * meanBytes;
  const b = 2 * meanBytes;
  const c = 0.6 * meanBytes;
  const split = (c - a) / (b - a);
  const quantile = (u: number) => (u < split ? a + Math.sqrt(u * (b - a) * (c - a)) : b - Math.sqrt((1 - u) * (b - a) * (b - c)));
  const sizes = Array.from({ length: n }, (_, i) => Math.round(quantile((i + 0.5) / n)));
  const random = prng(42);
  for (let i = sizes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sizes[i], sizes[j]] = [sizes[j]!, sizes[i]!];
  }
  return sizes;
}

// ---------------------------------------------------------------------------------------------------------------
// The household.

/** The same household from run to run, but for ids and the pictures' padding. */
const prng = mulberry32;

const FOODS = [
  ['kyllingfilet', 'g'], ['kjøttdeig', 'g'], ['laksefilet', 'g'], ['torskefilet', 'g'], ['svinekotelett', 'stk'], ['bacon', 'g'], ['pølser', 'stk'],
  ['reker', 'g'], ['egg', 'stk'], ['melk', 'dl'], ['fløte', 'dl'], ['rømme', 'dl'], ['smør', 'g'], ['revet ost', 'g'], ['parmesan', 'g'],
  ['feta', 'g'], ['mozzarella', 'g'], ['yoghurt naturell', 'dl'], ['potet', 'g'], ['søtpotet', 'g'], ['gulrot', 'stk'], ['løk', 'stk'],
  ['rødløk', 'stk'], ['hvitløk', 'fedd'], ['purre', 'stk'], ['sellerirot', 'g'], ['brokkoli', 'g'], ['blomkål', 'g'], ['paprika', 'stk'],
  ['tomat', 'stk'], ['cherrytomater', 'g'], ['agurk', 'stk'], ['salat', 'stk'], ['spinat', 'g'], ['squash', 'stk'], ['aubergine', 'stk'],
  ['sopp', 'g'], ['mais', 'g'], ['erter', 'g'], ['kikerter', 'g'], ['kidneybønner', 'g'], ['linser', 'g'], ['ris', 'g'], ['pasta', 'g'],
  ['spaghetti', 'g'], ['nudler', 'g'], ['tortillalefser', 'stk'], ['hvetemel', 'dl'], ['havregryn', 'dl'], ['brød', 'stk'], ['hermetiske tomater', 'boks'],
  ['tomatpuré', 'ss'], ['kokosmelk', 'boks'], ['buljong', 'terning'], ['soyasaus', 'ss'], ['olivenolje', 'ss'], ['rapsolje', 'ss'], ['sitron', 'stk'],
  ['lime', 'stk'], ['ingefær', 'g'], ['chili', 'stk'], ['koriander', 'bunt'], ['persille', 'bunt'], ['basilikum', 'bunt'], ['dill', 'bunt'],
  ['salt', 'ts'], ['pepper', 'ts'], ['paprikapulver', 'ts'], ['spisskummen', 'ts'], ['karri', 'ts'], ['oregano', 'ts'], ['kanel', 'ts'],
  ['sukker', 'ss'], ['honning', 'ss'], ['sennep', 'ss'], ['majones', 'ss'], ['pesto', 'ss'], ['eple', 'stk'], ['banan', 'stk'], ['bringebær', 'g'],
] as const;
const DISHES = ['gryte', 'suppe', 'ovnsbakt', 'wok', 'taco', 'pasta', 'salat', 'burger', 'pai', 'lasagne', 'curry', 'grateng', 'frikassé', 'pizza', 'risotto', 'fiskekaker'];
const WORDS = ['med', 'og', 'i', 'på', 'til', 'fra', 'uten'];
const STEP_PARTS = [
  'Skrell og hakk løken fint, og fres den myk i litt olje i en stor panne på middels varme',
  'Skjær kjøttet i strimler og brun det godt i flere omganger, så det ikke koker i sin egen væske',
  'Tilsett hvitløk og krydder, og la det surre et minutt til det dufter',
  'Hell over tomatene og buljongen, rør godt om og la det småkoke under lokk i 20 minutter',
  'Kok pastaen i rikelig med saltet vann etter anvisningen på pakken, og ta vare på en kopp av kokevannet',
  'Smak til med salt, pepper og litt sitronsaft, og tilsett mer væske om sausen blir for tykk',
  'Forvarm ovnen til 200 grader, og legg grønnsakene utover et stekebrett med bakepapir',
  'Vend inn fløten og osten, og la det hele få et oppkok før du tar kjelen av platen',
  'Server med ris eller godt brød, og dryss over frisk urter rett før servering',
  'La retten hvile i fem minutter før den skjæres opp, så holder den seg saftig',
];

interface Size {
  /** Bytes of the pictures in the document, as base64. */
  pictures: number;
  /** Bytes of the pictures themselves. */
  pictureBytes: number;
  /** The UTF-8 bytes of each part of the document, and their characters (what JSON.stringify has to hold). */
  parts: Record<string, { bytes: number; chars: number }>;
  total: number;
  totalChars: number;
}

/** The household's parts, made in memory (all but the recipes' picture data, which is made as it is written). */
interface Scale {
  recipes: number;
  weeks: number;
  eventsPerWeek: number;
  pictureKb: number;
}

/** The random choices of one made household, from one seed, and its span of weeks. */
interface Maker {
  readonly random: () => number;
  pick<T>(list: readonly T[]): T;
  between(low: number, high: number): number;
  /** An instant as ISO text; `date`, its day. */
  at(ms: number): string;
  date(ms: number): string;
  readonly start: number;
  readonly end: number;
  readonly scale: Scale;
}

function maker(scale: Scale): Maker {
  const random = prng(7);
  const end = Date.UTC(2026, 9, 26); // a Monday
  return {
    random,
    pick: (list) => list[Math.floor(random() * list.length)]!,
    between: (low, high) => low + Math.floor(random() * (high - low + 1)),
    at: (ms) => new Date(ms).toISOString(),
    date: (ms) => new Date(ms).toISOString().slice(0, 10),
    start: end - scale.weeks * 7 * DAY,
    end,
    scale,
  };
}

/**
 * Writes the household document of `scale` to `file`, part by part (a document of hundreds of megabytes is never
 * one string here), on the head `fresh` (a real export of a fresh household: its settings and its one member, the
 * Owner, who exported it). Answers its size. The parts are made in the order of the document, from one seed.
 */
async function writeDocument(file: string, fresh: Record<string, unknown>, scale: Scale): Promise<{ size: Size; counts: Record<string, number> }> {
  const m = maker(scale);
  const members = [
    ...(fresh['members'] as object[]),
    { id: randomUUID(), displayName: 'Kari', role: 'Adult', createdAt: m.at(m.start) },
    { id: randomUUID(), displayName: 'Emma', role: 'Junior', createdAt: m.at(m.start) },
    { id: randomUUID(), displayName: 'Jonas', role: 'Junior', createdAt: m.at(m.start) },
  ] as { id: string }[];
  const recipes = makeRecipes(m);
  const plans = makePlans(m, recipes.map((r) => r.id));
  const mealEvents = makeMealEvents(m, members);
  const { pantry, tripObservations } = makePantry(m);
  const shoppingLists = makeShoppingLists(m, plans, tripObservations);
  const parts = { members, recipes, plans, mealEvents, pantry, shoppingLists };
  const size = await writeParts(file, fresh, m, parts);
  return { size, counts: countsOf({ recipes: recipes.map(() => ({ image: {} })), plans, mealEvents, pantry, shoppingLists }) };
}

/** Recipes, without their picture data, which is written as each is made. */
function makeRecipes(m: Maker) {
  const { random, pick, between, at, start, end, scale } = m;
  const recipeIds = Array.from({ length: scale.recipes }, () => randomUUID());
  const step = () => {
    // 80 to 320 characters: one to three of a recipe site's clauses, cut at a word.
    const target = between(80, 320);
    let text = pick(STEP_PARTS);
    while (text.length < target) text += `. ${pick(STEP_PARTS)}`;
    return `${text.slice(0, target).replace(/\s+\S*$/, '')}.`;
  };
  const recipes = recipeIds.map((id, i) => {
    const created = start + Math.floor((i / scale.recipes) * (end - start));
    const baseRecipeId = i > 20 && i % 20 === 0 ? recipeIds[i - 20]! : null;
    const ingredients = Array.from({ length: between(6, 14) }, (_, k) => {
      const [displayName, unit] = pick(FOODS);
      if (k === 0 && baseRecipeId) return { displayName: 'Pizzadeig', quantity: 1, unit: 'porsjon', optional: false, baseRecipeId, reference: null };
      return { displayName, quantity: unit === 'g' ? between(1, 12) * 50 : between(1, 4), unit, optional: random() < 0.08, baseRecipeId: null, reference: null };
    });
    const slug = `${pick(DISHES)}-${pick(WORDS)}-${pick(FOODS)[0].replace(/\s/g, '-')}-${i}`;
    const main = pick(FOODS)[0];
    const title = `${main[0]!.toUpperCase()}${main.slice(1)}${pick(DISHES)} ${pick(WORDS)} ${pick(FOODS)[0]} og ${pick(FOODS)[0]}`;
    const site = pick(['https://www.matprat.no/oppskrifter/', 'https://www.tine.no/oppskrifter/middag/', 'https://trinesmatblogg.no/recipe/', 'https://www.godt.no/oppskrifter/']);
    const totalMinutes = between(2, 12) * 5;
    return {
      id,
      title: title.slice(0, 200),
      servings: pick([2, 4, 4, 4, 6]),
      activeMinutes: Math.min(totalMinutes, between(2, 8) * 5),
      totalMinutes,
      steps: Array.from({ length: between(4, 8) }, step),
      ingredients,
      sourceUrl: `${site}${slug}`,
      imageUrl: `https://images.example-recipes.no/og/${slug}-1200x800.jpg`,
      createdAt: at(created),
      updatedAt: at(created + between(0, 30) * DAY),
    };
  });
  return recipes;
}

/** Plans: one a week, each with its seven days. */
function makePlans(m: Maker, recipeIds: readonly string[]) {
  const { random, pick, between, at, date, start, scale } = m;
  const plans = Array.from({ length: scale.weeks }, (_, w) => {
    const monday = start + w * 7 * DAY;
    return {
      id: randomUUID(),
      weekStart: date(monday),
      createdAt: at(monday - 3 * DAY),
      updatedAt: at(monday - 2 * DAY),
      days: Array.from({ length: 7 }, (_, d) => ({
        id: randomUUID(),
        date: date(monday + d * DAY),
        recipeId: random() < 0.86 ? pick(recipeIds) : null,
        portionsOverride: random() < 1 / 12 ? between(2, 8) : null,
        note: random() < 0.1 ? pick(['Rester fra søndag', 'Fotballtrening, spis tidlig', 'Bestemor kommer', 'Lag dobbel porsjon til matpakke']) : null,
      })),
    };
  });
  return plans;
}

/** Meal events: about four a week. */
function makeMealEvents(m: Maker, members: readonly { id: string }[]) {
  const { random, pick, between, at, date, start, scale } = m;
  const eventTypes = [
    ['Guests', 0.3], ['EatingOut', 0.25], ['PersonAbsent', 0.25], ['Activity', 0.1], ['Celebration', 0.05], ['Travel', 0.05],
  ] as const;
  const eventType = () => {
    let u = random();
    for (const [type, share] of eventTypes) if ((u -= share) < 0) return type;
    return 'Custom';
  };
  const avoids = ['nøtter', 'skalldyr', 'gluten', 'laktose', 'svinekjøtt', 'koriander', 'sopp', 'fisk'];
  const mealEvents = Array.from({ length: Math.round(scale.weeks * scale.eventsPerWeek) }, () => {
    const day = start + between(0, scale.weeks * 7 - 1) * DAY;
    const type = eventType();
    const memberRow = (m: { id: string }, isPresent: boolean) => ({ id: randomUUID(), householdMemberId: m.id, isPresent, guestType: null, guestCount: 0, dietaryNotes: null, avoids: [] });
    const guests = () =>
      Array.from({ length: between(1, 2) }, (_, g) => ({
        id: randomUUID(),
        householdMemberId: null,
        isPresent: true,
        guestType: g === 0 ? 'Adult' : pick(['Child', 'Baby']),
        guestCount: between(1, 4),
        dietaryNotes: random() < 0.2 ? 'En av gjestene er vegetarianer' : null,
        avoids: Array.from({ length: between(0, 3) }, () => pick(avoids)).filter((a, k, all) => all.indexOf(a) === k),
      }));
    const participants =
      type === 'Guests' || type === 'Celebration'
        ? [...members.map((m) => memberRow(m, true)), ...guests()]
        : type === 'PersonAbsent'
          ? [memberRow(pick(members), false)]
          : [];
    return {
      id: randomUUID(),
      date: date(day),
      eventType: type,
      servingTime: random() < 0.4 ? pick(['17:00', '17:30', '18:30', '19:00']) : null,
      availableCookingMinutes: type === 'Activity' ? pick([20, 25, 30]) : null,
      notes: random() < 0.3 ? pick(['Håndballkamp', 'Bursdag til Emma', 'Middag hos svigers', 'Jobbreise til Bergen', 'Foreldremøte']) : null,
      participants,
      createdAt: at(day - 5 * DAY),
      updatedAt: at(day - 4 * DAY),
    };
  });
  return mealEvents;
}

/** The pantry log: per week the trip's 34, a second shop's 26 and 36 by hand; merges, rejections, unit weights. */
function makePantry(m: Maker) {
  const { random, pick, between, at, date, start, scale } = m;
  const storage = (unit: string) => (unit === 'g' && random() < 0.3 ? 'Freezer' : pick(['Fridge', 'Pantry', 'Pantry', 'Unknown']));
  const observation = (when: number, observationType: string) => {
    const [displayName, unit] = pick(FOODS);
    return {
      id: randomUUID(),
      foodKey: displayName,
      displayName,
      observationType,
      quantity: observationType === 'Gone' ? 0 : unit === 'g' ? between(1, 10) * 100 : between(1, 6),
      unit,
      storageLocation: storage(unit),
      confidence: observationType === 'Estimated' ? 0.6 : observationType === 'Purchased' ? 1 : 0.9,
      bestBefore: random() < 0.4 ? date(when + between(2, 30) * DAY) : null,
      observedAt: at(when),
    };
  };
  const observations: ReturnType<typeof observation>[] = [];
  const tripObservations: string[][] = [];
  for (let w = 0; w < scale.weeks; w++) {
    const saturday = start + w * 7 * DAY - 2 * DAY + 11 * 3_600_000;
    const trip = Array.from({ length: 34 }, () => observation(saturday, 'Purchased'));
    tripObservations.push(trip.map((o) => o.id));
    observations.push(...trip);
    for (let k = 0; k < 26; k++) observations.push(observation(saturday + 4 * DAY, 'Purchased'));
    for (let k = 0; k < 36; k++) observations.push(observation(saturday + between(0, 6) * DAY + between(8, 22) * 3_600_000, pick(['Seen', 'Used', 'Used', 'Gone', 'Estimated'])));
  }
  const pairs = Array.from({ length: 100 }, (_, i) => [`vare ${i} fra butikk`, `vare ${i}`] as const);
  const pantry = {
    observations,
    merges: pairs.map(([from, to], i) => ({ fromKey: from, toKey: to, fromDisplayName: from, toDisplayName: to, mergedAt: at(start + i * 17 * DAY) })),
    rejections: pairs.map(([a, b], i) => ({ keyA: `${a} økologisk`, keyB: `${b} lett`, keyADisplayName: `${a} økologisk`, keyBDisplayName: `${b} lett`, decidedAt: at(start + i * 17 * DAY) })),
    unitWeights: pairs.map(([, food], i) => ({ foodKey: food, unit: 'stk', displayName: food, grams: 50 + i * 7, updatedAt: at(start + i * 17 * DAY) })),
  };
  return { pantry, tripObservations };
}

/** Shopping lists: one a plan, 40 lines, closed by a trip that bought 34 of them. */
function makeShoppingLists(m: Maker, plans: ReturnType<typeof makePlans>, tripObservations: readonly string[][]) {
  const { random, pick, between, at } = m;
  const shoppingLists = plans.map((plan, w) => {
    const lines = Array.from({ length: 40 }, (_, k) => {
      const [displayName, unit] = pick(FOODS);
      const quantity = unit === 'g' ? between(1, 10) * 100 : between(1, 4);
      const bought = k < 34;
      const days = plan.days.filter((d) => d.recipeId !== null);
      const related = days.length === 0 ? [] : [pick(days).id, ...(random() < 0.3 ? [pick(days).id] : [])].filter((d, j, all) => all.indexOf(d) === j);
      return {
        id: randomUUID(),
        foodKey: displayName,
        displayName,
        requiredQuantity: quantity,
        unit,
        extraQuantity: 0,
        status: bought ? 'Purchased' : 'Buy',
        purchasedQuantity: bought ? quantity : 0,
        purchasedUnit: bought ? unit : null,
        reasonCode: k >= 36 ? 'Manual' : random() < 0.2 ? 'PartlyInPantry' : 'Planned',
        haveQuantity: 0,
        relatedPlanEntryIds: k >= 36 ? [] : related,
        isManual: k >= 36,
        addedAfterShopping: false,
        aisle: pick(['Frukt og grønt', 'Meieri', 'Kjøtt', 'Fisk', 'Tørrvarer', 'Frysevarer', 'Brød']),
        suggestedPrice: random() < 0.8 ? between(990, 8990) / 100 : null,
        suggestedProductName: random() < 0.8 ? `${displayName[0]!.toUpperCase()}${displayName.slice(1)} ${between(1, 5) * 100} g` : null,
        suggestedPriceSource: random() < 0.8 ? 'FoodTable' : 'None',
        suggestedPriceIsAggregate: random() < 0.3,
        tickNotified: bought,
        preferenceFit: 'Fits',
      };
    });
    const generated = Date.parse(`${plan.weekStart}T00:00:00Z`) - 3 * DAY;
    return {
      id: randomUUID(),
      planId: plan.id,
      generatedAt: at(generated),
      completedAt: at(generated + DAY + 12 * 3_600_000),
      skippedReferences: [],
      addedReferences: [],
      trip: {
        summary: { linesBought: 34, linesLeft: 6, observationsWritten: 34 },
        observationIds: tripObservations[w]!,
        closingTicks: lines.map((l) => ({ lineId: l.id, status: l.status, purchasedQuantity: l.purchasedQuantity, purchasedUnit: l.purchasedUnit })),
      },
      lines,
      madeFor: Object.fromEntries(plan.days.flatMap((d) => (d.recipeId ? [[d.date, { recipeId: d.recipeId, portions: d.portionsOverride ?? 4 }]] : []))),
      wouldAdd: Array.from({ length: between(0, 3) }, () => {
        const [displayName, unit] = pick(FOODS);
        return { foodKey: displayName, displayName, quantity: 1, unit };
      }),
      staleSince: null,
    };
  });
  return shoppingLists;
}

interface Parts {
  readonly members: readonly object[];
  readonly recipes: ReturnType<typeof makeRecipes>;
  readonly plans: unknown;
  readonly mealEvents: unknown;
  readonly pantry: unknown;
  readonly shoppingLists: unknown;
}

/** Writes the document: the head, each recipe with its picture made as it goes, then the other parts whole. */
async function writeParts(file: string, fresh: Record<string, unknown>, m: Maker, { members, recipes, plans, mealEvents, pantry, shoppingLists }: Parts): Promise<Size> {
  const { at, end, scale } = m;
  const size: Size = { pictures: 0, pictureBytes: 0, parts: {}, total: 0, totalChars: 0 };
  const out = createWriteStream(file);
  const write = (part: string, text: string) => {
    const bytes = Buffer.byteLength(text);
    const counted = (size.parts[part] ??= { bytes: 0, chars: 0 });
    counted.bytes += bytes;
    counted.chars += text.length;
    size.total += bytes;
    size.totalChars += text.length;
    return writeOut(out, text);
  };
  const { recipes: _r, plans: _p, mealEvents: _m, pantry: _y, shoppingLists: _s, ...head } = fresh;
  await write('settings and members', `${JSON.stringify({ ...head, exportedAt: at(end), members }).slice(0, -1)},"recipes":[`);
  const sizes = pictureSizes(scale.recipes, scale.pictureKb * KB);
  for (const [i, recipe] of recipes.entries()) {
    const picture = jpeg(1200, 800, sizes[i]!);
    if (i === 0) {
      // The import keeps a picture only when inspectImage does: a padding that broke it would fail the whole import.
      const inspected = await inspectImage(picture);
      if (!inspected.ok || inspected.mediaType !== 'image/jpeg') throw new Error(`the made picture is not a JPEG to inspectImage: ${JSON.stringify(inspected)}`);
    }
    const data = picture.toString('base64');
    size.pictures += data.length;
    size.pictureBytes += picture.length;
    const text = JSON.stringify({ ...recipe, image: { sourceUrl: recipe.imageUrl, mediaType: 'image/jpeg', data: '' } });
    // The data goes in as it is (base64 needs no escaping), so the recipe's own text is counted apart from it.
    const at = text.lastIndexOf('"data":""') + '"data":"'.length;
    await write('recipes (text)', `${i > 0 ? ',' : ''}${text.slice(0, at)}`);
    await write('pictures (base64)', data);
    await write('recipes (text)', text.slice(at));
  }
  await write('plans', `],"plans":${JSON.stringify(plans)}`);
  await write('meal events', `,"mealEvents":${JSON.stringify(mealEvents)}`);
  await write('pantry', `,"pantry":${JSON.stringify(pantry)}`);
  await write('shopping lists', `,"shoppingLists":${JSON.stringify(shoppingLists)}}`);
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return size;
}

/** Writes, waiting when the stream's buffer is full. */
const writeOut = (out: WriteStream, text: string): Promise<void> =>
  out.write(text) ? Promise.resolve() : new Promise((resolve) => out.once('drain', () => resolve()));

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

/** How many there are of each part of a household document. */
function countsOf(doc: Record<string, unknown>): Record<string, number> {
  const d = doc as { recipes: { image: unknown }[]; plans: unknown[]; mealEvents: unknown[]; shoppingLists: { lines: unknown[] }[]; pantry: Record<string, unknown[]> };
  return {
    recipes: d.recipes.length,
    pictures: d.recipes.filter((r) => r.image !== null).length,
    plans: d.plans.length,
    mealEvents: d.mealEvents.length,
    observations: d.pantry['observations']!.length,
    merges: d.pantry['merges']!.length + d.pantry['rejections']!.length + d.pantry['unitWeights']!.length,
    shoppingLists: d.shoppingLists.length,
    lines: d.shoppingLists.reduce((n, l) => n + l.lines.length, 0),
  };
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
