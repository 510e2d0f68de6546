/**
 * W2: the first page of GET inventory for a household of 5,000 observations over 400 foods, against a bare
 * node:http server that runs the page's SQL as the service's store does, through prepared statements of its own:
 * per request one statement, the log's version (the household's revision), while the log itself (read by a second
 * statement the first time and whenever the version moves, as the store's cache does) stays in memory. It then
 * derives the rows with the same model code, pages them as the service does and serialises the same JSON. What
 * the baseline leaves out: session, membership and merges statements, Koa, validation and logging. One process
 * (this file with --serve) holds both.
 *   tsx scripts/bench/w2-pantry.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { randomUUID } from 'node:crypto';
import type { PantryObservation } from '../../core/pantry/types.js';
import { announce, bareJsonServer, orStop, benchDatabase, benchService, emit, measure, progress, rawDatabase, rawTarget, spawnService, stopService, throughputRow, workloadArgs, type ServedWithBaseline } from './lib.js';

const FOODS = 400;
const OBSERVATIONS = 5000;
/** The first page as the route serves it without a query: no q, place or group. */
const NO_FILTER = { q: null, place: null, group: null } as const;

interface Served extends ServedWithBaseline {
  householdId: string;
  queries: string;
  bytes: number;
}

interface Page {
  items: { foodKey: string }[];
  nextCursor: string | null;
  total: number;
}

