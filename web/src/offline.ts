import { effect, signal } from '@preact/signals';
import { ApiProblem, api, dataOf, type ShoppingItem } from './api';
import { addDays, mondayOf } from './screens/week/dates';
import { household, me, today, whenSigningOut } from './state';

// What a shopper does in a store with bad reception (a tick or an untick, a line added, an amount bought, a hand-added
// line removed): each change waits in IndexedDB (so a reload or a closed tab keeps it) and is sent in the order it
// was made, each with an Idempotency-Key of its own, so a change whose answer was lost is never applied twice (the
// service gives the first answer again). The service worker keeps the household data the app last read
// (web/vite.config.ts) so the week and the list open with no network; the end of the sign-in, however it ends,
// forgets both (forgetPerson in web/src/state.ts).

/**
 * The service worker's copy of the app's own files (Workbox's precache, named `workbox-precache-v2-<scope>`): no
 * one's data, and what lets the app open with no network. Every other cache holds answers of the API: the household
 * data cache ('household-data', named in web/vite.config.ts), and whatever an older build of the worker kept under
 * another name.
 */
const APP_SHELL_CACHE_PREFIX = 'workbox-precache';
/** Where Workbox notes when it kept each answer (for expiry): their addresses name the households and weeks read. */
const EXPIRY_NOTES_DB = 'workbox-expiration';
const EXPIRY_NOTES_STORE = 'cache-entries';
/**
 * An answer already on its way when the sign-in ended may be stored by the worker just after its copy was deleted
 * (it stores each answer while the page reads it): the copy is swept once more after this long.
 */
const LATE_ANSWER_MS = 3000;
const DB_NAME = 'middag';
/** Named when only ticks waited; every kind of change waits there now. */
const STORE = 'ticks';
/** How often waiting changes are tried again while the network seems to be there. */
const RETRY_MS = 15_000;

/**
 * How far the service's clock is ahead of this device's, from the Date header of the last write's answer (never a
 * read's: the service worker may answer those from its copy, with an old Date). Half a second is added for the
 * header's whole seconds.
 */
let serviceAhead = 0;
api.use({
  onResponse({ request, response }) {
    const date = Date.parse(response.headers.get('Date') ?? '');
    if (request.method !== 'GET' && Number.isFinite(date)) serviceAhead = date + 500 - Date.now();
    return undefined;
  },
});

/** Who made a change, where, and how it is sent. */
interface Waiting {
  readonly seq: number;
  /** When it was made, by the service's clock as this device last knew it (ms); absent on changes kept by older builds. */
  readonly madeAt?: number;
  /** The Idempotency-Key it is sent with, every time. */
  readonly key: string;
  /** Whose change it is: never sent under another person's sign-in. */
  readonly accountId: string;
  readonly householdId: string;
}

/** One change to a list, as the shopper made it. */
export type Change =
  /** A tick or an untick; with purchasedQuantity, what is in the basket so far (an amount changed). */
  | { readonly kind: 'tick'; readonly itemId: string; readonly status: ShoppingItem['status']; readonly purchasedQuantity?: number; readonly purchasedUnit?: string }
  /** A line added by hand ("2 l melk"), on the list of a plan. */
  | { readonly kind: 'add'; readonly planId: string; readonly displayName: string }
  /** A hand-added line removed (its name, for the sentence when the service refuses it). */
  | { readonly kind: 'remove'; readonly itemId: string; readonly displayName: string };

export type WaitingChange = Waiting & Change;

/** The changes not yet taken by the service, oldest first. */
export const waiting = signal<readonly WaitingChange[]>([]);
/**
 * The changes the service refused when they were sent with nobody waiting for their answer (sent after a reload, or
 * once the network was back), oldest first: each is dropped from the queue, and the list says so in one sentence
 * each (another member's later change of the line, 409 shopping_line_changed, as what they did).
 */
export const refused = signal<readonly { readonly change: WaitingChange; readonly problem: ApiProblem }[]>([]);
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

// Sequence numbers of changes, made here so that a change shows at once: rising over reloads (the clock's milliseconds,
// or one more than the last when changes come faster).
let lastSeq = 0;
const nextSeq = () => (lastSeq = Math.max(lastSeq + 1, Date.now()));

