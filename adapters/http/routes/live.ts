import type { ServerResponse } from 'node:http';
import * as v from 'valibot';
import type { LiveEndReason, LiveStreams } from '../../../core/households/live.js';
import { CURSOR_MAX } from '../../../core/households/live.js';
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
 * The stream's frames written to the response as they come, once its head has gone out (`start`). The head goes
 * after the middleware has added its own headers (the trace, Server-Timing): on the turn after the handler answered.
 * Writing to the response itself rather than through a PassThrough handed to Koa as the body saves each open stream
 * the stream between and the listeners Koa and the pipe put on both (W11 in docs/performance.md).
 */
function responseOut(res: ServerResponse): Out & { end(text: string): void; start(): void } {
  let held: string | null = '';
  let ending = false;
  const open = () => !res.writableEnded && !res.destroyed;
  return {
    write(text) {
      if (held !== null) held += text;
      else if (open()) res.write(text);
    },
    end(text) {
      if (held !== null) {
        held += text;
        ending = true;
      } else if (open()) res.end(text);
    },
    start() {
      setImmediate(() => {
        const first = held ?? '';
        held = null;
        if (!open()) return;
        if (ending) res.end(first);
        else res.write(first);
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
    const out = responseOut(ctx.res);
    let ended = false;
    const finish = (reason: LiveEndReason) => {
      if (ended) return;
      ended = true;
      deps.heartbeat.untrack(out);
      out.end(frame('end', { reason }));
    };
    const lastEventId = ctx.get('Last-Event-ID');
    const stream = await deps.live.open(
      { accountId: caller.account.id, sessionKey: caller.session.tokenHash },
      lastEventId === '' ? null : lastEventId,
      {
        ready: (households, cursor) => out.write(`retry: ${RETRY_MS}\n${frame('ready', { households }, cursor)}`),
        changed: (households, cursor) => out.write(frame('changed', { households }, cursor)),
        end: (reason) => finish(reason),
      },
    );
    // The client went away: the stream is closed on our side too (nothing is written to a gone socket).
    ctx.res.once('close', () => {
      ended = true;
      deps.heartbeat.untrack(out);
      stream.close();
    });
    if (!ended) deps.heartbeat.track(out);
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-store');
    // A reverse proxy (nginx) passes each event on at once instead of buffering the response.
    ctx.set('X-Accel-Buffering', 'no');
    // The response is written here (responseOut), not by Koa.
    ctx.respond = false;
    out.start();
  },
});

export const liveRoutes = (live: LiveStreams, options: { heartbeatMs: number }) => mount({ live, heartbeat: heartbeat(live, options.heartbeatMs) }, [streamChangesRoute]);
