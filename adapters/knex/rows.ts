/** Row helpers shared by the Knex stores: SQLite hands back text and 0/1 where Postgres hands back Date and boolean. */
export const toDate = (v: unknown): Date => (v instanceof Date ? new Date(v.getTime()) : new Date(String(v)));
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
/** Timestamps are written as ISO 8601 UTC text: sortable on SQLite, cast by Postgres to timestamptz. */
export const iso = (d: Date): string => d.toISOString();
export const toJsonText = (v: unknown): string => JSON.stringify(v);
export const fromJsonText = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
