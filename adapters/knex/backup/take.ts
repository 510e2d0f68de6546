import { closeSync, createWriteStream, fsyncSync, mkdtempSync, openSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { createGzip } from 'node:zlib';
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import { BACKUP_FORMAT, BACKUP_VERSION, encodeValue, type BackupHeader } from './format.js';
import { tableShapes, type TableShape } from './shape.js';

/** What to back up: a SQLite file, or a Postgres database (and the schema the service works in). */
export type BackupSource = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string | undefined };

export interface BackupReport {
  readonly tables: number;
  readonly rows: number;
  readonly bytes: number;
}

/** The driver's own connection, for its online backup (no types are installed for it: the part used is this). */
interface SqliteFile {
  pragma(s: string): unknown;
  backup(to: string, options: { progress(info: { totalPages: number; remainingPages: number }): number }): Promise<unknown>;
  close(): void;
}
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (file: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteFile;

/** Rows read from Postgres at a time, through a cursor in the backup's snapshot. */
const FETCH = 1000;

/**
 * Writes a consistent backup of the service's tables to `to` while the service keeps serving writes:
 *  - SQLite: SQLite's online backup (better-sqlite3 `backup()`, all pages in one step, so no write can come
 *    between them) into a snapshot file beside the temporary folder, never a copy of the live file, then that
 *    snapshot in the portable format;
 *  - Postgres: one read-only REPEATABLE READ transaction (one snapshot) reading each table through a cursor.
 * The file is written to `to.partial-{pid}` with mode 0600 (it holds password hashes and tokens), flushed to disk,
 * then renamed over `to`: a backup killed half-way leaves the previous file as it was.
 */
export async function takeBackup(source: BackupSource, to: string, now: Date): Promise<BackupReport> {
  const target = resolve(to);
  const partial = `${target}.partial-${process.pid}`;
  const file = createWriteStream(partial, { mode: 0o600 });
  const gzip = createGzip();
  gzip.pipe(file);
  let bytes = 0;
  const write = async (line: unknown) => {
    const text = `${JSON.stringify(line)}\n`;
    bytes += Buffer.byteLength(text);
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  let tables = 0;
  let rows = 0;
  const dumpTable = async (shape: TableShape, batches: AsyncIterable<Record<string, unknown>[]>) => {
    tables++;
    await write({ table: shape.name, columns: shape.columns.map((c) => ({ name: c.name, kind: c.kind, nullable: c.nullable })) });
    for await (const batch of batches) {
      for (const row of batch) {
        rows++;
        await write(shape.columns.map((c) => encodeValue(c.kind, row[c.name])));
      }
    }
  };
  try {
    if (source.kind === 'sqlite') await fromSqlite(source.file, now, write, dumpTable);
    else await fromPostgres(source, now, write, dumpTable);
    await write({ end: true, tables, rows });
    gzip.end();
    await once(file, 'close');
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, target);
    // The rename itself is made durable with the folder's entry.
    const dir = openSync(dirname(target), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    return { tables, rows, bytes };
  } catch (err) {
    gzip.destroy();
    file.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
}

type Write = (line: unknown) => Promise<void>;
type DumpTable = (shape: TableShape, batches: AsyncIterable<Record<string, unknown>[]>) => Promise<void>;

const header = (source: BackupHeader['source'], migrations: readonly string[], now: Date): BackupHeader => ({
  format: BACKUP_FORMAT,
  version: BACKUP_VERSION,
  createdAt: now.toISOString(),
  source,
  migrations,
});

async function fromSqlite(file: string, now: Date, write: Write, dumpTable: DumpTable): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-backup-'));
  const snapshot = join(dir, 'snapshot.db');
  try {
    const live = new Sqlite(file, { readonly: true, fileMustExist: true });
    try {
      live.pragma('busy_timeout = 5000');
      // One step copies every page under one read lock: a consistent snapshot, and no restart for writes meanwhile.
      await live.backup(snapshot, { progress: () => 2 ** 30 });
    } finally {
      live.close();
    }
    const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: snapshot }, useNullAsDefault: true });
    try {
      const migrations = ((await knex('knex_migrations').orderBy('id').select('name')) as { name: string }[]).map((r) => r.name);
      await write(header('sqlite', migrations, now));
      for (const shape of await tableShapes(knex)) {
        await dumpTable(shape, batchesOf(knex, shape));
      }
    } finally {
      await knex.destroy();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function* batchesOf(knex: Knex, shape: TableShape): AsyncIterable<Record<string, unknown>[]> {
  // The snapshot is a file nobody else writes: rowid order, a page at a time.
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const batch = (await knex.raw(`select rowid as "__rowid", * from ${JSON.stringify(shape.name)} where rowid > ? order by rowid limit ${FETCH}`, [after])) as (Record<string, unknown> & { __rowid: number })[];
    if (batch.length === 0) return;
    after = batch[batch.length - 1]!.__rowid;
    yield batch;
  }
}

async function fromPostgres(source: Extract<BackupSource, { kind: 'postgres' }>, now: Date, write: Write, dumpTable: DumpTable): Promise<void> {
  const knex = knexFactory({ client: 'pg', connection: source.url, ...(source.schema ? { searchPath: [source.schema] } : {}), pool: { min: 0, max: 1 } });
  try {
    await knex.transaction(
      async (trx) => {
        const migrations = ((await trx('knex_migrations').orderBy('id').select('name')) as { name: string }[]).map((r) => r.name);
        await write(header('postgres', migrations, now));
        for (const shape of await tableShapes(trx)) {
          await dumpTable(shape, cursorOf(trx, shape));
        }
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
  } finally {
    await knex.destroy();
  }
}

async function* cursorOf(trx: Knex.Transaction, shape: TableShape): AsyncIterable<Record<string, unknown>[]> {
  await trx.raw(`declare backup_rows no scroll cursor for select * from "${shape.name.replace(/"/g, '""')}"`);
  try {
    for (;;) {
      const { rows } = (await trx.raw(`fetch ${FETCH} from backup_rows`)) as { rows: Record<string, unknown>[] };
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await trx.raw('close backup_rows');
  }
}
