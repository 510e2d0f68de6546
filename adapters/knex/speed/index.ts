import type { Knex } from 'knex';
import type { DatabaseTarget } from '../../../config/config.js';
import { StoreUnavailableError } from '../../../ports/store-errors.js';
import { currentMetrics } from '../../observability/request-context.js';
import { committed } from '../commit-watch.js';
import { currentStoreCall, type StoreCall } from '../store-calls.js';
import { storeError } from '../store-error.js';
import type { WalSync } from '../wal-sync.js';
import { postgresFixedSql, sqliteFixedSql, type FixedSql } from './fixed-sql.js';
import { foodLogs, noFoodLogs, noPantryLogs, pantryLogs, type FoodLogs, type PantryLogs } from './pantry-logs.js';
import { noRecipeSummaries, recipeSummaries, type RecipeSummaries } from './recipe-summaries.js';
import { postgresTableChanges, readCache, scopeWritten, sqliteTableChanges, type ChangeSource, type ReadCache, type WriteScope } from './read-cache.js';

/**
 * The speed layer: what the Knex stores keep in the process or run past knex so that the requests every signed-in
 * client makes cost little (docs/performance.md). Its parts live in this folder:
 * - read-cache.ts: sessions, memberships, merges and a list's state kept while the database says they hold;
 * - fixed-sql.ts: the per-request reads as statements prepared once, on the driver itself;
 * - pantry-logs.ts: a household's pantry log and a food's log kept under their revisions;
 * - recipe-summaries.ts: a household's recipes as lists show them, kept under its revision;
 * - watched-tables.ts: the tables whose writes it watches.
 *
 * A store asks only this interface (`speedOf`). With the layer off (`openDatabase(…, { speed: false })`) every
 * call answers straight from the database and nothing is kept; inside a transaction, or on a SQLite in memory,
 * nothing is read from memory or run past knex, and only the pantry logs are kept (a transaction's its own). The
 * store contract suites run with the layer on and off, so a store answers the same either way.
 */
export interface Speed {
  /**
   * `load` through the read cache, or straight when there is none; with `household`, a value that writes to that
   * household's shopping-list inputs may change. The errors of `load` reach the caller as the port's (`storeError`),
   * so a store method answering only through here needs no wrapper (errors.ts, `reads`).
   */
  cachedRead<T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean, household?: string): Promise<T>;
  /**
   * The rows of a select written as fixed SQL with `?` values, for the reads every signed-in request makes: on the
   * database's driver, prepared once (fixed-sql.ts), or through knex.raw. knex's query builder costs more than
   * running such a query.
   */
  fixedRows<T>(sql: string, bindings: readonly Knex.Value[]): Promise<T[]>;
  /** The households' pantry logs kept for this database (a transaction keeps its own, so none outlives a rollback). */
  readonly pantryLogs: PantryLogs;
  /** The households' recipes as lists show them, kept under their revisions (a transaction keeps its own). */
  readonly recipeSummaries: RecipeSummaries;
  /** Food logs for one store to keep between its writes. */
  foodLogs(): FoodLogs;
  /**
   * A driver's error as the port's (store-error.ts); one that finds the database out of reach also tells the read
   * cache, which then answers nothing from memory until it is sure it still hears every change.
   */
  storeError(err: unknown): unknown;
  /** The store call `call` ends: null, or a promise to wait for before it answers (read-cache.ts, `settled`). */
  settled(call: StoreCall): Promise<void> | null;
  /**
   * SQLite, after a commit of this process: whether any commit since the last ask may have changed who may see what
   * (the cached tables: sessions, accounts, memberships), read from their triggers' `cached_tables_revision`; true
   * when it cannot tell (no read connection, or the row cannot be read). The live stream then checks every stream's
   * sign-in again, which a tick on a list need not cost 2,000 open streams (W11, docs/performance.md).
   */
  accessMayHaveChanged(): boolean;
}

interface Parts {
  readonly on: boolean;
  readonly cache: ReadCache | null;
  readonly fixed: FixedSql | null;
  /** SQLite: the read connection's one-value reads. */
  readonly valueNow?: (sql: string) => unknown;
}

/** `accessMayHaveChanged` over SQLite's read connection: the cached tables' revision, compared with the last one read. */
function accessWatch(valueNow: ((sql: string) => unknown) | undefined): () => boolean {
  if (!valueNow) return () => true;
  let last: unknown;
  return () => {
    let now: unknown;
    try {
      now = valueNow('select revision from cached_tables_revision where id = 1');
    } catch {
      return true;
    }
    const moved = now === undefined || now !== last;

    last = now;
    return moved;
  };
}

const layers = new WeakMap<Knex, Parts>();
const speeds = new WeakMap<Knex, Speed>();

