import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { elapsedMs, recordQuery } from '../observability/request-context.js';
import { observeQuery } from '../observability/prometheus.js';
import type { DatabaseTarget } from '../../config/config.js';
import { migrationSource, migrations } from './migrations/index.js';
import { registerWalSync, walFileSync, walSync, type WalSync } from './wal-sync.js';
import { openSpeedLayer, speedOf } from './speed/index.js';

export interface Database {
  readonly knex: Knex;
  readonly kind: DatabaseTarget['kind'];
  /** Applies every migration of this build that is not applied yet. */
  migrate(): Promise<void>;
  /** The database answers and every migration of this build is applied. */
  readiness(): Promise<{ ready: true } | { ready: false; reason: string }>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Postgres only: the schema to work in (tests use one of their own). */
  schema?: string;
  /** SQLite: how long a writer waits for another's lock before giving up (ms). */
  busyTimeoutMs?: number;
  /** Postgres: how long a statement may go unanswered before it fails as unreachable (ms; 0 or absent: no limit). */
  queryTimeoutMs?: number;
  /** SQLite: what makes the WAL file durable (default: fdatasync of it); tests hold it to see writes wait. */
  walFile?: (walPath: string) => { flush(): Promise<void>; close(): Promise<void> };
  /** The speed layer (adapters/knex/speed/): on unless false; the store contract suites run both ways. */
  speed?: boolean;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Database {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  // A SQLite file, not an in-memory database: only a file has a WAL to make durable and a second connection to read it.
  const sqliteFile = target.kind === 'sqlite' && target.filename !== ':memory:' ? target.filename : null;
  // On a SQLite file, writes are made durable by group commit.
  const wal = sqliteFile !== null ? walSync((options.walFile ?? walFileSync)(`${resolve(sqliteFile)}-wal`)) : null;
  const knex = target.kind === 'sqlite' ? openSqlite(target.filename, busyTimeoutMs, wal) : openPostgres(target.url, options.schema, options.queryTimeoutMs ?? 0);
  if (wal) registerWalSync(knex, wal);
  countQueries(knex);
  // Sessions, memberships and merges kept in the process, and the per-request reads on the driver itself.
  const speed = openSpeedLayer(knex, { on: options.speed ?? true, target, schema: options.schema, sqliteFile, busyTimeoutMs, wal });
  // Migrations never un-apply while this process runs: once all were seen applied, the probe only pings.
  let migrated = false;
  return {
    knex,
    kind: target.kind,
    async migrate() {
      // Processes starting together on a fresh Postgres schema race to create knex's own tables (one fails to
      // start): one migrates at a time, under a lock of the schema held by a transaction beside the migration.
      // With a statement time limit, on connections of their own without it: a migration of a large table, or a
      // process waiting for another's migration, may take longer than any request's statement.
      if (target.kind === 'postgres') {
        const unlimited = (options.queryTimeoutMs ?? 0) > 0 ? openPostgres(target.url, options.schema, 0) : knex;
        try {
          return await unlimited.transaction(async (trx) => {
            await trx.raw("select pg_advisory_xact_lock(hashtext(coalesce(current_schema(), '')), 7100000)");
            await unlimited.migrate.latest({ migrationSource });
          });
        } finally {
          if (unlimited !== knex) await unlimited.destroy();
        }
      }
      await knex.migrate.latest({ migrationSource });
    },
    async readiness() {
      try {
        await knex.raw('select 1');
        if (migrated) return { ready: true };
        const [, pending] = (await knex.migrate.list({ migrationSource })) as [unknown[], unknown[]];
        migrated = pending.length === 0;
        return migrated ? { ready: true } : { ready: false, reason: `${pending.length} of ${migrations.length} migrations pending` };
      } catch (err) {
        // An unreachable database stops the read cache too, as a store's failure does.
        speedOf(knex).storeError(err);
        return { ready: false, reason: 'database unreachable' };
      }
    },
    async close() {
      await speed.close();
      await knex.destroy();
      await wal?.close();
    },
  };
}

function openSqlite(filename: string, busyTimeoutMs: number, wal: WalSync | null): Knex {
  if (filename !== ':memory:') mkdirSync(dirname(resolve(filename)), { recursive: true });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // better-sqlite3 is synchronous: one connection per process serializes this process's writers, and the
    // busy timeout makes writers of other processes wait for the lock instead of failing at once.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        try {
          cachePreparedStatements(conn, wal);
          // WAL: readers never wait for the writer. synchronous=NORMAL with group commit (adapters/knex/wal-sync.ts):
          // an acknowledged write is on disk and survives power loss, as with FULL, without an fsync per commit on
          // the event loop. A database with nothing to sync (in memory) keeps FULL.
          conn.pragma('journal_mode = WAL');
          conn.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
          conn.pragma(`busy_timeout = ${busyTimeoutMs}`);
          conn.pragma('foreign_keys = ON');
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
}

interface SqliteStatement {
  readonly readonly: boolean;
}
interface SqliteConnection {
  pragma(s: string): unknown;
  prepare(sql: string): SqliteStatement;
}

// Statements better-sqlite3 calls read-only that end a transaction, committing it.
const ENDS_TRANSACTION = /^\s*(commit|end|release)\b/i;
const RUNS = new Set<string | symbol>(['run', 'all', 'get', 'iterate']);

/** The statement as knex sees it, counting each run as a write (after it ran: the commit is in the WAL by then). */
function countingWrites(statement: SqliteStatement, wal: WalSync): SqliteStatement {
  return new Proxy(statement, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (!RUNS.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        try {
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          wal.wrote();
        }
      };
    },
  });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Knex prepares every SQLite statement anew, which costs as much as running it. The connection is used one
 * statement at a time (knex runs them synchronously to completion), so a prepared statement can be reused
 * for the same SQL text; SQLite re-prepares it by itself should the schema change.
 */
