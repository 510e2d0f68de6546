import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import type { DatabaseTarget } from '../../config/config.js';
import { openDatabase, type Database, type OpenOptions } from '../../adapters/knex/database.js';
import { migrations } from '../../adapters/knex/migrations/index.js';

/** A database of its own for one suite: a fresh SQLite file, or a fresh Postgres schema. */
export interface TestDatabase {
  readonly target: DatabaseTarget;
  readonly schema?: string;
  /** Opens a connection to it, migrated (copies of the template are already; an empty one migrates); several may be open at once. */
  open(options?: OpenOptions): Promise<Database>;
  /** Drops what the suite made. */
  cleanup(): Promise<void>;
}

export interface DatabaseKind {
  readonly name: 'sqlite' | 'postgres';
  /** `empty`: nothing migrated yet (a test of the migrations themselves); else ready to migrate at once. */
  create(options?: { empty?: boolean }): Promise<TestDatabase>;
}

/** Postgres is tested whenever DATABASE_URL_PG is set; in CI (.ci/run) it always is, so an unreachable one fails. */
export function databaseKinds(): DatabaseKind[] {
  const kinds: DatabaseKind[] = [{ name: 'sqlite', create: (options) => sqliteDatabase(options?.empty ?? false) }];
  const pg = process.env['DATABASE_URL_PG'];
  if (!pg && process.env['CI'] === 'true') throw new Error('CI runs the suite on Postgres too: set DATABASE_URL_PG (.ci/run does)');
  if (pg) kinds.push({ name: 'postgres', create: (options) => postgresDatabase(pg, options?.empty ?? false) });
  return kinds;
}

let sqliteTemplate: Promise<string> | null = null;

/** A SQLite file with every migration applied, made once per process; each suite's database starts as a copy. */
function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dinner-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const filename = join(dir, 'template.db');
    const db = openDatabase({ kind: 'sqlite', filename });
    try {
      await db.migrate();
    } finally {
      // Closing checkpoints the WAL into the file: the file alone is then the whole database.
      await db.close();
    }
    return filename;
  })();
  return sqliteTemplate;
}

async function sqliteDatabase(empty: boolean): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-test-'));
  const target: DatabaseTarget = { kind: 'sqlite', filename: join(dir, 'test.db') };
  if (!empty) copyFileSync(await sqliteTemplateFile(), target.filename);
  return {
    target,
    async open(options = {}) {
      const db = openDatabase(target, options);
      if (empty) await db.migrate();
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

/** The schema every suite's Postgres database works in (each suite has a database of its own). */
const SUITE_SCHEMA = 'suite';
/** Names of the databases the suites make beside DATABASE_URL_PG's: `<prefix><pid>_<random>`. */
const SUITE_DB_PREFIX = 'dinner_suite_';
const TEMPLATE_PREFIX = 'dinner_template_';

/** The URL of database `name` on the server of `url`, with the same user and options. */
const urlOf = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function withAdmin<T>(url: string, fn: (admin: ReturnType<typeof knexFactory>) => Promise<T>): Promise<T> {
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    return await fn(admin);
  } finally {
    await admin.destroy();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

let template: Promise<string> | null = null;

/**
 * A database with every migration applied in SUITE_SCHEMA, made once per migration set and kept on the server for
 * later runs; each suite's database is a copy of it (CREATE DATABASE … TEMPLATE, a fraction of a second) instead
 * of running every migration again (about a second each on Postgres, most of the suite's time on it). Its name
 * carries a hash of the migrations' names and code, so a new or changed migration makes a new one. It is built
 * under another name and renamed when done: a run that finds it finds it whole. Databases of suites whose process
 * is gone (a run that was killed) are dropped here, as are templates of other migration sets.
 */
function templateOf(url: string): Promise<string> {
  template ??= (async () => {
    const hash = createHash('sha256').update(migrations.map((m) => `${m.name}\n${m.up.toString()}`).join('\n')).digest('hex').slice(0, 16);
    const name = `${TEMPLATE_PREFIX}${hash}`;
    return withAdmin(url, async (admin) => {
      const names = ((await admin.raw("select datname from pg_database where datname like 'dinner\\_%'")) as { rows: { datname: string }[] }).rows.map((r) => r.datname);
      for (const db of names) {
        const pid = db.startsWith(SUITE_DB_PREFIX) ? Number(db.slice(SUITE_DB_PREFIX.length).split('_')[0]) : null;
        const stale = (pid !== null && !alive(pid)) || (db.startsWith(TEMPLATE_PREFIX) && db !== name);
        if (stale) await admin.raw('drop database if exists ?? with (force)', [db]).catch(() => undefined);
      }
      if (names.includes(name)) return name;
      const building = `dinner_building_${process.pid}_${randomBytes(4).toString('hex')}`;
      await admin.raw('create database ??', [building]);
      try {
        await withAdmin(urlOf(url, building), (b) => b.raw('create schema ??', [SUITE_SCHEMA]));
        const db = openDatabase({ kind: 'postgres', url: urlOf(url, building) }, { schema: SUITE_SCHEMA });
        try {
          await db.migrate();
        } finally {
          await db.close();
        }
        await admin.raw('alter database ?? rename to ??', [building, name]);
      } catch (err) {
        await admin.raw('drop database if exists ?? with (force)', [building]);
        // Another run built it meanwhile: theirs is as good.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
      return name;
    });
  })();
  return template;
}

async function postgresDatabase(url: string, empty: boolean): Promise<TestDatabase> {
  const from = await templateOf(url);
  const name = `${SUITE_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await withAdmin(url, (admin) => (empty ? admin.raw('create database ??', [name]) : admin.raw('create database ?? template ??', [name, from])));
  } catch (err) {
    // A run of another migration set (another checkout) dropped the template meanwhile: make it again, once.
    if ((err as { code?: string }).code !== '3D000') throw err;
    template = null;
    await withAdmin(url, async (admin) => admin.raw('create database ?? template ??', [name, await templateOf(url)]));
  }
  const target: DatabaseTarget = { kind: 'postgres', url: urlOf(url, name) };
  if (empty) await withAdmin(target.url, (admin) => admin.raw('create schema ??', [SUITE_SCHEMA]));
  return {
    target,
    schema: SUITE_SCHEMA,
    async open(options = {}) {
      const db = openDatabase(target, { ...options, schema: SUITE_SCHEMA });
      // A copy of the template has every migration already (its name says which set).
      if (empty) await db.migrate();
      return db;
    },
    cleanup: () => withAdmin(url, (admin) => admin.raw('drop database if exists ?? with (force)', [name])).then(() => undefined),
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
