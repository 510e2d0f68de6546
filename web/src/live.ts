import { effect, signal } from '@preact/signals';
import type { paths } from './api/schema';
import { api } from './api';
import { flush } from './offline';
import { forgetPerson, me } from './state';

// The service's live stream of changes to the person's households (GET /api/v1/me/changes, server-sent events).
// It says only which households changed; the screens read them again as they always do (the list's ETag makes an
// unchanged list a 304). The path is checked against the service's own OpenAPI document like every other call.
const CHANGES = '/api/v1/me/changes' satisfies keyof paths;

/** How often a screen reads its data again while the stream is down (the ETag poll). */
export const POLL_MS = 5000;
/** How long to wait before opening a stream the service closed for good (a newer tab took its place). */
const REOPEN_MS = 30_000;

/** Changes heard, per household: a screen reads its household's count and reads again when it moves. */
export const changesOf = signal<Readonly<Record<string, number>>>({});
/** Whether the stream is open; while it is not, screens poll. */
export const live = signal(false);
/** The stream failed (not merely opening yet): screens say that they poll. */
export const liveDown = signal(false);

let source: EventSource | null = null;
let reopen: ReturnType<typeof setTimeout> | null = null;

function heard(households: readonly string[]): void {
  const next = { ...changesOf.value };
  for (const id of households) next[id] = (next[id] ?? 0) + 1;
  changesOf.value = next;
}

const households = (e: MessageEvent<string>): string[] => {
  try {
    const ids = (JSON.parse(e.data) as { households?: unknown }).households;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
};

function open(): void {
  if (reopen) clearTimeout(reopen);
  reopen = null;
  source?.close();
  const s = new EventSource(CHANGES);
  source = s;
  s.addEventListener('ready', (e) => {
    live.value = true;
    liveDown.value = false;
    // The stream is back, so is the network: what waits goes now.
    void flush();
    // Its households are read again: a change made after a screen first read them and before the stream was
    // watching would otherwise be missed until the next one (a 304 when nothing changed). The browser opening a
    // dropped stream again also sends the last event's id, and the service names what changed meanwhile too.
    heard(households(e as MessageEvent<string>));
  });
  s.addEventListener('changed', (e) => heard(households(e as MessageEvent<string>)));
  s.addEventListener('end', (e) => {
    const reason = (() => {
      try {
        return (JSON.parse((e as MessageEvent<string>).data) as { reason?: string }).reason;
      } catch {
        return undefined;
      }
    })();
    // The service stopping: the browser opens the stream again by itself once it is back.
    if (reason === 'closing') return;
    s.close();
    live.value = false;
    liveDown.value = true;
    // The sign-in ended (signed out, revoked, expired): the page forgets the person now, not at its next call.
    // Replaced: try again later.
    if (reason === 'replaced') reopen = setTimeout(() => open(), REOPEN_MS);
    else source = null;
    if (reason === 'signed-out') void forgetPerson('elsewhere');
  });
  s.onerror = () => {
    live.value = false;
    liveDown.value = true;
    if (s.readyState !== EventSource.CLOSED || source !== s) return;
    // A stream refused (a 401, a proxy's error page) is closed for good by the browser, which does not say why.
    // Most often the sign-in ended while the stream was away: one read of the person tells, and its 401 forgets
    // them at once (through the app's 401 hook) rather than when a screen next reads. Else poll, and try later.
    void api.GET('/api/v1/me').catch(() => undefined);
    reopen = setTimeout(() => open(), REOPEN_MS);
  };
}

function close(): void {
  if (reopen) clearTimeout(reopen);
  reopen = null;
  source?.close();
  source = null;
  live.value = false;
  liveDown.value = false;
}

// Open while someone is signed in; closed when they sign out.
effect(() => {
  if (me.value) {
    if (!source) open();
  } else close();
});
