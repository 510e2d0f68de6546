import type { SessionStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdChange, HouseholdChangeFeed } from '../../ports/household-changes.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import { sessionLive } from '../accounts/sessions.js';
import type { AccountId, HouseholdId } from '../kernel/ids.js';

/**
 * The live stream of a sign-in's households: each open stream hears, within moments of the commit, which of the
 * households its sign-in belongs to changed, whichever process of the service made the change. It carries no
 * data, only which households to read again; the app reads them as it always does (the list's ETag makes that
 * cheap). Each event names the state every household of the stream had when it was sent (its cursor), so a stream
 * opened again with the last cursor it saw (SSE's Last-Event-ID) hears at once of what changed while it was away.
 */
export interface LiveDeps {
  readonly changes: HouseholdChangeFeed;
  readonly households: Pick<HouseholdStore, 'membershipsOf'>;
  readonly sessions: Pick<SessionStore, 'lookup'>;
  readonly clock: Clock;
}

/** Why a stream ended. */
export type LiveEndReason = 'signed-out' | 'replaced' | 'closing';

/** Where a stream's events go (the HTTP route writes them as server-sent events). */
export interface LiveSink {
  /** First, once: the households the stream carries, and the cursor naming their state. */
  ready(householdIds: readonly HouseholdId[], cursor: string): void;
  /** These households changed (or were joined) since the cursor last sent; the cursor now names their state. */
  changed(householdIds: readonly HouseholdId[], cursor: string): void;
  /** The stream is over; nothing follows. */
  end(reason: LiveEndReason): void;
}

export interface LiveStream {
  /** The client went away. */
  close(): void;
}

export interface LiveStreams {
  /**
   * Opens a stream for a signed-in caller (the route has authenticated it). `lastEventId`: the cursor of the last
   * event a previous stream delivered, if any; one that cannot be read counts as none seen (every household changed).
   */
  open(caller: { readonly accountId: AccountId; readonly sessionKey: string }, lastEventId: string | null, sink: LiveSink): Promise<LiveStream>;
  /** Checks every stream's sign-in and households again now (a heartbeat: a session also ends by its time). */
  recheck(): void;
  /** How many streams are open. */
  readonly size: number;
  /** Ends every stream (the service stops). */
  closeAll(): void;
}

export interface LiveOptions {
  /** Streams one sign-in may hold open; opening one more ends its oldest ('replaced'). */
  readonly perLogin: number;
  /** A check failed (the database out of reach); it is tried again on the next change or recheck. */
  readonly onError?: (err: unknown) => void;
}

/** Longest Last-Event-ID read; a longer one counts as unreadable. */
export const CURSOR_MAX = 8192;

/** `<household id>:<state>` pairs joined by commas, each part URI-encoded: no line break can reach the SSE frame. */
export function encodeCursor(seen: ReadonlyMap<HouseholdId, string>): string {
  return [...seen]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, state]) => `${encodeURIComponent(id)}:${encodeURIComponent(state)}`)
    .join(',');
}

/** The states a cursor names; null when it is not one this service wrote. */
export function decodeCursor(cursor: string): Map<HouseholdId, string> | null {
  if (cursor.length > CURSOR_MAX) return null;
  const out = new Map<HouseholdId, string>();
  if (cursor === '') return out;
  for (const pair of cursor.split(',')) {
    const m = /^([^:,]+):([^:,]+)$/.exec(pair);
    if (!m) return null;
    try {
      out.set(decodeURIComponent(m[1]!), decodeURIComponent(m[2]!));
    } catch {
      return null;
    }
  }
  return out;
}

interface Open {
  readonly accountId: AccountId;
  readonly sessionKey: string;
  readonly sink: LiveSink;
  /** The households the stream carries, with the state last sent for each (changed only through the index's `carry`). */
  seen: Map<HouseholdId, string>;
  ended: boolean;
}

/**
 * The open streams, found by household and by sign-in: a change of one household is work for its members' streams
 * only, however many streams are open (W11 in docs/performance.md: 2,000 streams, 50 changes a second).
 */
