import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A PNG of `width`×`height` whose pixels `colour` gives (red, green, blue): a picture made here, no file needed. */
export function png(width: number, height: number, colour: (x: number, y: number) => readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rows.set(colour(x, y), y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** A bowl seen from above on a wooden table, its food the colour given: a dish's picture. */
export const bowl = (food: readonly [number, number, number]) =>
  png(320, 240, (x, y) => {
    const r = Math.hypot(x - 160, y - 120);
    if (r < 70) return [food[0] - r / 3, food[1] - r / 3, food[2]];
    if (r < 92) return [245, 243, 236];
    return [150 + ((x + 3 * y) % 40), 105 + ((x + 3 * y) % 25), 70];
  });

/**
 * A site of the test's own serving `files` (path → PNG) and nothing else, let through the service's outbound guard
 * (OUTBOUND_ALLOW_HOSTS, from `env`, for browserSuite) so that the service fetches a recipe's picture from it.
 */
export function pictureSite(files: Readonly<Record<string, Buffer>>) {
  const server = http.createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (file) res.writeHead(200, { 'content-type': 'image/png' }).end(file);
    else res.writeHead(404).end();
  });
  let url = '';
  return {
    /** Where the site answers, once `env` has started it. */
    url: () => url,
    async env() {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      url = `http://127.0.0.1:${port}`;
      return { OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}` };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
