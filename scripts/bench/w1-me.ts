/**
 * W1: GET /api/v1/me with a session against F3, the least a Koa + @koa/router server does for a signed-in answer
 * (scripts/bench/floors.ts: cookie, trace, Server-Timing, a rate-limit count and two awaited reads in one
 * AsyncLocalStorage run, the very bytes and headers of one real /me answer): at least 0.75 of it (issue 32). Bare
 * node:http answering the same bytes stays beside it as the long-term mark (0.50, not a pass condition: no server on
 * Koa reaches it here, docs/performance.md). One process (this file with --serve) holds the service, F3 and the
 * bare server, measured side by side by autocannon in this process (measureSideBySide: 1 s turns of each, forwards
 * and backwards, so that the machine's drifting speed weighs on all three alike).
 *   tsx scripts/bench/w1-me.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { startFloors } from './floors.js';
import { announce, orStop, benchService, emit, markRow, measureSideBySide, meBaselines, progress, spawnService, stopService, throughputRow, workloadArgs, type Figures, type ServedWithBaseline } from './lib.js';

interface Served extends ServedWithBaseline {
  f3Url: string;
}

const F3 = 'F3: Koa + router, cookie, trace, timing, rate count, two awaited reads in AsyncLocalStorage, same bytes';

async function serve(): Promise<void> {
  const { app, cookie } = await benchService('w1');
  await orStop(app, async () => {
    const { sample, headers, ...baselines } = await meBaselines(app.url, cookie);
    const floors = await startFloors(['f3'], cookie, sample, headers);
    announce({ appUrl: app.url, bareUrl: baselines.bareUrl, f3Url: floors.urls.f3, cookie } satisfies Served, async () => {
      baselines.close();
      floors.close();
      await app.stop();
    });
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  const { info, child } = await spawnService<Served>('scripts/bench/w1-me.ts');
  try {
    const load = { headers: { Cookie: info.cookie }, connections, seconds };
    progress(`W1 ${db}: bare node:http, F3 and GET /api/v1/me side by side, ${seconds} s each in 1 s turns`);
    const [bare, f3, me] = (await measureSideBySide([info.bareUrl, info.f3Url, info.appUrl].map((u) => `${u}/api/v1/me`), load)) as [Figures, Figures, Figures];
    const subject = 'GET /api/v1/me';
    const SIDE_BY_SIDE = `side by side, ${seconds} × 1 s turns each`;
    emit(
      [
        throughputRow({ workload: 'W1', db, subject, baseline: F3, subjectFigures: me, baselineFigures: f3, note: SIDE_BY_SIDE }, 0.75),
        markRow({ workload: 'W1', db, subject, baseline: 'bare node:http, same bytes', subjectFigures: me, baselineFigures: bare, note: SIDE_BY_SIDE }, 0.5),
      ],
      json,
    );
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
