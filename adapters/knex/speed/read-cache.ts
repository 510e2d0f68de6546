import type pg from 'pg';
import { CACHED_TABLES, CACHED_TABLES_CHANNEL, HOUSEHOLD_CHANGES_CHANNEL, INSERTS_CHANGE_NOTHING, LIST_INPUT_TABLES, LIST_STATE_TABLES } from './watched-tables.js';
import type { StoreCall } from '../store-calls.js';
import { WAL_INDEX_HEADER } from './fixed-sql.js';

/**
 * What nearly every request reads and seldom changes, kept in the process: a signed-in request's session with its
 * account, the caller's membership of the household it names (and all the caller's memberships, for GET /me), and
 * a household's pantry merges; and, per household, a shopping list's state (GET shopping-list's 304 path). A round
 * trip to Postgres costs a request event-loop time, most of it the system call that wakes the database's process
 * (docs/performance.md, W1 and W6, and its figures from code comments); the cache saves two or three of them on
 * most requests.
 *
 * It answers only what the database would answer now (watched-tables.ts lists the tables):
 * - SQLite (one process per file): before each read it asks its read connection whether anything was committed
 *   since it last looked (`PRAGMA data_version`, no I/O), and if so whether that touched the cached tables (the
 *   `cached_tables_revision` row their triggers count up). Exact, whoever wrote.
 * - Postgres: the tables' triggers NOTIFY at commit, and every process LISTENs on a connection of its own. A
 *   change made by this process is known at once: a store call that writes a cached table (seen in knex's query
 *   events, which run under the call) empties the cache, and nothing is answered from memory or kept until that
 *   call has ended, committed. Another process's change reaches this one as fast as Postgres delivers the
 *   notification (docs/security.md). While the listening connection is down, nothing is answered from memory; nor
 *   after a statement found the database out of reach, until the listening connection has answered (postgresTableChanges).
 *
 * A value read with a household (`read`'s last argument) is one that any write to the household's shopping-list
 * inputs may change (watched-tables.ts): it is dropped when that household changes (or every household, as
 * a price sync does), not with the rest; on SQLite, whenever anything was committed. A store call writing such a
 * table holds back only these values while it runs, so a pantry write leaves sessions and memberships cached.
 */
export interface ReadCache {
  /** The value under `key`: from memory when it is known current, else from `load`, kept if `keep` says so. */
  read<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean, household?: string): Promise<T>;
  /**
   * A statement that writes one of the cached tables (`all`), or only tables a household's values depend on
   * (`households`), is about to run (Postgres), under the store call `call` (adapters/knex/store-calls.ts) if any:
   * nothing it may change is answered from memory or kept until that call has ended.
   */
  writing(call?: StoreCall, scope?: WriteScope): void;
  /** The store call `call` ends; null, or a promise to wait for before it answers (after a write outside any call). */
  settled(call?: StoreCall): Promise<void> | null;
  /**
   * Resolves once every change committed before the call has been learned of, this process's own included (on
   * Postgres a write's own notification arrives after its call ended and empties the cache again): after it, a
   * value kept stays kept until the next change. For tests that count a request's statements.
   */
  caughtUp(): Promise<void>;
  /**
   * A statement of this process found the database out of reach (StoreUnavailableError): nothing is answered from
   * memory until the source is sure again that it hears every change. The listening connection may not have learned
   * yet that it lost the database too (its socket's close is a few turns of the event loop behind, or never comes
   * when packets are dropped).
   */
  unreachable(): void;
  close(): Promise<void>;
}

/** What a write may change: any cached value, or only values read for a household. */
export type WriteScope = 'all' | 'households';

/** Where a cache learns of changes. */
export interface ChangeSource {
  /**
   * Starts watching; `changed` is called for every change learned of (and whenever watching was interrupted),
   * `householdChanged` for a change of one household's values (null: every household's).
   */
  start(changed: () => void, householdChanged: (household: string | null) => void): void;
  /** Synchronously, just before a read: whether cached values may be answered now (it calls `changed` first if it learns of one). */
  usable(): boolean;
  /** Resolves once every change committed before it was called has been reported; absent where changes are seen at once. */
  sync?(): Promise<void>;
  /** The database was found out of reach on another connection: not usable until the source has made sure it still listens. */
  unreachable?(): void;
  close(): Promise<void>;
}

