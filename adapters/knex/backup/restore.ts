import knexFactory, { type Knex } from 'knex';
import { migrationSource, migrations } from '../migrations/index.js';
import { BackupRefused, decodeValue, readBackup, valueFault, type BackupColumn, type BackupHeader, type BackupValue } from './format.js';
import { DERIVED_TABLES, RESTORED_REVISION_JUMP, tableShapes, writeOrder, type TableShape } from './shape.js';

export type RestoreTarget = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string | undefined };

export interface RestoreReport {
  readonly tables: number;
  readonly rows: number;
  /** Migrations of this code run after the backup's rows were written (the backup was older). */
  readonly migratedForward: number;
  readonly source: BackupHeader['source'];
  readonly createdAt: string;
}

/** Rows per INSERT statement (well under SQLite's bound-variable limit for the widest table). */
const BATCH = 200;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Restores a backup (adapters/knex/backup/format.ts) into the database `target` names:
 *  1. Reads the whole file once and checks every row before anything is written: the format, the migrations (a
 *     backup newer than this code is refused, naming the migration it lacks), each table and column against the
 *     schema those migrations make (built in memory), and each value against its column.
 *  2. Refuses a database holding accounts or households unless `force`.
 *  3. Drops every table and migrates up to the backup's last migration; then, in one transaction, writes the rows
 *     table by table in foreign-key order, derived revision tables last (their revisions moved far past the
 *     backup's), and moves Postgres sequences past the restored values. A failure leaves an empty database.
 *  4. Runs this code's later migrations. A file from SQLite restores into Postgres and the other way round.
 */
export async function restoreBackup(file: string, target: RestoreTarget, options: { force?: boolean } = {}): Promise<RestoreReport> {
  const checked = await checkBackup(file);
  const knex =
    target.kind === 'sqlite'
      ? knexFactory({ client: 'better-sqlite3', connection: { filename: target.file }, useNullAsDefault: true, pool: { min: 1, max: 1 } })
      : knexFactory({ client: 'pg', connection: target.url, ...(target.schema ? { searchPath: [target.schema] } : {}), pool: { min: 0, max: 1 } });
  const postgres = target.kind === 'postgres';
  try {
    if (!postgres) {
      await knex.raw('pragma busy_timeout = 10000');
      await knex.raw('pragma foreign_keys = on');
    }
    if (!options.force && (await holdsData(knex))) {
      throw new BackupRefused('the database holds accounts or households: restore into an empty database, or add --force to replace everything in it');
    }
    if (!postgres) {
      // As the service opens its file (adapters/knex/database.ts); foreign keys are checked as the rows go in.
      await knex.raw('pragma journal_mode = WAL');
      await knex.raw('pragma synchronous = FULL');
    }
    await dropEverything(knex, postgres);
    for (let i = 0; i < checked.header.migrations.length; i++) await knex.migrate.up({ migrationSource });
    const shapes = new Map((await tableShapes(knex)).map((s) => [s.name, s]));
    const rows = await knex.transaction(async (trx) => {
      let n = 0;
      for (const shape of writeOrder([...shapes.values()])) {
        const columns = checked.columns.get(shape.name);
        if (columns) n += await writeTable(trx, shape, columns, rowsOf(file, shape.name), postgres);
      }
      for (const t of DERIVED_TABLES) if (shapes.has(t)) await trx(t).update({ revision: trx.raw('revision + ?', [RESTORED_REVISION_JUMP]) });
      if (postgres) await moveSequences(trx, [...shapes.values()]);
      return n;
    });
    if (!postgres) {
      const broken = (await knex.raw('pragma foreign_key_check')) as unknown[];
      if (broken.length > 0) throw new Error(`restore: ${broken.length} rows break a foreign key`);
    }
    const before = (await knex('knex_migrations').count<{ n: number | string }[]>({ n: '*' }))[0]!.n;
    await knex.migrate.latest({ migrationSource });
    const after = (await knex('knex_migrations').count<{ n: number | string }[]>({ n: '*' }))[0]!.n;
    return { tables: checked.columns.size, rows, migratedForward: Number(after) - Number(before), source: checked.header.source, createdAt: checked.header.createdAt };
  } finally {
    await knex.destroy();
  }
}

interface CheckedBackup {
  readonly header: BackupHeader;
  readonly columns: ReadonlyMap<string, readonly BackupColumn[]>;
  readonly rows: number;
}

/** The whole file read and checked against the schema of its migrations; nothing is written. */
export async function checkBackup(file: string): Promise<CheckedBackup> {
  let header: BackupHeader | null = null;
  let expected: Map<string, TableShape> | null = null;
  const columns = new Map<string, readonly BackupColumn[]>();
  let rows = 0;
  for await (const line of readBackup(file)) {
    if (line.kind === 'header') {
      header = line.header;
      const known = migrations.map((m) => m.name);
      const unknown = header.migrations.find((m, i) => known[i] !== m);
      if (unknown !== undefined) {
        throw new BackupRefused(
          known.includes(unknown)
            ? `the backup's migrations are not this code's, in this code's order (at ${unknown})`
            : `the backup is newer than this code: it was taken after migration ${unknown}, which this code does not have; restore it with the version that made it, or a later one`,
        );
      }
      expected = await schemaAt(header.migrations.length);
    } else if (line.kind === 'table') {
      const shape = expected!.get(line.table);
      if (!shape) throw new BackupRefused(`table ${line.table} is not one the backup's migrations make`);
      const names = shape.columns.map((c) => c.name).sort();
      const got = line.columns.map((c) => c.name).sort();
      if (names.join() !== got.join()) throw new BackupRefused(`the columns of ${line.table} are not those its migrations make (${got.join(', ')} against ${names.join(', ')})`);
      columns.set(line.table, line.columns);
    } else if (line.kind === 'row') {
      rows++;
      const cols = columns.get(line.table)!;
      for (const [i, c] of cols.entries()) {
        const fault = valueFault(c, line.values[i]);
        if (fault) throw new BackupRefused(`line ${line.line}: ${line.table}.${c.name} ${fault}`);
      }
    }
  }
  return { header: header!, columns, rows };
}

/** The tables and columns the first `count` migrations make, in a database in memory. */
async function schemaAt(count: number): Promise<Map<string, TableShape>> {
  const scratch = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
  try {
    for (let i = 0; i < count; i++) await scratch.migrate.up({ migrationSource });
    return new Map((await tableShapes(scratch)).map((s) => [s.name, s]));
  } finally {
    await scratch.destroy();
  }
}

async function holdsData(knex: Knex): Promise<boolean> {
  for (const table of ['accounts', 'households']) {
    if (!(await knex.schema.hasTable(table))) continue;
    if ((await knex(table).first()) !== undefined) return true;
  }
  return false;
}

/** Every table of the service and knex's own bookkeeping: the restore rebuilds the schema from its migrations. */
async function dropEverything(db: Knex, postgres: boolean): Promise<void> {
  if (postgres) {
    const { rows } = (await db.raw('select tablename from pg_tables where schemaname = current_schema()')) as { rows: { tablename: string }[] };
    if (rows.length > 0) await db.raw(`drop table ${rows.map((r) => quote(r.tablename)).join(', ')} cascade`);
    return;
  }
  const tables = ((await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")) as { name: string }[]).map((r) => r.name);
  await db.raw('pragma foreign_keys = off');
  for (const t of tables) await db.raw(`drop table if exists ${quote(t)}`);
  await db.raw('pragma foreign_keys = on');
}

/** The rows of one table, read from the file again (it was checked whole before anything was written). */
async function* rowsOf(file: string, table: string): AsyncGenerator<readonly BackupValue[]> {
  for await (const line of readBackup(file)) if (line.kind === 'row' && line.table === table) yield line.values;
}

async function writeTable(db: Knex, shape: TableShape, columns: readonly BackupColumn[], rows: AsyncIterable<readonly BackupValue[]>, postgres: boolean): Promise<number> {
  const derived = DERIVED_TABLES.includes(shape.name);
  let batch: Record<string, unknown>[] = [];
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const insert = db(shape.name).insert(batch);
    // A derived table's rows were made by triggers as the rows they count went in: the backup's values win.
    await (derived && shape.primaryKey.length > 0 ? insert.onConflict([...shape.primaryKey]).merge() : insert);
    n += batch.length;
    batch = [];
  };
  for await (const values of rows) {
    batch.push(Object.fromEntries(columns.map((c, i) => [c.name, decodeValue(c.kind, values[i]!, postgres)])));
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return n;
}

/** Postgres: each serial column's sequence goes past the largest value restored, so new rows do not collide. */
async function moveSequences(db: Knex, shapes: readonly TableShape[]): Promise<void> {
  for (const s of shapes) {
    for (const c of s.columns.filter((x) => x.serial)) {
      await db.raw(`select setval(pg_get_serial_sequence(?, ?), coalesce((select max(${quote(c.name)}) from ${quote(s.name)}), 0) + 1, false)`, [s.name, c.name]);
    }
  }
}
