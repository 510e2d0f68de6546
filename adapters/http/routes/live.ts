import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import type { LiveEndReason, LiveStreams } from '../../../core/households/live.js';
import { CURSOR_MAX } from '../../../core/households/live.js';
import { longAnswer, type LongAnswer } from '../long-answer.js';
import { mount, resource } from '../route.js';

/** How long a browser waits before it opens a dropped stream again (SSE `retry`). */
const RETRY_MS = 2000;

const DESCRIPTION = [
  "A server-sent events stream (text/event-stream) of changes to the caller's households: whatever one member",
  'changes (a tick on the list, a dish on the week, a pantry observation, a setting, a member), every other open',
  'stream of a member hears within moments, whichever process of the service made the change (on Postgres through',
  'LISTEN/NOTIFY). The events carry no household data, only which households to read again; read them as usual',
  "(the shopping list's ETag makes an unchanged list a 304).",
  '',
  'Events, each with an `id` (a cursor naming the state of every household sent):',
  '- `ready` first, once: `{"households": [id, ...]}`, the households the stream carries;',
  '- `changed`: `{"households": [id, ...]}`, these changed (or were joined) since the last event;',
  '- `end`: `{"reason": "signed-out" | "replaced" | "closing"}`, the stream is over: the sign-in ended (signed out,',
  '  revoked, expired), a newer stream of the same sign-in took its place, or the service is stopping.',
  `A comment line (\`: ping\`) comes every heartbeat (LIVE_HEARTBEAT_MS, default 20 s), when the sign-in is also`,
  'checked again. The stream carries only the households the sign-in belongs to at each moment: a household left is',
  'no longer named, one joined is named in a `changed` event.',
  '',
  'Opened again with `Last-Event-ID` (browsers send it themselves), the stream sends `changed` at once for the',
  `households whose state moved since that cursor; a cursor that cannot be read (or one over ${CURSOR_MAX} characters)`,
  'counts as having seen nothing, so every household is named. One sign-in holds at most LIVE_STREAMS_PER_LOGIN',
  "(default 4) open streams per process: opening one more ends its oldest with `end` `replaced`. When the stream",
  'drops, a client reads the shopping list with `If-None-Match` every few seconds until it is back.',
  '',
  'The connection is the stream\'s alone (`Connection: close`): the body is chunked (over HTTP/1.0, it runs until the',
  'connection closes), the connection closes after the `end` event, and anything more a client sends on it ends it.',
].join('\n');

const frame = (event: string, data: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Where a stream's frames go: the response itself (no stream in between, W11 in docs/performance.md). */
interface Out {
  write(text: string): void;
}

/** One heartbeat for every open stream, running only while one is open. */
function heartbeat(live: LiveStreams, heartbeatMs: number) {
  const open = new Set<Out>();
  let beat: NodeJS.Timeout | null = null;
  return {
    track(out: Out) {
      open.add(out);
      beat ??= setInterval(() => {
        for (const s of open) s.write(': ping\n\n');
        live.recheck();
      }, heartbeatMs).unref();
    },
    untrack(out: Out) {
      open.delete(out);
      if (open.size === 0 && beat) {
        clearInterval(beat);
        beat = null;
      }
    },
  };
}

type LiveRouteDeps = { readonly live: LiveStreams; readonly heartbeat: ReturnType<typeof heartbeat> };

/**
 * The stream's frames, held until its head goes out (`start`), then written as they come (adapters/http/
 * long-answer.ts: onto the connection taken off Node's server, which then keeps neither the request nor the response
 * nor Koa's context for it: W11 in docs/performance.md). The head goes after the middleware has added its own headers
 * (the trace, Server-Timing): on the turn after the handler answered.
 */
function streamOut(req: IncomingMessage, res: ServerResponse, onClose: () => void): Out & { end(text: string): void; start(): void } {
  // Let go of once the answer has started: the closures below outlive the request.
  let request: { req: IncomingMessage; res: ServerResponse } | null = { req, res };
  let held = '';
  let ending = false;
  let answer: LongAnswer | null = null;
  return {
    write(text) {
      if (answer) answer.write(text);
      else held += text;
    },
    end(text) {
      if (answer) answer.end(text);
      else {
        held += text;
        ending = true;
      }
    },
    start() {
      setImmediate(() => {
        const { req, res } = request!;
        request = null;
        const first = held;
        held = '';
        if (ending) {
          if (!res.writableEnded && !res.destroyed) res.end(first);
          onClose();
          return;
        }
        res.flushHeaders();
        answer = longAnswer(req, res, onClose);
        answer.write(first);
      });
    },
  };
}

const streamChangesRoute = resource<LiveRouteDeps>('Households').handledRoute({
  method: 'GET',
  path: '/api/v1/me/changes',
  operationId: 'streamChanges',
  summary: "Hear of changes to the caller's households as they happen (server-sent events)",
  description: DESCRIPTION,
  responses: {
    200: { description: 'The stream (see the operation description for its events)', contentType: 'text/event-stream', schema: v.string() },
  },
  handle: async (ctx, { deps, caller }) => {
    let ended = false;
    let stream: { close(): void } | null = null;
    // The client went away, or the stream's last frame went out: the stream is closed on our side too.
    const closed = () => {
      ended = true;
      deps.heartbeat.untrack(out);
      stream?.close();
    };
    const out = streamOut(ctx.req, ctx.res, closed);
    const finish = (reason: LiveEndReason) => {
      if (ended) return;
      ended = true;
      deps.heartbeat.untrack(out);
      out.end(frame('end', { reason }));
    };
    const lastEventId = ctx.get('Last-Event-ID');
    stream = await deps.live.open(
      { accountId: caller.account.id, sessionKey: caller.session.tokenHash },
      lastEventId === '' ? null : lastEventId,
      {
        ready: (households, cursor) => out.write(`retry: ${RETRY_MS}\n${frame('ready', { households }, cursor)}`),
        changed: (households, cursor) => out.write(frame('changed', { households }, cursor)),
        end: (reason) => finish(reason),
      },
    );
    if (ended) stream.close();
    else deps.heartbeat.track(out);
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-store');
    // A reverse proxy (nginx) passes each event on at once instead of buffering the response.
    ctx.set('X-Accel-Buffering', 'no');
    // The connection is the stream's alone: it closes when the stream ends (adapters/http/long-answer.ts).
    ctx.set('Connection', 'close');
    // The response is written here (streamOut), not by Koa.
    ctx.respond = false;
    out.start();
  },
});

export const liveRoutes = (live: LiveStreams, options: { heartbeatMs: number }) => mount({ live, heartbeat: heartbeat(live, options.heartbeatMs) }, [streamChangesRoute]);