/**
 * What happened to one change: taken by the service, waiting for the network, or taken back before it was sent. A
 * refusal rejects with the ApiProblem.
 */
export type TickOutcome = 'sent' | 'waiting' | 'withdrawn';
const outcomes = new Map<number, { resolve: (o: TickOutcome) => void; reject: (e: unknown) => void }>();
/** Tells whoever waits for a change what became of it; false when nobody waited. */
const settle = (seq: number, o: TickOutcome | { error: unknown }): boolean => {
  const w = outcomes.get(seq);
  outcomes.delete(seq);
  if (!w) return false;
  if (typeof o === 'string') w.resolve(o);
  else w.reject(o.error);
  return true;
};

/**
 * Screens that show a list hear each change's answer (the line ticked or added; null for a line removed) before the
 * change stops waiting, so nothing flickers back.
 */
const sentListeners = new Set<(change: WaitingChange, item: ShoppingItem | null) => void>();
export function whenSent(listener: (change: WaitingChange, item: ShoppingItem | null) => void): () => void {
  sentListeners.add(listener);
  return () => void sentListeners.delete(listener);
}

/** The answers of changes already sent, kept until asked for once (answerTo): the line each made or changed. */
const answered = new Map<number, ShoppingItem | null>();

/**
 * The service's answer to change `seq` (the line an add made), once it is in: for a line removed while its add was
 * already on its way, which the screen then removes as the line the service made.
 */
export function answerTo(seq: number): Promise<ShoppingItem | null> {
  if (answered.has(seq)) {
    const item = answered.get(seq)!;
    answered.delete(seq);
    return Promise.resolve(item);
  }
  return new Promise((resolve) => {
    const stop = whenSent((c, item) => {
      if (c.seq !== seq) return;
      stop();
      answered.delete(seq);
      resolve(item);
    });
  });
}

/** Makes a change to a list: kept at once, sent now or as soon as the network allows. */
export async function queueChange(change: Omit<Waiting, 'seq' | 'key'> & Change): Promise<TickOutcome> {
  const entry = { ...change, key: newKey(), seq: nextSeq(), madeAt: Date.now() + serviceAhead } as WaitingChange;
  const seq = entry.seq;
  // Shown at once; kept before it is sent, so that a change sent and forgotten is not written back afterwards.
  waiting.value = [...waiting.value, entry];
  await inStore('readwrite', (s) => s.add(entry));
  const outcome = new Promise<TickOutcome>((resolve, reject) => outcomes.set(seq, { resolve, reject }));
  void flush();
  return outcome;
}

/** Ticks (or unticks) a line. */
export const queueTick = (tick: Omit<Waiting, 'seq' | 'key'> & Omit<Extract<Change, { kind: 'tick' }>, 'kind'>) => queueChange({ ...tick, kind: 'tick' });

/** The change being sent now, if any: too late to take back. */
let sending: number | null = null;
/**
 * Takes back a change not yet sent (a line added offline and removed again before the network came back): false when
 * it is already on its way, and its answer will come.
 */
export async function withdraw(seq: number): Promise<boolean> {
  if (sending === seq || !waiting.value.some((w) => w.seq === seq)) return false;
  await forget(seq);
  settle(seq, 'withdrawn');
  return true;
}