function streamIndex() {
  const all = new Set<Open>();
  const byHousehold = new Map<HouseholdId, Set<Open>>();
  // A Set keeps the order streams were opened in: the oldest of a sign-in first.
  const bySignIn = new Map<string, Set<Open>>();
  const join = <K>(map: Map<K, Set<Open>>, key: K, s: Open) => {
    const set = map.get(key);
    if (set) set.add(s);
    else map.set(key, new Set([s]));
  };
  const leave = <K>(map: Map<K, Set<Open>>, key: K, s: Open) => {
    const set = map.get(key);
    if (set?.delete(s) && set.size === 0) map.delete(key);
  };
  return {
    all: all as ReadonlySet<Open>,
    add(s: Open) {
      all.add(s);
      join(bySignIn, s.sessionKey, s);
      for (const id of s.seen.keys()) join(byHousehold, id, s);
    },
    remove(s: Open) {
      all.delete(s);
      leave(bySignIn, s.sessionKey, s);
      for (const id of s.seen.keys()) leave(byHousehold, id, s);
    },
    /** The stream carries `next` from now on. */
    carry(s: Open, next: Map<HouseholdId, string>) {
      if (all.has(s)) {
        for (const id of s.seen.keys()) if (!next.has(id)) leave(byHousehold, id, s);
        for (const id of next.keys()) if (!s.seen.has(id)) join(byHousehold, id, s);
      }
      s.seen = next;
    },
    signIn: (sessionKey: string): ReadonlySet<Open> => bySignIn.get(sessionKey) ?? new Set(),
    /** The streams carrying any of `households`. */
    carrying(households: Iterable<HouseholdId>): Set<Open> {
      const out = new Set<Open>();
      for (const id of households) for (const s of byHousehold.get(id) ?? []) out.add(s);
      return out;
    },
  };
}
type StreamIndex = ReturnType<typeof streamIndex>;

/** What the next check covers. */
interface Pending {
  /** Every household's state may have moved. */
  all: boolean;
  /** These households' states may have moved. */
  readonly households: Set<HouseholdId>;
  /** Who may see what may have changed, for every stream. */
  access: boolean;
  /** …or for these streams only (just opened). */
  readonly accessOf: Set<Open>;
}

const pendingWork = (p: Pending) => p.all || p.access || p.households.size > 0 || p.accessOf.size > 0;

export function liveStreams(deps: LiveDeps, options: LiveOptions): LiveStreams {
  const index = streamIndex();
  const pending: Pending = { all: false, households: new Set(), access: false, accessOf: new Set() };
  let running = false;
  let stopWatching: (() => void) | null = null;

  const end = (s: Open, reason: LiveEndReason) => {
    if (s.ended) return;
    s.ended = true;
    index.remove(s);
    pending.accessOf.delete(s);
    if (index.all.size === 0 && stopWatching) {
      stopWatching();
      stopWatching = null;
    }
    s.sink.end(reason);
  };

  const hear = (change: HouseholdChange) => {
    if (change.kind === 'access') pending.access = true;
    else if (change.householdId === null) pending.all = true;
    else pending.households.add(change.householdId);
    schedule();
  };

  const schedule = () => {
    if (running) return;
    running = true;
    // After the current turn: the notifications of one commit arrive together and are checked as one.
    void Promise.resolve()
      .then(drain)
      .finally(() => {
        running = false;
        if (index.all.size > 0 && pendingWork(pending)) schedule();
      });
  };

  const drain = async () => {
    while (index.all.size > 0 && pendingWork(pending)) {
      const taken = { all: pending.all, access: pending.access, households: new Set(pending.households), accessOf: new Set(pending.accessOf) };
      pending.all = false;
      pending.access = false;
      pending.households.clear();
      pending.accessOf.clear();
      try {
        await check(taken);
      } catch (err) {
        // Nothing is known to have been sent: the next signal or recheck looks at everything again.
        pending.all = true;
        pending.access = true;
        options.onError?.(err);
        return;
      }
    }
  };

  const check = async (taken: Pending) => {
    // Households a stream has just been let into: changed for it, whatever their state.
    const toRecheck = taken.access ? [...index.all] : [...taken.accessOf].filter((s) => !s.ended);
    const joined = toRecheck.length > 0 ? await recheckAccess(deps, index, toRecheck, end) : new Map<Open, Set<HouseholdId>>();
    // The streams the check concerns: every one, or those carrying a household named or just joined.
    const concerned = taken.all ? new Set(index.all) : index.carrying(taken.households);
    for (const s of joined.keys()) concerned.add(s);
    await sendChanged(deps, concerned, { all: taken.all, named: taken.households, joined });
  };

  return {
    async open(caller, lastEventId, sink) {
      const memberships = await deps.households.membershipsOf(caller.accountId);
      const ids = memberships.map((m) => m.householdId);
      const states = await deps.changes.states(ids);
      const seen = new Map<HouseholdId, string>();
      for (const id of ids) {
        const state = states.get(id);
        if (state !== undefined) seen.set(id, state);
      }
      const before = lastEventId === null ? null : (decodeCursor(lastEventId) ?? new Map<HouseholdId, string>());
      const s: Open = { accountId: caller.accountId, sessionKey: caller.sessionKey, sink, seen, ended: false };
      sink.ready([...seen.keys()].sort(), encodeCursor(seen));
      if (before) {
        const missed = [...seen].filter(([id, state]) => before.get(id) !== state).map(([id]) => id);
        if (missed.length > 0) sink.changed(missed.sort(), encodeCursor(seen));
      }
      index.add(s);
      stopWatching ??= deps.changes.watch(hear);
      // The oldest streams of this sign-in past its allowance end.
      const mine = [...index.signIn(caller.sessionKey)];
      for (const old of mine.slice(0, Math.max(0, mine.length - options.perLogin))) end(old, 'replaced');
      // A change committed between the reads above and the watching is caught by comparing once more: this
      // stream's households, and who may see what for this stream alone.
      for (const id of seen.keys()) pending.households.add(id);
      pending.accessOf.add(s);
      schedule();
      return { close: () => end(s, 'closing') };
    },
    recheck() {
      if (index.all.size === 0) return;
      pending.all = true;
      pending.access = true;
      schedule();
    },
    get size() {
      return index.all.size;
    },
    closeAll() {
      for (const s of [...index.all]) end(s, 'closing');
    },
  };
}

