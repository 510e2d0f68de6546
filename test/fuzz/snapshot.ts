import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Tables whose rows legitimately change on any request, good or bad, and so say nothing about bad input:
 * - rate_limits: rate-limiter-flexible's counters; every request, refused or not, consumes a point of its class.
 * Nothing else is left out. sessions has no last-seen column, and a session is only extended (expires_at) when
 * less than its renewal window is left, which a session signed in a minute ago never is.
 */
export const VOLATILE_TABLES: ReadonlySet<string> = new Set(['rate_limits']);

/**
 * Columns that legitimately change on any request, good or bad: a personal access token's last use is noted when the
 * token is checked (at most once a minute), before the request's input is.
 */
export const VOLATILE_COLUMNS: Readonly<Record<string, readonly string[]>> = { access_tokens: ['last_used_at'] };

/** Every row of every table (but the volatile ones), canonical: one sorted list of JSON lines per table. */
export type Snapshot = ReadonlyMap<string, { readonly hash: string; readonly rows: readonly string[] }>;

async function tableNames(knex: Knex, schema: string | undefined): Promise<string[]> {
  if (knex.client.config.client === 'pg') {
    const rows = (await knex.raw('select tablename from pg_tables where schemaname = ?', [schema ?? 'public'])).rows as { tablename: string }[];
    return rows.map((r) => r.tablename);
  }
  const rows = (await knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")) as { name: string }[];
  return rows.map((r) => r.name);
}

const canonical = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `hex:${value.toString('hex')}`;
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return Array.isArray(value) ? value.map(canonical) : value;
};

export async function snapshot(knex: Knex, schema: string | undefined): Promise<Snapshot> {
  const out = new Map<string, { hash: string; rows: string[] }>();
  for (const table of (await tableNames(knex, schema)).sort()) {
    if (VOLATILE_TABLES.has(table)) continue;
    const query = knex.client.config.client === 'pg' ? knex.withSchema(schema ?? 'public').from(table) : knex.from(table);
    const volatile = VOLATILE_COLUMNS[table] ?? [];
    const kept = (r: unknown) => (volatile.length === 0 ? r : Object.fromEntries(Object.entries(r as Record<string, unknown>).filter(([k]) => !volatile.includes(k))));
    const rows = ((await query.select('*')) as unknown[]).map((r) => JSON.stringify(canonical(kept(r)))).sort();
    out.set(table, { hash: createHash('sha256').update(rows.join('\n')).digest('hex'), rows });
  }
  return out;
}

/** The tables that differ, each with a few rows only in `before` (-) and only in `after` (+); empty when equal. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table);
    const b = after.get(table);
    if (a?.hash === b?.hash) continue;
    const was = new Set(a?.rows ?? []);
    const is = new Set(b?.rows ?? []);
    const gone = [...was].filter((r) => !is.has(r)).slice(0, 3).map((r) => `  - ${r.slice(0, 300)}`);
    const came = [...is].filter((r) => !was.has(r)).slice(0, 3).map((r) => `  + ${r.slice(0, 300)}`);
    out.push([`${table}:`, ...gone, ...came].join('\n'));
  }
  return out;
}
