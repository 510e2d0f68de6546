import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import type { DatabaseTarget } from '../../config/config.js';
import { openDatabase, type Database, type OpenOptions } from '../../adapters/knex/database.js';

/** A database of its own for one suite: a fresh SQLite file, or a fresh Postgres schema. */
export interface TestDatabase {
  readonly target: DatabaseTarget;
  readonly schema?: string;
  /** Opens (and migrates) a connection to it; several may be open at once. */
  open(options?: OpenOptions): Promise<Database>;
  /** Drops what the suite made. */
  cleanup(): Promise<void>;
}

export interface DatabaseKind {
  readonly name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

/** Postgres is tested whenever DATABASE_URL_PG is set; in CI (.ci/run) it always is, so an unreachable one fails. */
export function databaseKinds(): DatabaseKind[] {
  const kinds: DatabaseKind[] = [{ name: 'sqlite', create: sqliteDatabase }];
  const pg = process.env['DATABASE_URL_PG'];
  if (!pg && process.env['CI'] === 'true') throw new Error('CI runs the suite on Postgres too: set DATABASE_URL_PG (.ci/run does)');
  if (pg) kinds.push({ name: 'postgres', create: () => postgresDatabase(pg) });
  return kinds;
}

async function sqliteDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-test-'));
  const target: DatabaseTarget = { kind: 'sqlite', filename: join(dir, 'test.db') };
  return {
    target,
    async open(options = {}) {
      const db = openDatabase(target, options);
      await db.migrate();
      return db;
    },
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh schema `<prefix>_<pid>_<random>` in the Postgres at `url`; `drop` removes it with all it holds. */
export async function freshSchema(url: string, prefix: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const once = async (sql: string) => {
    const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    try {
      await admin.raw(sql, [schema]);
    } finally {
      await admin.destroy();
    }
  };
  await once('create schema ??');
  return { schema, drop: () => once('drop schema if exists ?? cascade') };
}

async function postgresDatabase(url: string): Promise<TestDatabase> {
  const { schema, drop } = await freshSchema(url, 'test');
  const target: DatabaseTarget = { kind: 'postgres', url };
  return {
    target,
    schema,
    async open() {
      const db = openDatabase(target, { schema });
      await db.migrate();
      return db;
    },
    cleanup: drop,
  };
}

/**
 * A fresh database of `kind`, opened with `options` for `fn`; closed and dropped afterwards, whatever `fn` did.
 * `fn` also gets the database itself (its target).
 */
export async function withDatabase<T>(kind: DatabaseKind, fn: (db: Database, database: TestDatabase) => Promise<T>, options?: OpenOptions): Promise<T> {
  const database = await kind.create();
  const db = await database.open(options);
  try {
    return await fn(db, database);
  } finally {
    await db.close();
    await database.cleanup();
  }
}

/**
 * A fresh database of `kind` with two connections to it (two processes, as far as the database can tell), for
 * `fn`; both closed and the database dropped afterwards, whatever `fn` did.
 */
export async function withTwoConnections<T>(kind: DatabaseKind, fn: (a: Database, b: Database) => Promise<T>): Promise<T> {
  const database = await kind.create();
  const a = await database.open();
  const b = await database.open();
  try {
    return await fn(a, b);
  } finally {
    await a.close();
    await b.close();
    await database.cleanup();
  }
}
