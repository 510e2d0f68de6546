import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Runtime } from './runtime.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

/**
 * Requests Node's parser refuses before Koa sees them (a NUL or other control character in a header, a broken
 * request line) still get a problem+json 400.
 */
function rawProblem(status: number, code: string, detail: string, problemBase: string): string {
  const traceId = randomBytes(16).toString('hex');
  const body = JSON.stringify({ type: `${problemBase}/${code}`, title: 'Bad request', status, detail, instance: null, code, traceId });
  return [
    `HTTP/1.1 ${status} Bad Request`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Trace-Id: ${traceId}`,
    'Server-Timing: total;dur=0.0, db;dur=0.0;desc="0 queries"',
    'X-Content-Type-Options: nosniff',
    'Referrer-Policy: no-referrer',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export async function listen(runtime: Runtime, port: number, host: string): Promise<RunningServer> {
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, runtime.app.callback());
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    socket.end(
      rawProblem(tooLarge ? 431 : 400, 'validation_failed', tooLarge ? 'request headers too large' : 'the request could not be parsed (a NUL or control character, or a malformed request line)', runtime.config.problemBaseUrl),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let stopping: Promise<void> | undefined;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    stop: () =>
      (stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Live streams never end by themselves: they end now, and their sockets close as they go idle.
        runtime.live.closeAll();
        server.closeIdleConnections();
        // Keep-alive sockets that turn idle after their last response are closed as they go quiet.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        const force = setTimeout(() => server.closeAllConnections(), 25_000);
        await closed;
        clearInterval(sweep);
        clearTimeout(force);
        await runtime.close();
      })()),
  };
}