function speedOver(knex: Knex, parts: Parts | undefined): Speed {
  const { cache = null, fixed = null, on = true, valueNow } = parts ?? {};
  const translate = (err: unknown): unknown => {
    const translated = storeError(err);
    if (translated instanceof StoreUnavailableError) cache?.unreachable();
    return translated;
  };
  const load = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw translate(err);
    }
  };
  return {
    cachedRead: (key, run, keep = () => true, household) => (cache ? cache.read(key, () => load(run), keep, household) : load(run)),
    async fixedRows<T>(sql: string, bindings: readonly Knex.Value[]) {
      if (fixed) return fixed.rows<T>(sql, bindings);
      const result = (await knex.raw(sql, [...bindings])) as T[] | { rows: T[] };
      return Array.isArray(result) ? result : result.rows;
    },
    pantryLogs: on ? pantryLogs() : noPantryLogs,
    recipeSummaries: on ? recipeSummaries() : noRecipeSummaries,
    foodLogs: () => (on ? foodLogs() : noFoodLogs),
    storeError: translate,
    settled: (call) => (call.heldBy ?? cache)?.settled(call) ?? null,
    accessMayHaveChanged: accessWatch(valueNow),
  };
}

/** The speed layer of `knex`: the database's own (or a transaction's, which has only its own pantry logs). */
export function speedOf(knex: Knex): Speed {
  let speed = speeds.get(knex);
  if (!speed) speeds.set(knex, (speed = speedOver(knex, layers.get(knex))));
  return speed;
}

/** For tests that count a request's statements: resolves once every committed change has been learned of. */
export const caughtUp = (knex: Knex): Promise<void> => layers.get(knex)?.cache?.caughtUp() ?? Promise.resolve();

/** For tests of the fixed reads themselves. */
export const fixedSqlOf = (knex: Knex): FixedSql | null => layers.get(knex)?.fixed ?? null;

export interface SpeedSetup {
  /** False: nothing kept in the process, no fixed SQL (the Postgres listener still feeds the live stream). */
  readonly on: boolean;
  readonly target: DatabaseTarget;
  /** Postgres: the schema the database works in. */
  readonly schema?: string;
  /** SQLite: the file (null for a database in memory, which has no second connection to read it). */
  readonly sqliteFile: string | null;
  readonly busyTimeoutMs: number;
  /** SQLite: the group commit of the file, whose write count tells the freshness check of this process's writes. */
  readonly wal: WalSync | null;
}

/** How many SQL texts' write scopes are remembered: fixed reads (the session, a membership) come on most requests. */
const SCOPES_KEPT = 500;

/**
 * Postgres: what the listener learns of a commit, the live stream's watchers hear next (commit-watch.ts), after the
 * cache has let go of what the commit changed, so that what they read then is current. A change of the cached tables
 * (or a lost notification connection) may have changed any household's state and who may see it.
 */
function tellingCommits(knex: Knex, source: ChangeSource): ChangeSource {
  return {
    ...source,
    start(changed, householdChanged) {
      source.start(
        () => {
          changed();
          committed(knex, { kind: 'access' });
          committed(knex, { kind: 'household', householdId: null });
        },
        (household) => {
          householdChanged(household);
          committed(knex, { kind: 'household', householdId: household });
        },
      );
    },
  };
}

/** Sets up the speed layer of `knex` (the database's own instance); answers how to close it. */
export function openSpeedLayer(knex: Knex, setup: SpeedSetup): { close(): Promise<void> } {
  const { target, wal } = setup;
  const postgres = target.kind === 'postgres';
  const sqliteReader = setup.on && setup.sqliteFile !== null ? sqliteFixedSql(setup.sqliteFile, setup.busyTimeoutMs) : null;
  // Postgres: a statement that may write a cached table tells the read cache before it is sent (knex's or a fixed one).
  const scopes = new Map<string, WriteScope | null>();
  const sent = (sql: string) => {
    if (!cache) return;
    let scope = scopes.get(sql);
    if (scope === undefined) {
      scope = scopeWritten(sql);
      if (scopes.size >= SCOPES_KEPT) scopes.delete(scopes.keys().next().value!);
      scopes.set(sql, scope);
    }
    if (!scope) return;
    const call = currentStoreCall();
    // The call may belong to a store made on a transaction: its end settles it with this cache (StoreCall.heldBy).
    if (call) call.heldBy = cache;
    cache.writing(call, scope);
  };
  const fixed = !setup.on ? null : postgres ? postgresFixedSql(knex, sent) : sqliteReader;
  const changes = target.kind === 'postgres' ? tellingCommits(knex, postgresTableChanges(target.url, setup.schema)) : null;
  const cache: ReadCache | null = !setup.on
    ? null
    : changes
      ? readCache(changes)
      : sqliteReader
        ? readCache(sqliteTableChanges(sqliteReader, wal ? { requestArrived: () => currentMetrics()?.startedAt, ownWrites: () => wal.written } : undefined))
        : null;
  // Off, Postgres still listens: the live stream hears other processes' commits there.
  if (changes && !cache) changes.start(() => {}, () => {});
  if (cache && postgres) knex.on('query', (q: { sql: string }) => sent(q.sql));
  layers.set(knex, { on: setup.on, cache, fixed, ...(sqliteReader ? { valueNow: (sql: string) => sqliteReader.valueNow(sql) } : {}) });
  return {
    async close() {
      await cache?.close();
      if (changes && !cache) await changes.close();
      fixed?.close();
    },
  };
}
