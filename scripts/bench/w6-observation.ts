/**
 * W6: POST inventory/observations (the real route: session, membership, validation, the insert, the food's row
 * derived from all of its observations; session, membership and merges come from the read cache once read, and
 * the food's log is kept under the food's revision once read, so a write that comes right after it adds to it
 * instead of reading it back: on Postgres the insert alone, which answers the revision it moved the food to; on
 * SQLite the insert and a read of that revision) against a bare node:http server that parses the same JSON body and writes the same row with one
 * prepared INSERT (a fresh randomUUID id each time; no session, membership, validation or row read back; it
 * answers the id alone). Both take the same bodies: an observation of one of 200 foods, in turn. One process
 * (this file with --serve) holds both.
 *   tsx scripts/bench/w6-observation.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { announce, bareJsonServer, orStop, benchDatabase, benchService, emit, measure, progress, rawDatabase, rawTarget, spawnService, stopService, throughputRow, workloadArgs, type ServedWithBaseline } from './lib.js';

const FOODS = 200;

interface Served extends ServedWithBaseline {
  householdId: string;
  queries: string;
}

const bodyOf = (i: number) =>
  JSON.stringify({ foodKey: `food ${i % FOODS}`, displayName: `Food ${i % FOODS}`, observationType: 'Purchased', quantity: (i % 5) + 1, unit: 'pcs', storageLocation: 'Fridge', confidence: null });

/** One POST whose body moves on to the next food on every request, the same sequence for either server. */
function observations(): autocannon.Request[] {
  let i = 0;
  return [{ method: 'POST', setupRequest: (request) => ({ ...request, body: bodyOf(i++) }) }];
}

async function serve(): Promise<void> {
  const { normalizeFoodKey } = await import('../../core/kernel/food-key.js');
  const database = benchDatabase();
  const service = await benchService('w6', database);
  const { app, cookie, householdId } = service;
  await orStop(app, async () => {
    const raw = await rawDatabase(rawTarget(service, database));
    const insert = raw.prepare(
      'w6-insert',
      `insert into pantry_observations (id, household_id, food_key, display_name, observation_type, quantity, unit, storage_location, confidence, observed_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    );
    const add = async (text: string): Promise<string> => {
      const b = JSON.parse(text) as { foodKey: string; displayName: string; observationType: string; quantity: number | null; unit: string | null; storageLocation: string | null; confidence: number | null };
      const id = randomUUID();
      await insert.run([id, householdId, normalizeFoodKey(b.foodKey), b.displayName, b.observationType, b.quantity, b.unit, b.storageLocation, b.confidence, new Date().toISOString()]);
      return JSON.stringify({ observationId: id });
    };
    const bare = await bareJsonServer((_req, body) => add(body));
    const bareUrl = bare.url;
    const path = `/api/v1/households/${householdId}/inventory/observations`;
    const post = (url: string, headers: Record<string, string>) => fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: bodyOf(0) });
    const queriesOf = async (res: Response) => {
      if (res.status !== 200) throw new Error(`POST observations answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return /desc="(\d+) queries"/.exec(res.headers.get('Server-Timing') ?? '')?.[1] ?? '?';
    };
    // The first request fills the read cache (session, membership, merges) and keeps food 0's log; the second, to the
    // same food, is what the load sees once every food's log is kept.
    const queries = `${await queriesOf(await post(app.url, { Cookie: cookie }))} SQL statements on the first request, ${await queriesOf(await post(app.url, { Cookie: cookie }))} on the next`;
    const own = await post(bareUrl, {});
    if (own.status !== 200) throw new Error(`the baseline answered ${own.status}: ${await own.text()}`);
    await own.arrayBuffer();
    announce({ appUrl: app.url, bareUrl, cookie, householdId, queries } satisfies Served, async () => {
      bare.close();
      await raw.close();
      await app.stop();
    });
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  const { info, child } = await spawnService<Served>('scripts/bench/w6-observation.ts');
  try {
    const path = `/api/v1/households/${info.householdId}/inventory/observations`;
    const headers = { 'Content-Type': 'application/json' };
    // The service first: the baseline's rows would otherwise lengthen the food logs the service reads back.
    progress(`W6 ${db}: POST inventory/observations`);
    const subject = await measure(info.appUrl + path, { headers: { ...headers, Cookie: info.cookie }, connections, seconds, requests: observations() });
    progress(`W6 ${db}: bare node:http + one prepared INSERT`);
    const baseline = await measure(info.bareUrl + path, { headers, connections, seconds, requests: observations() });
    emit(
      [
        throughputRow(
          {
            workload: 'W6',
            db,
            subject: 'POST inventory observation',
            baseline: 'bare node:http, 1 prepared INSERT',
            subjectFigures: subject,
            baselineFigures: baseline,
            note: `service: ${info.queries} (session, membership, merges: from the read cache once read; the food's log: kept under its revision once read); ${FOODS} foods in turn`,
          },
          0.5,
        ),
      ],
      json,
    );
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
