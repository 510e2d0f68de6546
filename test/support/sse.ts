/** One server-sent event as a browser's EventSource would hand it over (comments kept apart). */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
  readonly retry: number | undefined;
}

/**
 * A server-sent events stream read over a real connection, parsed as the HTML standard says (lines of
 * `field: value`, an empty line ending an event, `:` lines being comments).
 */
export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** Every event so far, in order. */
  readonly events: SseEvent[];
  /** How many comment lines came (the heartbeat). */
  readonly comments: number;
  /** Whether the server ended the response. */
  readonly ended: boolean;
  /** The first event from index `from` on that `match` accepts; rejects after `ms`. */
  next(match: (e: SseEvent) => boolean, ms?: number, from?: number): Promise<SseEvent>;
  /** Resolves when the server has ended the response; rejects after `ms`. */
  closed(ms?: number): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  let comments = 0;
  let ended = false;
  let wake: (() => void) | null = null;
  const woken = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const pump = async () => {
    if (!res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await res.text().catch(() => '');
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    let fields: { event: string; data: string[]; id: string | undefined; retry: number | undefined } = { event: 'message', data: [], id: undefined, retry: undefined };
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
          if (line === '') {
            if (fields.data.length > 0 || fields.id !== undefined) events.push({ event: fields.event, data: fields.data.join('\n'), id: fields.id, retry: fields.retry });
            fields = { event: 'message', data: [], id: undefined, retry: undefined };
            woken();
            continue;
          }
          if (line.startsWith(':')) {
            comments++;
            woken();
            continue;
          }
          const colon = line.indexOf(':');
          const name = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (name === 'event') fields.event = value;
          else if (name === 'data') fields.data.push(value);
          else if (name === 'id') fields.id = value;
          else if (name === 'retry') fields.retry = Number(value);
        }
      }
    } catch {
      // Aborted by close().
    }
  };
  void pump().finally(() => {
    ended = true;
    woken();
  });
  const waitFor = async <T>(found: () => T | undefined, ms: number, what: string): Promise<T> => {
    const until = Date.now() + ms;
    for (;;) {
      const f = found();
      if (f !== undefined) return f;
      const left = until - Date.now();
      if (left <= 0) throw new Error(`${what} not seen within ${ms} ms; events: ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    events,
    get comments() {
      return comments;
    },
    get ended() {
      return ended;
    },
    next: (match, ms = 3000, from = 0) => waitFor(() => events.slice(from).find(match), ms, 'event'),
    closed: (ms = 3000) => waitFor(() => (ended ? true : undefined), ms, 'end of the response').then(() => undefined),
    close: () => abort.abort(),
  };
}
