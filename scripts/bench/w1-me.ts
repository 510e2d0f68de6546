/**
 * W1: GET /api/v1/me with a session, against (a) a bare node:http server and (b) bare Koa + @koa/router with no
 * middleware, both answering the very bytes and headers of one real /me answer. One process (this file with
 * --serve) holds the service and both baselines, measured one after the other by autocannon in this process.
 *   tsx scripts/bench/w1-me.ts [--db sqlite|postgres] [--seconds 5] [--connections 10] [--json]
 */
import { announce, orStop, benchService, emit, measure, meBaselines, measureMeBaselines, meRows, progress, spawnService, stopService, workloadArgs, type ServedWithBaseline } from './lib.js';

interface Served extends ServedWithBaseline {
  koaUrl: string;
}

async function serve(): Promise<void> {
  const { app, cookie } = await benchService('w1');
  await orStop(app, async () => {
    const baselines = await meBaselines(app.url, cookie);
    announce({ appUrl: app.url, bareUrl: baselines.bareUrl, koaUrl: baselines.koaUrl, cookie } satisfies Served, async () => {
      baselines.close();
      await app.stop();
    });
  });
}

async function drive(): Promise<void> {
  const { db, seconds, connections, json } = workloadArgs();
  const { info, child } = await spawnService<Served>('scripts/bench/w1-me.ts');
  try {
    const load = { headers: { Cookie: info.cookie }, connections, seconds };
    const baselines = await measureMeBaselines(`W1 ${db}`, info, load);
    progress(`W1 ${db}: GET /api/v1/me`);
    const me = await measure(`${info.appUrl}/api/v1/me`, load);
    emit(meRows('W1', db, 'GET /api/v1/me', me, baselines), json);
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
