import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { VALUE_KINDS, type ValueKind } from './shape.js';

/**
 * The service's portable backup: gzipped JSON lines, the same from SQLite and from Postgres.
 *   {"format":"dinner-planner-backup","version":1,"createdAt":...,"source":"sqlite","migrations":[...]}
 *   {"table":"accounts","columns":[{"name":"id","kind":"text","nullable":false}, ...]}
 *   [value, value, ...]            one line per row, in the columns' order
 *   ...
 *   {"end":true,"tables":N,"rows":M}
 * Values: bool as true/false, timestamp as an ISO 8601 string (UTC, milliseconds), int and float as numbers,
 * text as a string, bytes as {"base64":"..."}; null as null. A file without its end line was cut short.
 */
export const BACKUP_FORMAT = 'dinner-planner-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  readonly format: typeof BACKUP_FORMAT;
  readonly version: number;
  readonly createdAt: string;
  readonly source: 'sqlite' | 'postgres';
  /** The migrations applied to the database backed up, in order. */
  readonly migrations: readonly string[];
}

export interface BackupColumn {
  readonly name: string;
  readonly kind: ValueKind;
  readonly nullable: boolean;
}

export type BackupValue = boolean | number | string | { readonly base64: string } | null;

/** Why a backup file cannot be read or restored: one line for the operator. */
export class BackupRefused extends Error {
  override readonly name = 'BackupRefused';
}

/** A value as it goes into the file, from what either driver answered for a column of `kind`. */
export function encodeValue(kind: ValueKind, v: unknown): BackupValue {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'bool':
      return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
    case 'timestamp': {
      const d = v instanceof Date ? v : new Date(typeof v === 'number' ? v : String(v));
      if (Number.isNaN(d.getTime())) throw new Error(`not a time: ${String(v)}`);
      return d.toISOString();
    }
    case 'int':
    case 'float':
      return Number(v);
    case 'bytes':
      return { base64: Buffer.from(v as Uint8Array).toString('base64') };
    case 'text':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}

/** Whether a value read from a file is one a column of this kind holds; the reason when not. */
export function valueFault(column: BackupColumn, v: unknown): string | null {
  if (v === null) return column.nullable ? null : 'is null, and the column is not';
  switch (column.kind) {
    case 'bool':
      return typeof v === 'boolean' ? null : 'is not true or false';
    case 'timestamp':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v)) ? null : 'is not an ISO 8601 UTC time';
    case 'int':
      return typeof v === 'number' && Number.isSafeInteger(v) ? null : 'is not a whole number';
    case 'float':
      return typeof v === 'number' && Number.isFinite(v) ? null : 'is not a number';
    case 'text':
      return typeof v === 'string' ? null : 'is not text';
    case 'bytes':
      return typeof v === 'object' && v !== null && typeof (v as { base64?: unknown }).base64 === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test((v as { base64: string }).base64) ? null : 'is not {"base64": ...}';
  }
}

/** A value from the file as the target database takes it (SQLite: booleans as 1/0; both: times as ISO strings). */
export function decodeValue(kind: ValueKind, v: BackupValue, postgres: boolean): unknown {
  if (v === null) return null;
  if (kind === 'bool') return postgres ? v : v ? 1 : 0;
  if (kind === 'bytes') return Buffer.from((v as { base64: string }).base64, 'base64');
  return v;
}

export type BackupLine =
  | { readonly kind: 'header'; readonly header: BackupHeader }
  | { readonly kind: 'table'; readonly table: string; readonly columns: readonly BackupColumn[] }
  | { readonly kind: 'row'; readonly table: string; readonly line: number; readonly values: readonly BackupValue[] }
  | { readonly kind: 'end'; readonly tables: number; readonly rows: number };

/**
 * Reads a backup file line by line, checking its structure as it goes (the first line a header this code reads,
 * each row after its table's line with as many values as columns, an end line with the right counts, nothing
 * after it); a fault throws BackupRefused naming the line.
 */
export async function* readBackup(file: string): AsyncGenerator<BackupLine> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let n = 0;
  let table: { name: string; columns: readonly BackupColumn[] } | null = null;
  let tables = 0;
  let rows = 0;
  let ended = false;
  const seen = new Set<string>();
  try {
    for await (const text of lines) {
      n++;
      if (ended) throw new BackupRefused(`line ${n}: something follows the end of the backup`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new BackupRefused(`line ${n}: not JSON`);
      }
      if (n === 1) {
        const h = parsed as Partial<BackupHeader>;
        if (h?.format !== BACKUP_FORMAT) throw new BackupRefused('not a backup of this service (its first line names no dinner-planner-backup)');
        if (h.version !== BACKUP_VERSION) throw new BackupRefused(`backup format version ${String(h.version)} is not one this code reads (${BACKUP_VERSION})`);
        if (!Array.isArray(h.migrations) || !h.migrations.every((m) => typeof m === 'string') || (h.source !== 'sqlite' && h.source !== 'postgres') || typeof h.createdAt !== 'string') {
          throw new BackupRefused('line 1: the header is damaged');
        }
        yield { kind: 'header', header: h as BackupHeader };
        continue;
      }
      if (Array.isArray(parsed)) {
        if (!table) throw new BackupRefused(`line ${n}: a row before any table`);
        if (parsed.length !== table.columns.length) throw new BackupRefused(`line ${n}: ${parsed.length} values for ${table.columns.length} columns of ${table.name}`);
        rows++;
        yield { kind: 'row', table: table.name, line: n, values: parsed as BackupValue[] };
        continue;
      }
      const o = parsed as { table?: unknown; columns?: unknown; end?: unknown; tables?: unknown; rows?: unknown };
      if (o?.end === true) {
        if (o.tables !== tables || o.rows !== rows) throw new BackupRefused(`line ${n}: the end line counts ${String(o.tables)} tables and ${String(o.rows)} rows, the file holds ${tables} and ${rows}`);
        ended = true;
        yield { kind: 'end', tables, rows };
        continue;
      }
      if (typeof o?.table !== 'string' || !Array.isArray(o.columns)) throw new BackupRefused(`line ${n}: neither a table, a row nor the end`);
      const columns = o.columns as BackupColumn[];
      if (!columns.every((c) => typeof c?.name === 'string' && VALUE_KINDS.includes(c.kind) && typeof c.nullable === 'boolean')) throw new BackupRefused(`line ${n}: the columns of ${o.table} are damaged`);
      if (seen.has(o.table)) throw new BackupRefused(`line ${n}: table ${o.table} appears twice`);
      seen.add(o.table);
      tables++;
      table = { name: o.table, columns };
      yield { kind: 'table', table: o.table, columns };
    }
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    throw new BackupRefused(`the file cannot be read as a gzipped backup (${err instanceof Error ? err.message : String(err)})`);
  }
  if (n === 0) throw new BackupRefused('the file is empty');
  if (!ended) throw new BackupRefused('the backup is cut short (no end line): it was not finished');
}
