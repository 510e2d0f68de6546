/**
 * The two servers the /me benchmark compares, in one process of their own so that the load generator does not
 * share their event loop: the real service on a fresh SQLite database with a signed-in account and a household,
 * and a bare node:http server answering a fixed JSON body of the same size. Announces {appUrl, bareUrl, cookie}.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce, benchService } from './lib.js';

const { app, cookie } = await benchService('me');
const sample = Buffer.from(await (await fetch(`${app.url}/api/v1/me`, { headers: { Cookie: cookie } })).text());
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': sample.length });
  res.end(sample);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

announce({ appUrl: app.url, bareUrl, cookie }, async () => {
  bare.close();
  await app.stop();
});