export interface ReadCacheOptions {
  /** Most values kept; the oldest go first. */
  readonly maxEntries?: number;
  /** A value is read again after this long, whatever the source says (a safety net, not the mechanism). */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** Objects and arrays made read-only all the way down (Dates stay as they are): one value answers many requests. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

type Entry = { value: unknown; at: number };

/** Values read for a household, by household (oldest household first), at most `maxEntries` in all. */
function householdValues(maxEntries: number) {
  const households = new Map<string, Map<string, Entry>>();
  let count = 0;
  return {
    get: (household: string, key: string): Entry | undefined => households.get(household)?.get(key),
    keep(household: string, key: string, entry: Entry): void {
      let kept = households.get(household);
      if (kept) households.delete(household);
      else kept = new Map();
      households.set(household, kept);
      count -= kept.size;
      kept.delete(key);
      kept.set(key, entry);
      count += kept.size;
      while (count > maxEntries) {
        const [oldest, values] = households.entries().next().value!;
        count -= values.size;
        households.delete(oldest);
      }
    },
    drop(household: string): void {
      count -= households.get(household)?.size ?? 0;
      households.delete(household);
    },
    clear(): void {
      households.clear();
      count = 0;
    },
  };
}

/**
 * Syncs with `source`, shared: `fromNow` resolves once a sync that started after the call has finished (at once where
 * changes are seen at once). Each sync covers the tickets handed out before it started.
 */
function syncs(source: ChangeSource) {
  let tickets = 0;
  let covered = 0;
  let syncing: Promise<void> | null = null;
  return {
    async fromNow(): Promise<void> {
      const sync = source.sync;
      if (!sync) return;
      const ticket = ++tickets;
      while (covered < ticket) {
        syncing ??= (async () => {
          const upTo = tickets;
          try {
            await sync();
          } finally {
            covered = Math.max(covered, upTo);
          }
        })().finally(() => (syncing = null));
        await syncing;
      }
    },
  };
}

/**
 * Writes under way that may change kept values: store calls that wrote a cached table (or only households' tables),
 * and writes made outside any store call, not yet settled. Nothing they may change is answered from memory or kept
 * while they are `pending`.
 */
/** How long a write to a cached table waits, at most, for this process's listener to hear it (writesUnderWay). */
const HEARD_WAIT_MS = 500;

function writesUnderWay(changed: () => void, householdChanged: (household: null) => void, syncFromNow: () => Promise<void>, waitsToBeHeard: boolean) {
  let writingCalls = 0;
  let writingHouseholdCalls = 0;
  let strayWrites = 0;
  let settledStrayWrites = 0;
  let strayHouseholdWrites = 0;
  let settledStrayHouseholdWrites = 0;
  const tracker: Pick<ReadCache, 'writing' | 'settled'> & { pending(household: boolean): boolean } = {
    pending: (household) =>
      writingCalls > 0 || strayWrites > settledStrayWrites || (household && (writingHouseholdCalls > 0 || strayHouseholdWrites > settledStrayHouseholdWrites)),
    writing(call, scope = 'all') {
      if (scope === 'households') {
        if (!call) strayHouseholdWrites++;
        else if (!call.wroteHouseholds) {
          writingHouseholdCalls++;
          call.wroteHouseholds = true;
        }
        householdChanged(null);
        return;
      }
      if (call) {
        if (!call.wroteCached) writingCalls++;
        call.wroteCached = true;
      } else strayWrites++;
      changed();
    },
    settled(call) {
      let heard: Promise<void> | null = null;
      if (call?.wroteCached) {
        // The call has committed (or rolled back) by now: a value read from here on is read after it, and one read
        // before (or while) it is not kept. Its own notification, when it comes, only empties the cache again.
        call.wroteCached = false;
        writingCalls--;
        changed();
        // Another process learns of the change (a sign-out, a member removed) when Postgres delivers the notification,
        // which it signals to every listening connection at the commit. The call answers once this process's own
        // listener has heard it too, so that a client that asks another process next finds it told (docs/security.md,
        // rule 6). These writes are rare (a session's insert is not one); where changes are seen at once, no wait.
        // The write has committed: a listener that fails or is slow to answer never turns it into a failure, nor holds
        // the answer longer than HEARD_WAIT_MS (a silent listener stops the cache answering from memory anyway).
        if (waitsToBeHeard) heard = within(syncFromNow(), HEARD_WAIT_MS).then(() => undefined);
      }
      if (call?.wroteHouseholds) {
        call.wroteHouseholds = false;
        writingHouseholdCalls--;
        householdChanged(null);
      }
      if (strayWrites === settledStrayWrites && strayHouseholdWrites === settledStrayHouseholdWrites) return heard;
      // A write outside any store call: when it commits is unknown, so wait for a sync that starts after now. One
      // that wrote only households' tables holds back only households' values meanwhile.
      const upTo = strayWrites;
      const householdsUpTo = strayHouseholdWrites;
      return syncFromNow().finally(() => {
        const all = upTo > settledStrayWrites;
        settledStrayWrites = Math.max(settledStrayWrites, upTo);
        settledStrayHouseholdWrites = Math.max(settledStrayHouseholdWrites, householdsUpTo);
        if (all) changed();
        else householdChanged(null);
      });
    },
  };
  return tracker;
}

export function readCache(source: ChangeSource, options: ReadCacheOptions = {}): ReadCache {
  const maxEntries = options.maxEntries ?? 10_000;
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const households = householdValues(maxEntries);
  // Moves on with every change learned of: a value loaded while it moved may be older than the change.
  let generation = 0;
  // The same for households' values: every household's, and each household's with a load under way.
  let householdsGeneration = 0;
  const loading = new Map<string, { loads: number; generation: number }>();
  const syncFromNow = syncs(source).fromNow;
  const householdChanged = (household: string | null) => {
    if (household === null) {
      householdsGeneration++;
      households.clear();
      for (const l of loading.values()) l.generation++;
      return;
    }
    const l = loading.get(household);
    if (l) l.generation++;
    households.drop(household);
  };
  const changed = () => {
    generation++;
    entries.clear();
    householdChanged(null);
  };
  const writes = writesUnderWay(changed, householdChanged, syncFromNow, source.sync !== undefined);
  const pending = writes.pending;
  /** A value read from the database, kept when nothing changed while it was read. */
  const loadAndKeep = async <T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean, household: string | undefined, usable: boolean): Promise<T> => {
    const before = generation;
    if (household === undefined) {
      const value = await load();
      if (usable && before === generation && !pending(false) && keep(value)) {
        entries.delete(key);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value: frozen(value), at: now() });
      }
      return value;
    }
    const beforeHouseholds = householdsGeneration;
    const l = loading.get(household) ?? { loads: 0, generation: 0 };
    loading.set(household, l);
    l.loads++;
    const beforeHousehold = l.generation;
    let value: T;
    try {
      value = await load();
    } finally {
      if (--l.loads === 0) loading.delete(household);
    }
    const unchanged = before === generation && beforeHouseholds === householdsGeneration && beforeHousehold === l.generation;
    if (usable && unchanged && !pending(true) && keep(value)) households.keep(household, key, { value: frozen(value), at: now() });
    return value;
  };
  source.start(changed, householdChanged);
  return {
    // Not an async function: a value from memory costs one promise (W1, docs/performance.md).
    read<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean, household?: string): Promise<T> {
      const usable = !pending(household !== undefined) && source.usable();
      if (usable) {
        const hit = household === undefined ? entries.get(key) : households.get(household, key);
        if (hit && now() - hit.at < ttlMs) return Promise.resolve(hit.value as T);
      }
      return loadAndKeep(key, load, keep, household, usable);
    },
    writing: writes.writing,
    settled: writes.settled,
    caughtUp: () => syncFromNow(),
    unreachable() {
      source.unreachable?.();
    },
    async close() {
      entries.clear();
      households.clear();
      await source.close();
    },
  };
}

