/**
 * The two servers the benchmark compares, in one process of their own so that the load generator does not share
 * their event loop: the real service on a fresh SQLite database with a signed-in account, and a bare node:http
 * server answering a fixed JSON body of the same size. Prints {appUrl, bareUrl, cookie} as one JSON line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.js';
import { createRuntime } from '../../bootstrap/runtime.js';
import { listen } from '../../bootstrap/server.js';

const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  LOG_LEVEL: 'silent',
  RATE_LIMITS: 'auth=1000000/60,anonymous-per-ip=1000000/60,backstop=1000000/60',
});
const runtime = await createRuntime(config);
const app = await listen(runtime, 0, '127.0.0.1');

const register = await fetch(`${app.url}/api/v1/auth/register`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark password', displayName: 'Bench' }),
});
const cookie = /app_session=[^;]+/.exec(register.headers.getSetCookie().join(';'))![0];
await fetch(`${app.url}/api/v1/households`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify({ name: 'Bench' }) });
const sample = await (await fetch(`${app.url}/api/v1/me`, { headers: { Cookie: cookie } })).text();

const body = Buffer.from(sample);
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

process.stdout.write(JSON.stringify({ appUrl: app.url, bareUrl, cookie }) + '\n');
process.on('SIGTERM', () => {
  bare.close();
  void app.stop().then(() => process.exit(0));
});
