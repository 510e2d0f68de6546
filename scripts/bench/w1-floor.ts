/**
 * W1's floor: how close to its baselines can ANY implementation of GET /api/v1/me on Koa come on this machine?
 * One process (this file with --serve) holds the real service, W1's two baselines (bare node:http and bare
 * Koa + @koa/router answering the very bytes of one real /me answer) and three Koa + @koa/router servers (floors.ts) that each
 * do a little more of what the API's conventions ask of every signed-in answer, with everything else made as cheap as it can be:
 *
 * - F1, the least any implementation does per request: find the session cookie in the Cookie header and the
 *   caller in a Map keyed by the raw token (no hashing, no freshness check), start a trace (X-Trace-Id,
 *   traceparent from a pooled random id), time the request (Server-Timing: total, db with its count), set the same
 *   headers, and answer the caller's /me bytes serialized once in advance.
 * - F2: F1, plus a per-account rate-limit count (a Map, fixed window) and the body serialized per request.
 * - F3: F2, with session and memberships read by two awaited functions inside one AsyncLocalStorage run that
 *   carries the request's db accounting, as Server-Timing's per-request query count asks.
 *
 * The service does all of F3 and more (a freshness check before each kept value, hashed tokens, validation,
 * the API's other conventions). If F1 misses a W1 target, no implementation on Koa meets it here.
 *   tsx scripts/bench/w1-floor.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { FLOOR_NAMES, FLOORS, startFloors, type Floor } from './floors.js';
import { announce, orStop, benchService, emit, measure, meBaselines, measureMeBaselines, meRows, progress, spawnService, stopService, workloadArgs, type Figures } from './lib.js';

interface Served {
  appUrl: string;
  bareUrl: string;
  koaUrl: string;
  floorUrls: Record<Floor, string>;
  cookie: string;
}

async function serve(): Promise<void> {
  const { app, cookie } = await benchService('w1-floor');
  await orStop(app, async () => {
    const { sample, headers, ...baselines } = await meBaselines(app.url, cookie);
    const floors = await startFloors(FLOORS, cookie, sample, headers);
    announce(
      { appUrl: app.url, bareUrl: baselines.bareUrl, koaUrl: baselines.koaUrl, floorUrls: floors.urls, cookie } satisfies Served,
      async () => {
        baselines.close();
        floors.close();
        await app.stop();
      },
    );
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  const { info, child } = await spawnService<Served>('scripts/bench/w1-floor.ts');
  try {
    const load = { headers: { Cookie: info.cookie }, connections, seconds };
    const baselines = await measureMeBaselines(`W1 floor ${db}`, info, load);
    const subjects: [string, Figures][] = [];
    for (const f of FLOORS) {
      progress(`W1 floor ${db}: ${FLOOR_NAMES[f]}`);
      subjects.push([FLOOR_NAMES[f], await measure(`${info.floorUrls[f]}/api/v1/me`, load)]);
    }
    progress(`W1 floor ${db}: GET /api/v1/me`);
    subjects.push(['GET /api/v1/me (the service)', await measure(`${info.appUrl}/api/v1/me`, load)]);
    emit(subjects.flatMap(([subject, figures]) => meRows('W1 floor', db, subject, figures, baselines)), json);
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