async function serve(): Promise<void> {
  const { OBSERVATION_TYPES, STORAGE_LOCATIONS } = await import('../../core/pantry/types.js');
  const { observationRow } = await import('../../adapters/knex/pantry-observation-store.js');
  const { pantryRowsOf, positionOf } = await import('../../core/pantry/model.js');
  const { inventoryCursorScope, matchingRows, INVENTORY_PAGE_DEFAULT } = await import('../../core/pantry/inventory.js');
  const { toPantryRowResponse } = await import('../../adapters/http/routes/pantry-inventory.js');
  const { hmacPageCursors } = await import('../../adapters/crypto/page-cursors.js');
  const { toDate } = await import('../../adapters/knex/rows.js');
  const database = benchDatabase();
  const service = await benchService('w2', database);
  const { runtime, app, cookie, householdId } = service;
  await orStop(app, async () => {
    // A fixed spread over the last 60 days, so that every section gets rows; written in batches (seeding is not measured).
    const now = Date.now();
    const rows = Array.from({ length: OBSERVATIONS }, (_, i) => {
      const food = (i * 7919) % FOODS;
      return observationRow({
        id: randomUUID(),
        householdId,
        foodKey: `food-${food}`,
        displayName: `Food ${food}`,
        observationType: OBSERVATION_TYPES[i % OBSERVATION_TYPES.length]!,
        quantity: (i % 5) + 1,
        unit: 'pcs',
        storageLocation: STORAGE_LOCATIONS[food % STORAGE_LOCATIONS.length]!,
        confidence: null,
        bestBefore: null,
        observedAt: new Date(now - ((OBSERVATIONS - i) / OBSERVATIONS) * 60 * 86_400_000),
      });
    });
    await runtime.db.knex.batchInsert('pantry_observations', rows, 500);

    const raw = await rawDatabase(rawTarget(service, database));
    // The statements of knexPantryObservationStore: the log's version, and the log read, columns and order alike.
    const version = raw.prepare('w2-version', `select revision from household_revisions where household_id = $1`);
    const log = raw.prepare(
      'w2-log',
      `select id, household_id, food_key, display_name, observation_type, quantity, unit, storage_location, confidence, observed_at from pantry_observations where household_id = $1 order by observed_at asc, seq asc`,
    );
    let cache: { version: string; observations: PantryObservation[] } | null = null;
    let logReads = 0;
    const cursors = hmacPageCursors();
    const num = (v: unknown) => (v === null ? null : Number(v));
    const readLog = async (): Promise<PantryObservation[]> =>
      (await log.all([householdId])).map((r) => ({
        id: r['id'] as string,
        householdId: r['household_id'] as string,
        foodKey: r['food_key'] as string,
        displayName: r['display_name'] as string | null,
        observationType: r['observation_type'] as (typeof OBSERVATION_TYPES)[number],
        quantity: num(r['quantity']),
        unit: r['unit'] as string | null,
        storageLocation: r['storage_location'] as (typeof STORAGE_LOCATIONS)[number] | null,
        confidence: num(r['confidence']),
        bestBefore: null,
        observedAt: toDate(r['observed_at']),
      }));
    const page = async (): Promise<string> => {
      const v = (await version.all([householdId]))[0]!;
      const current = String(v['revision']);
      if (cache?.version !== current) {
        cache = { version: current, observations: await readLog() };
        logReads += 1;
      }
      const observations = cache.observations;
      const matching = matchingRows(pantryRowsOf(observations, [], new Date()), NO_FILTER);
      const items = matching.slice(0, INVENTORY_PAGE_DEFAULT);
      const last = items[items.length - 1];
      // The service's cursor scope for this household with no filter, so the cursor is the same bytes.
      const nextCursor = matching.length > items.length && last ? cursors.seal(inventoryCursorScope(householdId, NO_FILTER).scope, positionOf(last).map(String)) : null;
      return JSON.stringify({ items: items.map(toPantryRowResponse), nextCursor, total: matching.length });
    };
    // How often the log was read, for the driver: more than once means the baseline ran more than its statement.
    const bare = await bareJsonServer((req) => (req.url === '/log-reads' ? String(logReads) : page()));
    const bareUrl = bare.url;

    // Both answer the same page, or the comparison means nothing.
    const path = `/api/v1/households/${householdId}/inventory`;
    // The second request of each finds the log cached, as every measured one will.
    await (await fetch(app.url + path, { headers: { Cookie: cookie } })).arrayBuffer();
    await fetch(bareUrl + path).then((r) => r.arrayBuffer());
    const real = await fetch(app.url + path, { headers: { Cookie: cookie } });
    const queries = /desc="(\d+) queries"/.exec(real.headers.get('Server-Timing') ?? '')?.[1] ?? '?';
    const a = (await real.json()) as Page;
    const baseText = await (await fetch(bareUrl + path)).text();
    const b = JSON.parse(baseText) as Page;
    const keys = (p: Page) => p.items.map((i) => i.foodKey).join(',');
    if (keys(a) !== keys(b) || a.total !== b.total || a.nextCursor !== b.nextCursor || a.items.length === 0) {
      throw new Error(`the baseline's page differs from the service's: ${a.total}/${a.items.length} vs ${b.total}/${b.items.length}`);
    }
    announce({ appUrl: app.url, bareUrl, cookie, householdId, queries, bytes: Buffer.byteLength(baseText) } satisfies Served, async () => {
      bare.close();
      await raw.close();
      await app.stop();
    });
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  progress(`W2 ${db}: seeding ${OBSERVATIONS} observations`);
  const { info, child } = await spawnService<Served>('scripts/bench/w2-pantry.ts');
  try {
    const path = `/api/v1/households/${info.householdId}/inventory`;
    progress(`W2 ${db}: bare node:http + one prepared statement`);
    const baseline = await measure(info.bareUrl + path, { connections, seconds });
    progress(`W2 ${db}: GET inventory`);
    const subject = await measure(info.appUrl + path, { headers: { Cookie: info.cookie }, connections, seconds });
    const logReads = Number(await (await fetch(`${info.bareUrl}/log-reads`)).text());
    const row = throughputRow(
      {
        workload: 'W2',
        db,
        subject: `GET inventory page 1 (${OBSERVATIONS} obs.)`,
        baseline: 'bare node:http, 1 prepared statement',
        subjectFigures: subject,
        baselineFigures: baseline,
        note: `service: ${info.queries} SQL statements (the log version; session, membership and merges from the read cache); baseline: the log version only, log held in memory as the store does, same model, page and JSON (${info.bytes} bytes)`,
      },
      0.6,
    );
    // The baseline's cache must have held, or it ran more than its one statement per request.
    emit([logReads === 1 ? row : { ...row, pass: false, note: `${row.note}; INVALID: the baseline read the log ${logReads} times` }], json);
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
