import type { Knex } from 'knex';

/**
 * The pieces the migrations (adapters/knex/migrations/) build tables from. Each makes exactly the column or table
 * its callers spelled out before it existed: a landed migration must go on making the schema it made.
 */

type Table = Knex.CreateTableBuilder | Knex.AlterTableBuilder;

export const isPostgres = (knex: Knex): boolean => (knex.client as { config: { client: unknown } }).config.client === 'pg';

/** Makes the table unless the database has it already (a migration met half done); true when it made it. */
export async function createTableOnce(knex: Knex, table: string, build: (t: Knex.CreateTableBuilder) => void): Promise<boolean> {
  if (await knex.schema.hasTable(table)) return false;
  await knex.schema.createTable(table, build);
  return true;
}

/** Adds build's columns to the table unless it has `column` (the first of them) already. */
export async function addColumnsOnce(knex: Knex, table: string, column: string, build: (t: Knex.AlterTableBuilder) => void): Promise<void> {
  if (await knex.schema.hasColumn(table, column)) return;
  await knex.schema.alterTable(table, build);
}

/** The row's key: a uuid named id. */
export const idColumn = (t: Table): Knex.ColumnBuilder => t.uuid('id').primary();

/** A uuid column naming a row of `table` (by its id) that the row cannot be without: it goes with that row. */
export const ownerColumn = (t: Table, column: string, table: string): Knex.ReferencingColumnBuilder =>
  t.uuid(column).notNullable().references('id').inTable(table).onDelete('CASCADE');

/** The row's key, a uuid naming its one row of `table` (by its id), with which it goes: one row per that row. */
export const ownerKeyColumn = (t: Table, column: string, table: string): Knex.ReferencingColumnBuilder =>
  t.uuid(column).primary().references('id').inTable(table).onDelete('CASCADE');

/** The household the row belongs to, going with it. */
export const householdColumn = (t: Table): Knex.ReferencingColumnBuilder => ownerColumn(t, 'household_id', 'households');

/** The account the row belongs to, going with it. */
export const accountColumn = (t: Table): Knex.ReferencingColumnBuilder => ownerColumn(t, 'account_id', 'accounts');

/** The row's key: a SHA-256 in hex, of a token, code or address the database keeps only as its hash. */
export const hashKeyColumn = (t: Table, column: string): Knex.ColumnBuilder => t.string(column, 64).primary();

/**
 * The row of an address on a list that mails it (the dinner-price list, the waitlist): its id, the address
 * normalized (trimmed, lower-case; unique, so that concurrent first requests for one address meet here), the
 * language of its mails, when it came, when it was confirmed (null until then) and when it was last mailed.
 */
export function addressListColumns(t: Table): void {
  idColumn(t);
  t.string('email', 254).notNullable().unique();
  t.string('language', 8).notNullable();
  instants(t, 'created_at');
  optionalInstants(t, 'confirmed_at');
  instants(t, 'last_mailed_at');
}

/**
 * Where a row sent with retries under a worker's claim stands (push deliveries, mails): its state (pending, sent,
 * failed, dropped), its tries, when it is due, the claim, and the last error.
 */
export function sendProgressColumns(t: Table): void {
  t.string('state', 8).notNullable();
  t.integer('attempts').notNullable();
  instants(t, 'next_attempt_at');
  // A worker's claim: others leave the row alone until claimed_until has passed.
  t.uuid('claim_id').nullable();
  optionalInstants(t, 'claimed_until');
  t.text('last_error').nullable();
}

/** A uuid column that may name a row of `table` (by its id); what becomes of it when that row goes is `onDelete`. */
export const optionalRefColumn = (t: Table, column: string, table: string, onDelete: 'SET NULL' | 'CASCADE' = 'SET NULL'): Knex.ReferencingColumnBuilder =>
  t.uuid(column).nullable().references('id').inTable(table).onDelete(onDelete);

/** An instant with its time zone. */
export const instantColumn = (t: Table, column: string): Knex.ColumnBuilder => t.timestamp(column, { useTz: true });

/** Instants every row has, one column each, in this order. */
export function instants(t: Table, ...columns: string[]): void {
  for (const column of columns) instantColumn(t, column).notNullable();
}

/** Instants a row may lack, one column each, in this order. */
export function optionalInstants(t: Table, ...columns: string[]): void {
  for (const column of columns) instantColumn(t, column).nullable();
}

/**
 * A key that sorts and compares by code point on both databases: Postgres gives the column the "C" collation (a
 * locale collation orders '-' and æøå differently from SQLite's binary order, and keyset paging would disagree).
 * Of at most `length` characters, or text without a length.
 */
export function codePointColumn(knex: Knex, t: Table, column: string, length?: number): Knex.ColumnBuilder {
  if (isPostgres(knex)) return t.specificType(column, length === undefined ? 'text collate "C"' : `varchar(${length}) collate "C"`);
  return length === undefined ? t.text(column) : t.string(column, length);
}
