import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/**
 * A response that stays open for as long as the client listens (the live stream), written after its head has gone
 * out: onto its socket taken off Node's HTTP server, or onto the response itself where that cannot be done.
 *
 * Why take the socket: Node's server keeps, for every response not yet ended, the request and the response, the
 * connection's parser (native memory of its own) and what the middleware hung on them (Koa's context, the finish
 * listeners). Held open, a bare Node response costs some 15-23 kB of the process's memory, Koa's and the route's
 * objects as much again; a socket alone some 3-7 kB (W11 in docs/performance.md). Once the head is out and the
 * request was read whole, the server lets go of the connection the way it does for an upgraded one: its listeners
 * taken off the socket, the parser freed, the response forgotten. The body goes on as the head said (chunked, or
 * until the connection closes, for an HTTP/1.0 client), and the connection closes at its end (`Connection: close` is
 * in the head: the socket does not go back to the server for another request).
 */
export interface LongAnswer {
  /** Sends text (written at once, never held back: an event source wants each event as it comes). */
  write(text: string): void;
  /** Sends the last text and closes the connection. */
  end(text: string): void;
  /** Whether the client is gone or the answer ended. */
  readonly closed: boolean;
}

/** What Node's http module does for an upgraded connection, where it can be reached: its parser freed and pooled. */
interface NodeHttpCommon {
  freeParser(parser: unknown, req: IncomingMessage | null, socket: Socket): void;
}

const httpCommon = ((): NodeHttpCommon | null => {
  try {
    const common = createRequire(import.meta.url)('_http_common') as Partial<NodeHttpCommon>;
    return typeof common.freeParser === 'function' ? (common as NodeHttpCommon) : null;
  } catch {
    return null;
  }
})();

/** How long an ended answer's last bytes may take to go out before the connection is closed anyway. */
const LINGER_MS = 5_000;

/** The listeners Node's server puts on each connection (node/lib/_http_server.js; test/adapters/long-answer.test.ts checks them on each Node line the tests run on). */
const SERVER_LISTENERS: Readonly<Record<string, string>> = {
  data: 'bound socketOnData',
  end: 'bound socketOnEnd',
  close: 'bound socketOnClose',
  drain: 'bound socketOnDrain',
  error: 'socketOnError',
  timeout: 'socketOnTimeout',
};
/** Without these the connection would not be Node's server's as this module knows it: it is left to the server. */
const REQUIRED = ['data', 'end', 'close', 'error'];

interface ParsedSocket extends Socket {
  parser?: { incoming?: unknown } | null;
  _httpMessage?: unknown;
}

/**
 * Takes the answered request's connection off Node's server: null (nothing changed) when it cannot be taken as it
 * is known to be here (another request already read on it, a body not read whole, the head not sent, Node's
 * internals not as expected). Called on a later turn than the request's event, once Node has parsed all that came
 * with it (a request read behind it then shows as the parser's, and the connection is left to the server).
 */
export function takeSocket(req: IncomingMessage, res: ServerResponse): Socket | null {
  const socket = res.socket as ParsedSocket | null;
  if (!httpCommon || !socket || socket.destroyed || !res.headersSent || !req.complete) return null;
  const parser = socket.parser;
  if (!parser || parser.incoming !== req || socket._httpMessage !== res || typeof res.detachSocket !== 'function') return null;
  const found = Object.entries(SERVER_LISTENERS).map(([event, name]) => [event, socket.listeners(event).find((l) => l.name === name)] as const);
  if (REQUIRED.some((event) => !found.find(([e, l]) => e === event && l))) return null;
  res.detachSocket(socket);
  for (const [event, listener] of found) if (listener) socket.off(event, listener as (...args: unknown[]) => void);
  // What the answer's middleware left on the connection (Koa's on-finished, holding its context) goes with it.
  socket.removeAllListeners('close');
  socket.removeAllListeners('error');
  httpCommon.freeParser(parser, req, socket);
  return socket;
}

/**
 * The answer's body after its head: onto the socket taken from the server, or onto the response. `onClose` is called
 * once, when the client has gone or the body ended.
 */
export function longAnswer(req: IncomingMessage, res: ServerResponse, onClose: () => void, options: { lingerMs?: number } = {}): LongAnswer {
  const socket = takeSocket(req, res);
  if (!socket) return responseAnswer(res, onClose);
  // Nothing below may name `req` or `res`: a closure that did would keep them, and Koa's context, for as long as
  // the stream is open (the closures of one function share its scope).
  const chunked = res.chunkedEncoding;
  const framed = (text: string) => (chunked ? `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : text);
  const onSocket = answer(
    (text) => socket.write(framed(text)),
    (text) => {
      socket.end((text === '' ? '' : framed(text)) + (chunked ? '0\r\n\r\n' : ''));
      // A client that reads nothing more would keep the connection, ended on our side, for as long as it likes (and
      // a stopping service waiting for it): after a while it is closed whatever is left unsent.
      setTimeout(() => socket.destroy(), options.lingerMs ?? LINGER_MS).unref();
    },
    onClose,
  );
  socket.on('close', onSocket.close);
  // A reset or a write to a gone client: the socket closes, and that is all there is to say.
  socket.on('error', () => socket.destroy());
  // Nothing more is read on this connection: a client that sends more (or stops sending) is done with it.
  socket.on('data', () => socket.destroy());
  socket.on('end', () => socket.destroy());
  socket.resume();
  if (socket.destroyed) onSocket.close();
  return onSocket;
}

/** The body written onto the response, which Node's server keeps until it ends. */
function responseAnswer(res: ServerResponse, onClose: () => void): LongAnswer {
  const onResponse = answer((text) => res.write(text), (text) => res.end(text), onClose);
  res.once('close', onResponse.close);
  if (res.destroyed || res.writableEnded) onResponse.close();
  return onResponse;
}

/** An answer that sends with `send` and ends with `finish`, and calls `onClose` once, when it ends or its client goes. */
function answer(send: (text: string) => void, finish: (text: string) => void, onClose: () => void): LongAnswer & { close(): void } {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClose();
  };
  return {
    write(text) {
      if (!closed && text !== '') send(text);
    },
    end(text) {
      if (closed) return;
      finish(text);
      close();
    },
    get closed() {
      return closed;
    },
    close,
  };
}