/** A statement that may write one of the cached tables (generous: a needless match only empties the cache). */
const WRITES = /\b(insert|update|delete|truncate|merge)\b/i;
const TABLES = new RegExp(`\\b(${CACHED_TABLES.join('|')})\\b`, 'i');
// A plain insert of a row no cached value holds, as every sign-in's session is.
const INSERTS_NOTHING_CACHED = new RegExp(`^\\s*insert\\s+into\\s+"?(${INSERTS_CHANGE_NOTHING.join('|')})"?\\s*\\(`, 'i');
const changesCached = (sql: string): boolean => TABLES.test(sql) && !(INSERTS_NOTHING_CACHED.test(sql) && !/\bon\s+conflict\b|\bselect\b/i.test(sql));
// The tables a household's values are read from: a list's inputs (whose triggers move household_revisions) and the
// list's own state.
const HOUSEHOLD_TABLES = new RegExp(`\\b(${[...LIST_INPUT_TABLES, ...LIST_STATE_TABLES].join('|')})\\b`, 'i');
/** What a statement may change of the cache: everything, households' values only, or nothing. */
export const scopeWritten = (sql: string): WriteScope | null =>
  !WRITES.test(sql) ? null : changesCached(sql) ? 'all' : HOUSEHOLD_TABLES.test(sql) ? 'households' : null;