/** Each stream's sign-in still alive, and the households it now belongs to (null: the sign-in ended). */
async function signInHouseholds(deps: LiveDeps, s: Open): Promise<HouseholdId[] | null> {
  const found = await deps.sessions.lookup(s.sessionKey);
  if (!found || found.account.id !== s.accountId || !sessionLive(found.session, found.account, deps.clock.now())) return null;
  return (await deps.households.membershipsOf(s.accountId)).map((m) => m.householdId);
}

/** How many sign-ins an access check reads at once: a heartbeat of 2,000 streams neither waits on one read at a time nor floods the pool. */
const ACCESS_READS_AT_ONCE = 8;

/**
 * After a change of who may see what: the streams' households read again, one read per sign-in however many of
 * its streams are open, a few sign-ins at a time; a stream whose sign-in ended is ended. Answers the households
 * each stream was just let into.
 */
async function recheckAccess(deps: LiveDeps, index: StreamIndex, streams: readonly Open[], end: (s: Open, reason: LiveEndReason) => void): Promise<Map<Open, Set<HouseholdId>>> {
  const joined = new Map<Open, Set<HouseholdId>>();
  const bySignIn = new Map<string, Open[]>();
  for (const s of streams) {
    const same = bySignIn.get(s.sessionKey);
    if (same) same.push(s);
    else bySignIn.set(s.sessionKey, [s]);
  }
  const signIns = [...bySignIn.values()];
  let next = 0;
  const worker = async () => {
    while (next < signIns.length) {
      const mine = signIns[next++]!;
      const now = await signInHouseholds(deps, mine[0]!);
      for (const s of mine) {
        if (s.ended) continue;
        if (now === null) {
          end(s, 'signed-out');
          continue;
        }
        const carried = new Map<HouseholdId, string>();
        const added = new Set<HouseholdId>();
        for (const id of now) {
          const state = s.seen.get(id);
          if (state === undefined) added.add(id);
          carried.set(id, state ?? '');
        }
        // A household left is dropped without a word: the stream carries only the sign-in's households.
        index.carry(s, carried);
        if (added.size > 0) joined.set(s, added);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ACCESS_READS_AT_ONCE, signIns.length) }, worker));
  return joined;
}

/** Reads the state of the households that may have moved and tells each stream concerned the ones it carries that did. */
async function sendChanged(
  deps: LiveDeps,
  concerned: ReadonlySet<Open>,
  { all, named, joined }: { all: boolean; named: ReadonlySet<HouseholdId>; joined: ReadonlyMap<Open, ReadonlySet<HouseholdId>> },
): Promise<void> {
  const wanted = new Set<HouseholdId>();
  for (const s of concerned) for (const id of s.seen.keys()) if (all || named.has(id) || joined.get(s)?.has(id)) wanted.add(id);
  if (wanted.size === 0) return;
  const states = await deps.changes.states([...wanted]);
  for (const s of concerned) {
    if (s.ended) continue;
    const changed: HouseholdId[] = [];
    for (const [id, state] of s.seen) {
      if (!wanted.has(id)) continue;
      const now = states.get(id);
      // A household gone: its members' memberships went with it, which the access check drops.
      if (now === undefined) continue;
      if (now !== state || joined.get(s)?.has(id)) changed.push(id);
      s.seen.set(id, now);
    }
    if (changed.length > 0) s.sink.changed(changed.sort(), encodeCursor(s.seen));
  }
}
