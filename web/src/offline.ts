import { effect, signal } from '@preact/signals';
import { ApiProblem, api, call, type ShoppingItem } from './api';
import { me, whenSigningOut } from './state';

// Ticks made in a store with bad reception: each tick waits in IndexedDB (so a reload or a closed tab keeps it)
// and is sent in the order it was made, each with an Idempotency-Key of its own, so a tick whose answer was lost is
// never applied twice (the service gives the first answer again). The service worker keeps the household data the
// app last read (web/vite.config.ts) so the week and the list open with no network; signing out forgets both.

/** The service worker's copy of the household data (named in web/vite.config.ts). */
const HOUSEHOLD_DATA_CACHE = 'household-data';
const DB_NAME = 'middag';
const STORE = 'ticks';
/** How often waiting ticks are tried again while the network seems to be there. */
const RETRY_MS = 15_000;

export interface WaitingTick {
  readonly seq: number;
  /** The Idempotency-Key it is sent with, every time. */
  readonly key: string;
  /** Whose tick it is: never sent under another person's sign-in. */
  readonly accountId: string;
  readonly householdId: string;
  readonly itemId: string;
  readonly status: ShoppingItem['status'];
}

/** The ticks not yet taken by the service, oldest first. */
export const waiting = signal<readonly WaitingTick[]>([]);
/** Whether the browser believes it has a network. */
export const online = signal(typeof navigator === 'undefined' ? true : navigator.onLine);

let opened: Promise<IDBDatabase> | null = null;
const database = (): Promise<IDBDatabase> =>
  (opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'seq' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }));

async function inStore<T>(mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await database();
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const req = work(t.objectStore(STORE));
    t.oncomplete = () => resolve(req.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  });
}

/** A key from the browser's random source (crypto.randomUUID needs https, which a home server may not have). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Sequence numbers of ticks, made here so that a tick shows at once: rising over reloads (the clock's milliseconds,
// or one more than the last when ticks come faster).
let lastSeq = 0;
const nextSeq = () => (lastSeq = Math.max(lastSeq + 1, Date.now()));

/** What happened to one tick: taken by the service, or waiting for the network. A refusal rejects with the ApiProblem. */
export type TickOutcome = 'sent' | 'waiting';
const outcomes = new Map<number, { resolve: (o: TickOutcome) => void; reject: (e: unknown) => void }>();
const settle = (seq: number, o: TickOutcome | { error: unknown }) => {
  const w = outcomes.get(seq);
  outcomes.delete(seq);
  if (!w) return;
  if (typeof o === 'string') w.resolve(o);
  else w.reject(o.error);
};

/** Screens that show a line hear its answer before the tick stops waiting, so nothing flickers back. */
const sentListeners = new Set<(item: ShoppingItem, householdId: string) => void>();
export function whenTickSent(listener: (item: ShoppingItem, householdId: string) => void): () => void {
  sentListeners.add(listener);
  return () => void sentListeners.delete(listener);
}

/** Ticks (or unticks) a line: kept at once, sent now or as soon as the network allows. */
export async function queueTick(tick: Omit<WaitingTick, 'seq' | 'key'>): Promise<TickOutcome> {
  const entry: WaitingTick = { ...tick, key: newKey(), seq: nextSeq() };
  const seq = entry.seq;
  // Shown at once; kept before it is sent, so that a tick sent and forgotten is not written back afterwards.
  waiting.value = [...waiting.value, entry];
  await inStore('readwrite', (s) => s.add(entry));
  const outcome = new Promise<TickOutcome>((resolve, reject) => outcomes.set(seq, { resolve, reject }));
  void flush();
  return outcome;
}

async function forget(seq: number): Promise<void> {
  await inStore('readwrite', (s) => s.delete(seq));
  waiting.value = waiting.value.filter((w) => w.seq !== seq);
}

let flushing: Promise<void> | null = null;
/** Sends the waiting ticks in order; stops at the first that the network does not carry. */
export function flush(): Promise<void> {
  return (flushing ??= send().finally(() => (flushing = null)));
}

async function send(): Promise<void> {
  for (;;) {
    const next = waiting.value[0];
    const who = me.value?.user.id;
    if (!next || !who) break;
    // Someone else's tick, left by a sign-in that ended without signing out: never sent under this one.
    if (next.accountId !== who) {
      await forget(next.seq);
      settle(next.seq, { error: new ApiProblem(403, null) });
      continue;
    }
    try {
      const item = await call(
        api.PATCH('/api/v1/households/{householdId}/shopping-items/{itemId}', {
          params: { path: { householdId: next.householdId, itemId: next.itemId }, header: { 'Idempotency-Key': next.key } },
          body: { status: next.status },
        }),
      );
      for (const l of sentListeners) l(item, next.householdId);
      await forget(next.seq);
      settle(next.seq, 'sent');
    } catch (err) {
      const problem = err instanceof ApiProblem ? err : new ApiProblem(0, 'network');
      if (problem.code === 'idempotency_key_in_progress') {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      // No network, a server that is down or busy, or a sign-in to renew: the ticks wait, in order.
      if (problem.status === 0 || problem.status >= 500 || problem.status === 401 || problem.status === 429) {
        for (const w of waiting.value) settle(w.seq, 'waiting');
        return;
      }
      // Refused (the line is gone, the trip was closed): the tick will never be taken, so it stops waiting.
      await forget(next.seq);
      settle(next.seq, { error: problem });
    }
  }
}

/** Forgets the waiting ticks and the kept household data: a family tablet is shared. */
export async function forgetOffline(): Promise<void> {
  for (const w of waiting.value) settle(w.seq, { error: new ApiProblem(401, 'unauthenticated') });
  waiting.value = [];
  await inStore('readwrite', (s) => s.clear()).catch(() => undefined);
  if ('caches' in window) await caches.delete(HOUSEHOLD_DATA_CACHE).catch(() => false);
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    online.value = true;
    void flush();
  });
  window.addEventListener('offline', () => (online.value = false));
  setInterval(() => {
    if (waiting.value.length > 0 && navigator.onLine) void flush();
  }, RETRY_MS);
  whenSigningOut(forgetOffline);
  // Once the person is known (after a reload), what waits for them goes.
  effect(() => {
    if (me.value) void flush();
  });
  // The ticks a closed tab left waiting.
  void inStore('readonly', (s) => s.getAll() as IDBRequest<WaitingTick[]>)
    .then((kept) => {
      for (const k of kept) lastSeq = Math.max(lastSeq, k.seq);
      waiting.value = [...kept, ...waiting.value.filter((w) => !kept.some((k) => k.seq === w.seq))].sort((a, b) => a.seq - b.seq);
      void flush();
    })
    .catch(() => undefined);
}