/** The synchronous reads of SQLite's read connection (fixed-sql.ts) this source needs. */
export interface SqliteReader {
  /** The first column of the first row (undefined when there is none), read now. */
  valueNow(sql: string): unknown;
  /** The WAL-index header now, copied into `into` (WAL_INDEX_HEADER bytes); false when it cannot be read whole (fixed-sql.ts). */
  walIndexHeader?(into: Buffer): boolean;
}

/** What lets SQLite's check answer for a request it has already answered for (see sqliteTableChanges). */
export interface SqliteCheckReuse {
  /** When the request being served arrived (process.hrtime.bigint()); undefined outside a request. */
  requestArrived(): bigint | undefined;
  /** A count this process moves with every statement it writes, its commits included (adapters/knex/wal-sync.ts). */
  ownWrites(): number;
}

/**
 * SQLite: `PRAGMA data_version` of the read connection, then the `cached_tables_revision` row when that moved.
 *
 * A check taken at instant T sees every commit made before T, whoever made it. It answers for a request that had
 * arrived by T as a check of its own would (the request reads as of T, after it arrived: a session revoked before
 * the request was sent is seen), unless this process has written since T (its own commit, which the request may be
 * about to read back). So a request's second and later kept reads, and those of requests under way when another
 * one checked, ask SQLite nothing; a request that arrives after the last check asks again.
 *
 * A check reads the WAL-index header first (one pread, no lock): unchanged since the last check that asked SQLite,
 * nothing was committed by anyone, and SQLite is not asked. Else `PRAGMA data_version`, which takes and drops a
 * read lock (four fcntl calls; under load a large share of a signed-in request's time, W1 in docs/performance.md). The header is read before the pragma, so a commit between the two shows as a changed
 * header at the next check: the header errs only towards asking again.
 */
export function sqliteTableChanges(reader: SqliteReader, reuse?: SqliteCheckReuse): ChangeSource {
  let changed = () => {};
  let householdChanged: (household: string | null) => void = () => {};
  let dataVersion: unknown;
  let revision: unknown;
  // The last check that succeeded: when it began, and this process's write count then.
  let checkedAt: bigint | null = null;
  let writesAtCheck = 0;
  // The WAL-index header at the last check that asked SQLite (when it could be read), and the one read now.
  let header = Buffer.alloc(WAL_INDEX_HEADER);
  let headerNow = Buffer.alloc(WAL_INDEX_HEADER);
  let headerKnown = false;
  return {
    start(onChange, onHouseholdChange) {
      changed = onChange;
      householdChanged = onHouseholdChange;
    },
    usable() {
      const arrived = reuse?.requestArrived();
      const writes = reuse ? reuse.ownWrites() : 0;
      if (arrived !== undefined && checkedAt !== null && arrived <= checkedAt && writes === writesAtCheck) return true;
      const at = process.hrtime.bigint();
      checkedAt = null;
      try {
        const readable = reader.walIndexHeader?.(headerNow) ?? false;
        if (readable && headerKnown && dataVersion !== undefined && headerNow.equals(header)) {
          checkedAt = at;
          writesAtCheck = writes;
          return true;
        }
        [header, headerNow] = [headerNow, header];
        headerKnown = readable;
        const version = reader.valueNow('pragma data_version');
        if (version !== undefined && version === dataVersion) {
          checkedAt = at;
          writesAtCheck = writes;
          return true;
        }
        // Something was committed: households' values are not told apart here, so they all go.
        householdChanged(null);
        const now = reader.valueNow('select revision from cached_tables_revision where id = 1');
        if (now === undefined) throw new Error('cached_tables_revision has no row');
        if (now !== revision) changed();
        revision = now;
        dataVersion = version;
        checkedAt = at;
        writesAtCheck = writes;
        return true;
      } catch {
        // Not migrated yet, or the file is out of reach: read the database itself, which says what is wrong.
        dataVersion = undefined;
        revision = undefined;
        headerKnown = false;
        changed();
        return false;
      }
    },
    async close() {},
  };
}

