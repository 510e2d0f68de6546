import { rmSync } from 'node:fs';
import knexFactory from 'knex';
import { emptyTables } from '../../adapters/memory/stores.js';
import { openDatabase } from '../../adapters/knex/database.js';
import { knexStores, memoryStores, type StoreSet } from '../../bootstrap/stores.js';
import { databaseKinds, type DatabaseKind, type TestDatabase } from '../support/databases.js';

/** The stores of one backend over one fresh set of tables (the same wiring as the composition roots). */
export interface Stores extends StoreSet {
  close(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  open(): Promise<Stores>;
}

/**
 * Emptied databases of one kind, handed out again: every contract test gets empty tables, but a database is made
 * and migrated once per process rather than once per test (about 0.4 s each on Postgres, 0.1 s on SQLite, most of
 * the contracts' time). Emptying deletes every row of every table but knex's own, on a connection of its own after
 * the test's connections are closed (new ones, so no in-process cache outlives its test); a database that does not
 * come out empty is dropped instead of handed out.
 */
function emptiedDatabases(kind: DatabaseKind) {
  const free: TestDatabase[] = [];
  const made: TestDatabase[] = [];
  process.once('exit', () => {
    // SQLite files go with their folders; Postgres databases of a finished process are dropped by the next run.
    for (const d of made) if (d.target.kind === 'sqlite') rmSync(d.target.filename.replace(/\/[^/]+$/, ''), { recursive: true, force: true });
  });
  const empty = async (d: TestDatabase): Promise<boolean> => {
    if (d.target.kind === 'sqlite') {
      const conn = knexFactory({ client: 'better-sqlite3', connection: { filename: d.target.filename }, useNullAsDefault: true });
      try {
        const tables = ((await conn.raw("select name from sqlite_master where type = 'table' and name not like 'knex_%' and name not like 'sqlite_%'")) as { name: string }[]).map((t) => t.name);
        await conn.raw('pragma foreign_keys = off');
        // Twice: a trigger of one table may write a row into another emptied before it.
        for (let pass = 0; pass < 2; pass++) await conn.transaction(async (trx) => {
          for (const t of tables) await trx.raw('delete from ??', [t]);
        });
        const left = (await conn.raw(tables.map(() => 'select count(*) as n from ??').join(' union all '), tables)) as { n: number }[];
        if (!left.every((r) => r.n === 0)) return false;
        // The one row a migration writes itself (0026), as every real database has it: the SQLite read cache and the
        // live stream's access check count the cached tables' changes in it.
        if (tables.includes('cached_tables_revision')) await conn('cached_tables_revision').insert({ id: 1, revision: 0 });
        return true;
      } catch {
        return false;
      } finally {
        await conn.destroy();
      }
    }
    const admin = knexFactory({ client: 'pg', connection: d.target.url, pool: { min: 0, max: 1 } });
    try {
      const tables = ((await admin.raw("select tablename from pg_tables where schemaname = ? and tablename not like 'knex\\_%'", [d.schema!])) as { rows: { tablename: string }[] }).rows.map((t) => t.tablename);
      // DELETE rather than TRUNCATE: a few rows each, and TRUNCATE makes every table's files anew (a third of a
      // second for fifty tables). Foreign keys and triggers are off for the transaction (replica role). One
      // round trip: the statements go as one simple query.
      const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
      const at = (t: string) => `${q(d.schema!)}.${q(t)}`;
      await admin.raw(['begin', 'set local session_replication_role = replica', ...tables.map((t) => `delete from ${at(t)}`), 'commit'].join(';\n'));
      const left = await admin.raw(tables.map((t) => `select count(*)::int as n from ${at(t)}`).join(' union all '));
      return (left as { rows: { n: number }[] }).rows.every((r) => r.n === 0);
    } catch {
      return false;
    } finally {
      await admin.destroy();
    }
  };
  return {
    async take(): Promise<TestDatabase> {
      const d = free.pop();
      if (d) return d;
      const fresh = await kind.create();
      made.push(fresh);
      return fresh;
    },
    async give(d: TestDatabase): Promise<void> {
      if (await empty(d)) free.push(d);
      else await d.cleanup();
    },
  };
}

/**
 * memory, SQLite, and Postgres when DATABASE_URL_PG is set: every contract suite runs against each, the databases
 * twice, with the speed layer (adapters/knex/speed/) on and off, so that what it keeps or runs past knex never
 * changes an answer.
 */
export function backends(): Backend[] {
  return [
    { name: 'memory', open: async () => ({ ...memoryStores(emptyTables()), close: async () => {} }) },
    ...databaseKinds().flatMap((kind) => {
      const databases = emptiedDatabases(kind);
      return [true, false].map((speed) => ({
        name: speed ? kind.name : `${kind.name}, speed layer off`,
        async open(): Promise<Stores> {
          const database = await databases.take();
          // Made from the migrated template (test/support/databases.ts): nothing to migrate.
          const db = openDatabase(database.target, { ...(database.schema ? { schema: database.schema } : {}), speed });
          return {
            ...knexStores(db.knex),
            async close() {
              await db.close();
              await databases.give(database);
            },
          };
        },
      }));
    }),
  ];
}