function cachePreparedStatements(conn: SqliteConnection, wal: WalSync | null): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, SqliteStatement>();
  conn.prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (wal && (!statement.readonly || ENDS_TRANSACTION.test(sql))) statement = countingWrites(statement, wal);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/** What knex's pool needs to know of a pg client: whether it waits for an answer (or its socket is gone). */
interface PgPooled {
  readonly readyForQuery: boolean;
  readonly connection?: { readonly stream?: { destroy(): void } };
}

function openPostgres(url: string, schema: string | undefined, queryTimeoutMs: number): Knex {
  return knexFactory({
    client: 'pg',
    // A connect that gets no answer (packets dropped) fails after 3 s, so the request answers 503 store_unavailable
    // then instead of waiting out the whole acquire timeout; a refused connect fails at once anyway. A statement
    // that gets no answer within the query timeout fails the same way (isUnavailable): a network that drops every
    // packet of an open connection tells nobody, and the request would otherwise wait for the kernel to give up on
    // the socket (a quarter of an hour).
    connection: { connectionString: url, connectionTimeoutMillis: 3000, ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}) },
    ...(schema ? { searchPath: [schema] } : {}),
    pool: {
      min: 0,
      max: 10,
      // A client whose statement timed out still waits for its answer, and every later statement would queue
      // behind it: it is not handed out again, and its socket is closed (ending it politely would wait as well).
      validate(conn: PgPooled) {
        if (conn.readyForQuery) return true;
        conn.connection?.stream?.destroy();
        return false;
      },
    },
    acquireConnectionTimeout: 10_000,
  });
}

/** Feeds Server-Timing's db duration and query count for the request the query ran under. */
function countQueries(knex: Knex): void {
  const started = new Map<string, bigint>();
  knex.on('query', (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, process.hrtime.bigint()));
  const done = (_: unknown, q: { __knexQueryUid: string }) => {
    const t0 = started.get(q.__knexQueryUid);
    if (t0 === undefined) return;
    started.delete(q.__knexQueryUid);
    const ms = elapsedMs(t0);
    recordQuery(ms);
    observeQuery(ms / 1000);
  };
  knex.on('query-response', (_r: unknown, q: { __knexQueryUid: string }) => done(_r, q));
  knex.on('query-error', (_e: unknown, q: { __knexQueryUid: string }) => done(_e, q));
}