/** Whether `work` succeeds within `ms` (false when it fails or takes longer); no timer outlives the answer. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([work.then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long the listening connection waits before it tries again after losing Postgres. */
const RELISTEN_MS = 1000;

export interface ListenOptions {
  /** How often the listening connection is asked for an answer while all is quiet. */
  readonly heartbeatMs?: number;
  /** How long it has to answer (a heartbeat, a sync, or a check after another connection failed) before it counts as lost. */
  readonly answerWithinMs?: number;
}

/**
 * Postgres: LISTEN on a connection of its own; usable only while it listens. A connection whose database went away
 * does not always know it: the socket's close comes a few turns of the event loop later, or, when the network drops
 * packets, not at all. So it is asked for an answer at once when another connection of the process finds the
 * database out of reach (nothing from memory meanwhile), and every `heartbeatMs` anyway; no answer within
 * `answerWithinMs`, and it counts as lost. A process cut off from Postgres without a word thus stops answering from
 * memory within heartbeat + answer time (8 s), however few of its requests reach the database.
 */
export function postgresTableChanges(url: string, schema: string | undefined, options: ListenOptions = {}): ChangeSource {
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const answerWithinMs = options.answerWithinMs ?? 3000;
  let changed = () => {};
  let householdChanged: (household: string | null) => void = () => {};
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, RELISTEN_MS).unref();
  };
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    listening = false;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    changed();
    c.end().catch(() => undefined);
    again();
  };
  /**
   * Whether `c` answers a query in time. Postgres sends what was notified before it answers a query: once it has,
   * every commit made before the call has been reported. No answer, or an error, and `c` is lost.
   */
  const answers = async (c: pg.Client): Promise<boolean> => {
    if (await within(c.query('select 1'), answerWithinMs)) return true;
    lost(c);
    return false;
  };
  let asking = false;
  const listen = async () => {
    // pg itself is loaded here, on Postgres only: a SQLite server never holds it.
    const { default: Pg } = await import('pg');
    // Named, so that an operator (or a test) can tell it in pg_stat_activity.
    const c = new Pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, application_name: `dinner-read-cache:${schema ?? 'default'}` });
    let ours = '';
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (n.channel === CACHED_TABLES_CHANNEL && n.payload === ours) changed();
      // `<schema> <household id>`, or `<schema> *` for every household (0028).
      if (n.channel === HOUSEHOLD_CHANGES_CHANNEL && n.payload?.startsWith(`${ours} `)) {
        const household = n.payload.slice(ours.length + 1);
        householdChanged(household === '*' ? null : household);
      }
    });
    try {
      await c.connect();
      if (schema) await c.query(`set search_path to ${c.escapeIdentifier(schema)}`);
      ours = String((await c.query<{ s: string }>('select current_schema() as s')).rows[0]?.s);
      await c.query(`listen ${CACHED_TABLES_CHANNEL}; listen ${HOUSEHOLD_CHANGES_CHANNEL}`);
    } catch {
      c.removeAllListeners('end');
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
      again();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    // Whatever changed while nobody listened is unknown: start empty.
    changed();
    listening = true;
    heartbeat = setInterval(() => {
      if (asking || client !== c) return;
      asking = true;
      void answers(c).finally(() => (asking = false));
    }, heartbeatMs).unref();
  };

  return {
    start(onChange, onHouseholdChange) {
      changed = onChange;
      householdChanged = onHouseholdChange;
      void listen();
    },
    usable: () => listening,
    unreachable() {
      const c = client;
      if (!c || !listening) return;
      // Until it answers, nothing from memory; notifications are still taken in meanwhile.
      listening = false;
      void answers(c).then((yes) => {
        if (yes && client === c && !closed) listening = true;
      });
    },
    async sync() {
      const c = client;
      if (c && listening) await answers(c);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      const c = client;
      client = null;
      listening = false;
      if (c) {
        c.removeAllListeners('end');
        // A connection gone silent never confirms its end: the process does not wait on it past the answer time.
        await within(c.end(), answerWithinMs);
      }
    },
  };
}
