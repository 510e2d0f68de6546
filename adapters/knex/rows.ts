/** Row helpers shared by the Knex stores: SQLite hands back text and 0/1 where Postgres hands back Date and boolean. */
export const toDate = (v: unknown): Date => (v instanceof Date ? new Date(v.getTime()) : new Date(String(v)));
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
/** Timestamps are written as ISO 8601 UTC text: sortable on SQLite, cast by Postgres to timestamptz. */
export const iso = (d: Date): string => d.toISOString();
export const toJsonText = (v: unknown): string => JSON.stringify(v);
export const fromJsonText = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** How a field is kept in its column: as it is, as an instant (ISO text written, Date read; an optional one may be null), or as a flag. */
export type ColumnKind = 'as-is' | 'instant' | 'optional-instant' | 'flag';

/** Between a port's plain record and its table's row, where each field has the column of its name in snake_case. */
export interface RowMapping<T> {
  /** The row to write. */
  toRow(value: T): Record<string, unknown>;
  /** The record a row read back holds (its other columns ignored). */
  fromRow(row: object): T;
}

const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The mapping of a record whose every field is listed with its kind, in the order the record's fields come. */
export function rowMapping<T extends object>(kinds: { readonly [K in keyof T]-?: ColumnKind }): RowMapping<T> {
  const fields = Object.entries(kinds as Record<string, ColumnKind>).map(([field, kind]) => ({ field, column: columnOf(field), kind }));
  return {
    toRow(value) {
      const from = value as Record<string, unknown>;
      const row: Record<string, unknown> = {};
      for (const { field, column, kind } of fields) {
        const v = from[field];
        row[column] = kind === 'instant' || (kind === 'optional-instant' && v !== null) ? iso(v as Date) : v;
      }
      return row;
    },
    fromRow(row) {
      const from = row as Record<string, unknown>;
      const value: Record<string, unknown> = {};
      for (const { field, column, kind } of fields) {
        const v = from[column];
        value[field] = kind === 'instant' || (kind === 'optional-instant' && v !== null) ? toDate(v) : kind === 'flag' ? toBool(v) : v;
      }
      return value as T;
    },
  };
}
