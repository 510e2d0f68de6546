import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on loopback serving ICS by path, counting the requests each path got. */
export async function startFeedServer(routes: Record<string, Route>) {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    host: `127.0.0.1:${port}`,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.get(path) ?? 0,
    totalHits: () => [...hits.values()].reduce((a, b) => a + b, 0),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//feeds//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

export const serve =
  (body: string, type = 'text/calendar; charset=utf-8'): Route =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': type }).end(body);

export const redirectTo =
  (location: string, status = 302): Route =>
  (_req, res) =>
    res.writeHead(status, { location }).end();
