import type { Knex } from 'knex';
import { fixedSqlOf } from './fixed-sql.js';

/** Row helpers shared by the Knex stores: SQLite hands back text and 0/1 where Postgres hands back Date and boolean. */
export const toDate = (v: unknown): Date => (v instanceof Date ? new Date(v.getTime()) : new Date(String(v)));
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
/** Timestamps are written as ISO 8601 UTC text: sortable on SQLite, cast by Postgres to timestamptz. */
export const iso = (d: Date): string => d.toISOString();
export const toJsonText = (v: unknown): string => JSON.stringify(v);
export const fromJsonText = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/**
 * The rows of a select written as fixed SQL with `?` values, for the reads every signed-in request makes: on the
 * database's driver directly (adapters/knex/fixed-sql.ts), or through knex.raw inside a transaction. knex's query
 * builder costs more than running such a query (about 40 µs, 17 µs through knex.raw, 3 µs for the driver's
 * prepared statement on SQLite; scripts/bench/probe-knex.ts).
 */
export async function rawRows<T>(knex: Knex, sql: string, bindings: readonly Knex.Value[]): Promise<T[]> {
  const fixed = fixedSqlOf(knex);
  if (fixed) return fixed.rows<T>(sql, bindings);
  const result = (await knex.raw(sql, [...bindings])) as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