/** Sends one change, with its key; the line it answers (null for a removal). */
async function sendOne(next: WaitingChange): Promise<ShoppingItem | null> {
  const header = { 'Idempotency-Key': next.key };
  const { householdId } = next;
  if (next.kind === 'add') {
    const path = { householdId, planId: next.planId };
    return dataOf(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/items', { params: { path, header }, body: { displayName: next.displayName } }));
  }
  const path = { householdId, itemId: next.itemId };
  // When it was made, so that a later change by someone else wins (409 shopping_line_changed, said in one line by
  // the list). Sent the same every time: a repeat under the key must be the same request.
  const query = next.madeAt === undefined ? {} : { actedAt: new Date(next.madeAt).toISOString() };
  if (next.kind === 'remove') {
    try {
      await api.DELETE('/api/v1/households/{householdId}/shopping-items/{itemId}', { params: { path, header, query } });
    } catch (err) {
      // Gone already (the other shopper removed it too): what was asked for is so.
      if (!(err instanceof ApiProblem && err.code === 'shopping_item_not_found')) throw err;
    }
    return null;
  }
  const body = { status: next.status, purchasedQuantity: next.purchasedQuantity, purchasedUnit: next.purchasedUnit };
  return dataOf(api.PATCH('/api/v1/households/{householdId}/shopping-items/{itemId}', { params: { path, header, query }, body }));
}

async function forget(seq: number): Promise<void> {
  await inStore('readwrite', (s) => s.delete(seq));
  waiting.value = waiting.value.filter((w) => w.seq !== seq);
}

let flushing: Promise<void> | null = null;
/** Sends the waiting changes in order; stops at the first that the network does not carry. */
export function flush(): Promise<void> {
  return (flushing ??= send().finally(() => (flushing = null)));
}

async function send(): Promise<void> {
  for (;;) {
    const next = waiting.value[0];
    const who = me.value?.user.id;
    if (!next || !who) break;
    // Someone else's change, left by a sign-in that ended without signing out: never sent under this one.
    if (next.accountId !== who) {
      await forget(next.seq);
      settle(next.seq, { error: new ApiProblem(403, null) });
      continue;
    }
    try {
      sending = next.seq;
      const item = await sendOne(next);
      if (next.kind === 'add') answered.set(next.seq, item);
      for (const l of sentListeners) l(next, item);
      await forget(next.seq);
      settle(next.seq, 'sent');
    } catch (err) {
      const problem = err instanceof ApiProblem ? err : new ApiProblem(0, 'network');
      if (problem.code === 'idempotency_key_in_progress') {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      // No network, or a server that is down or busy: the changes wait, in order. (A 401 has already forgotten them
      // with everything else of the person's: a change is never sent under another sign-in.)
      if (problem.status === 0 || problem.status >= 500 || problem.status === 401 || problem.status === 429) {
        for (const w of waiting.value) settle(w.seq, 'waiting');
        return;
      }
      // Refused (the line is gone, the trip was closed): the change will never be taken, so it stops waiting, and
      // the list says so when nobody waits for its answer.
      await forget(next.seq);
      if (!settle(next.seq, { error: problem })) refused.value = [...refused.value, { change: next, problem }];
    } finally {
      sending = null;
    }
  }
}

/** Deletes every answer of the API the service worker kept, and Workbox's notes of them; the app's own files stay. */
async function forgetKeptAnswers(): Promise<void> {
  if (!('caches' in window)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => !name.startsWith(APP_SHELL_CACHE_PREFIX)).map((name) => caches.delete(name)));
  await new Promise<void>((resolve) => {
    const req = indexedDB.open(EXPIRY_NOTES_DB);
    // None kept yet: opening it would make an empty database that the worker could not use, so that is undone.
    req.onupgradeneeded = () => req.transaction?.abort();
    req.onerror = () => resolve();
    req.onsuccess = () => {
      const db = req.result;
      const done = () => {
        db.close();
        resolve();
      };
      if (!db.objectStoreNames.contains(EXPIRY_NOTES_STORE)) return done();
      const t = db.transaction(EXPIRY_NOTES_STORE, 'readwrite');
      t.objectStore(EXPIRY_NOTES_STORE).clear();
      t.oncomplete = done;
      t.onerror = done;
      t.onabort = done;
    };
  });
}

/** The sweep due LATE_ANSWER_MS after a sign-in ended, while it waits; and the last sweep, until it is done. */
let lateSweep: ReturnType<typeof setTimeout> | null = null;
let sweeping: Promise<void> = Promise.resolve();
function sweepNow(): void {
  if (lateSweep !== null) clearTimeout(lateSweep);
  lateSweep = null;
  sweeping = forgetKeptAnswers().catch(() => undefined);
}

/** Forgets the waiting changes and the kept household data: a family tablet is shared. */
export async function forgetOffline(): Promise<void> {
  for (const w of waiting.value) settle(w.seq, { error: new ApiProblem(401, 'unauthenticated') });
  waiting.value = [];
  refused.value = [];
  await inStore('readwrite', (s) => s.clear()).catch(() => undefined);
  await forgetKeptAnswers().catch(() => undefined);
  if (lateSweep !== null) clearTimeout(lateSweep);
  lateSweep = setTimeout(sweepNow, LATE_ANSWER_MS);
}

/**
 * Reads once, through the service worker, what the week and the list need to open with no network: who is signed in,
 * the household, this week's plan, events, evenings and dishes, its list, the recipes and the aisle order. The screens read the same addresses, but a
 * quick first sign-in may read them before the worker controls the page, and then nothing is kept: an offline cold
 * start would show the sign-in screen. Errors change nothing here (the screens say them when they read).
 */
async function keepForOffline(householdId: string): Promise<void> {
  const path = { householdId };
  const monday = mondayOf(today());
  const reads: Promise<unknown>[] = [
    api.GET('/api/v1/me'),
    api.GET('/api/v1/households/{householdId}', { params: { path } }),
    api.GET('/api/v1/households/{householdId}/recipe-summaries', { params: { path, query: { limit: '100' } } }),
    api.GET('/api/v1/households/{householdId}/recipes', { params: { path, query: { limit: '1' } } }),
    api.GET('/api/v1/households/{householdId}/aisle-order', { params: { path } }),
  ];
  // The same queries, in the same order, as the week and the menu's list read them: the worker keeps answers by address.
  const week = { from: monday, to: addDays(monday, 6) };
  reads.push(api.GET('/api/v1/households/{householdId}/events', { params: { path, query: { ...week, limit: '100' } } }));
  const plans = await dataOf(api.GET('/api/v1/households/{householdId}/plans', { params: { path, query: week } }));
  const plan = plans.find((p) => p.weekStart === monday);
  if (plan) {
    const planPath = { householdId, planId: plan.id };
    reads.push(api.GET('/api/v1/households/{householdId}/plans/{planId}', { params: { path: planPath } }));
    reads.push(api.GET('/api/v1/households/{householdId}/plans/{planId}/evenings', { params: { path: planPath } }));
    // The week's dishes, for their cards.
    for (const recipeId of new Set(plan.days.map((d) => d.recipeId).filter((id): id is string => id !== null && !id.includes(':'))))
      reads.push(api.GET('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId } } }));
    reads.push(api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list', { params: { path: planPath } }));
  }
  await Promise.allSettled(reads);
}

/** Resolves once a service worker controls the page (at once when one already does); never without one. */
function controlled(): Promise<void> {
  const sw = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!sw) return new Promise(() => undefined);
  if (sw.controller) return Promise.resolve();
  return new Promise((resolve) => sw.addEventListener('controllerchange', () => resolve(), { once: true }));
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
  // A sign-in within moments of a sign-in's end (a password manager signs in as soon as the first visit's 401 shows
  // the form): the late sweep runs now, before this person's data is kept, instead of deleting it a moment later.
  effect(() => {
    if (me.value && lateSweep !== null) sweepNow();
  });
  // Once the person is known (after a reload), what waits for them goes.
  effect(() => {
    if (me.value) void flush();
  });
  // Once a worker controls the page and someone is signed in to a household, what the list needs offline is read
  // through it: once per person and household for each start of the app (and after a sign-in).
  let kept: string | null = null;
  void controlled().then(() =>
    effect(() => {
      const who = me.value?.user.id;
      const h = household.value?.householdId;
      if (!who || !h || !navigator.onLine || kept === `${who}/${h}`) return;
      kept = `${who}/${h}`;
      // After any sweep still under way: it must not delete what is kept for this person.
      void sweeping.then(() => keepForOffline(h)).catch(() => undefined);
    }),
  );
  whenSigningOut(async () => void (kept = null));
  // The changes a closed tab left waiting (a tick kept by an older build has no kind).
  void inStore('readonly', (s) => s.getAll() as IDBRequest<(WaitingChange | Omit<Extract<WaitingChange, { kind: 'tick' }>, 'kind'>)[]>)
    .then((stored) => {
      const kept = stored.map((k): WaitingChange => ('kind' in k ? k : { ...k, kind: 'tick' }));
      for (const k of kept) lastSeq = Math.max(lastSeq, k.seq);
      waiting.value = [...kept, ...waiting.value.filter((w) => !kept.some((k) => k.seq === w.seq))].sort((a, b) => a.seq - b.seq);
      void flush();
    })
    .catch(() => undefined);
}
