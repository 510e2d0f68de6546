import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { elapsedMs, recordQuery } from '../../observability/request-context.js';

/**
 * The reads every signed-in request makes (session, membership), run on the driver itself instead of through
 * knex: knex costs several times what the driver's prepared statement costs, even through knex.raw
 * (scripts/bench/probe-knex.ts; docs/performance.md, figures from code comments). The SQL is fixed text with `?`
 * placeholders, prepared once:
 *
 * - SQLite: a second connection of its own, used only for these reads. In WAL mode it reads the last committed
 *   state without waiting for the writer; it never sees a transaction that is still open on knex's connection
 *   (as a read on that one connection would, between the transaction's awaits).
 * - Postgres: a connection of knex's own pool (same size limit, same search path), with a named statement, which
 *   Postgres parses and plans once per connection. A statement names its columns, so that a column added by a
 *   later migration does not change its result type ("cached plan must not change result type").
 *
 * Inside a transaction, or with the speed layer off, the reads go through knex.raw (index.ts, `fixedRows`).
 */
export interface FixedSql {
  rows<T>(sql: string, bindings: readonly Knex.Value[]): Promise<T[]>;
  close(): void;
}

/**
 * How many distinct SQL texts are prepared and kept (per connection on Postgres). A text built with a varying
 * number of values (an IN list) is a text of its own; past this many, a text is run unprepared each time.
 */
const PREPARED_TEXTS = 200;

/** Records the read as a query of the request it ran for (Server-Timing), like knex's own queries. */
async function timed<T>(run: () => T | Promise<T>): Promise<T> {
  const t0 = process.hrtime.bigint();
  try {
    return await run();
  } finally {
    recordQuery(elapsedMs(t0));
  }
}

interface SqliteStatement {
  all(...values: unknown[]): unknown[];
  get(...values: unknown[]): unknown;
  pluck(on: boolean): SqliteStatement;
}
interface SqliteConnection {
  pragma(s: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** knex's better-sqlite3 dialect binds a Date as its milliseconds and a boolean as 0/1; so do these reads. */
const sqliteValue = (v: Knex.Value): unknown => (v instanceof Date ? v.valueOf() : typeof v === 'boolean' ? Number(v) : v);

/** SQLite's read connection also answers synchronously (for the read cache's freshness check before each read). */
export interface SqliteFixedSql extends FixedSql {
  /** The first column of the first row (undefined when there is none), read now. */
  valueNow(sql: string): unknown;
  /**
   * Copies the WAL-index header as it is now into `into` (WAL_INDEX_HEADER bytes): the first 48 bytes of the
   * `-shm` file, which every commit of any connection of any process rewrites (its transaction counter, last frame,
   * salts and checksums), read with one pread and no lock. False when it cannot be read whole: no such file yet
   * (before the first read of the database, or not in WAL mode), or a commit caught half way (its two copies,
   * written second copy first, differ). Equal to an earlier header: nothing was committed in between.
   */
  walIndexHeader(into: Buffer): boolean;
}

/** The WAL-index header's length; the `-shm` file holds it twice (https://www.sqlite.org/walformat.html). */
export const WAL_INDEX_HEADER = 48;

export function sqliteFixedSql(filename: string, busyTimeoutMs: number): SqliteFixedSql {
  let conn: SqliteConnection | null = null;
  const statements = new Map<string, SqliteStatement>();
  // Statements answering one value: no row object is made (cheaper, and these run before each kept read).
  const valueStatements = new Map<string, SqliteStatement>();
  const connection = (): SqliteConnection => {
    if (conn) return conn;
    // The driver knex loads for this dialect; the service reaches it only here and through knex.
    const Driver = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteConnection;
    conn = new Driver(filename);
    conn.pragma(`busy_timeout = ${busyTimeoutMs}`);
    return conn;
  };
  const prepared = (sql: string): SqliteStatement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection().prepare(sql);
      if (statements.size < PREPARED_TEXTS) statements.set(sql, statement);
    }
    return statement;
  };
  // The -shm file beside the database: opened once the read connection exists (its first read in WAL mode makes it).
  let shm: number | null = null;
  const copies = Buffer.alloc(2 * WAL_INDEX_HEADER);
  return {
    walIndexHeader(into) {
      if (conn === null) return false;
      try {
        shm ??= openSync(`${filename}-shm`, 'r');
        if (readSync(shm, copies, 0, copies.length, 0) !== copies.length) return false;
      } catch {
        return false;
      }
      if (copies.compare(copies, WAL_INDEX_HEADER, 2 * WAL_INDEX_HEADER, 0, WAL_INDEX_HEADER) !== 0) return false;
      copies.copy(into, 0, 0, WAL_INDEX_HEADER);
      return true;
    },
    rows<T>(sql: string, bindings: readonly Knex.Value[]) {
      return timed(() => prepared(sql).all(...bindings.map(sqliteValue)) as T[]);
    },
    valueNow(sql: string) {
      let statement = valueStatements.get(sql);
      if (!statement) {
        statement = connection().prepare(sql).pluck(true);
        valueStatements.set(sql, statement);
      }
      return statement.get();
    },
    close() {
      if (shm !== null) closeSync(shm);
      shm = null;
      conn?.close();
      conn = null;
      statements.clear();
      valueStatements.clear();
    },
  };
}

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Postgres: `sent` hears each statement's text before it is sent, as knex's 'query' event does for knex's own (the
 * read cache learns there of a write to come: adapters/knex/database.ts). A fixed statement may write (the one of
 * POST observations, which Postgres would otherwise parse and plan on every request).
 */
export function postgresFixedSql(knex: Knex, sent: (sql: string) => void = () => {}): FixedSql {
  const statements = new Map<string, { name?: string; text: string }>();
  const statementOf = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (sql.includes('??')) throw new Error('fixed SQL takes values (?), not identifiers (??)');
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      if (statements.size >= PREPARED_TEXTS) return { text };
      statement = { name: `fixed_${statements.size + 1}`, text };
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    async rows<T>(sql: string, bindings: readonly Knex.Value[]) {
      const statement = statementOf(sql);
      sent(sql);
      const client = knex.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> };
      const conn = await client.acquireConnection();
      try {
        return (await timed(() => conn.query({ ...statement, values: [...bindings] }))).rows as T[];
      } finally {
        await client.releaseConnection(conn);
      }
    },
    close() {
      statements.clear();
    },
  };
}
