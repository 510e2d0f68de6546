import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { BODY_TIMEOUT_MS } from '../adapters/http/raw-body.js';
import type { Runtime } from './runtime.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

/**
 * Requests Node's parser refuses before Koa sees them (a NUL or other control character in a header, a broken
 * request line) still get a problem+json 400; one that did not arrive within Node's limit a 408.
 */
function rawProblem(status: number, code: string, detail: string, problemBase: string): string {
  const traceId = randomBytes(16).toString('hex');
  const body = JSON.stringify({ type: `${problemBase}/${code}`, title: status === 408 ? 'Request timeout' : 'Bad request', status, detail, instance: null, code, traceId });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
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
  // Each route holds its body to a deadline of its own (30 s, the household import's upload longer: adapters/http/
  // raw-body.ts withinDeadline); Node's own limit on a whole request is the backstop for a body no route reads.
  const requestTimeout = Math.max(BODY_TIMEOUT_MS, runtime.config.householdImportTimeoutMs) + 5_000;
  const server = createServer({ requestTimeout, headersTimeout: 15_000 }, runtime.app.callback());
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      return socket.end(rawProblem(408, 'request_timeout', 'the request did not arrive in time', runtime.config.problemBaseUrl));
    }
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
