import type { Knex } from 'knex';

/** How a column's values travel in a backup, whatever the database: the same on SQLite and Postgres. */
export type ValueKind = 'bool' | 'timestamp' | 'int' | 'float' | 'text' | 'bytes';
export const VALUE_KINDS: readonly ValueKind[] = ['bool', 'timestamp', 'int', 'float', 'text', 'bytes'];

export interface ColumnShape {
  readonly name: string;
  readonly kind: ValueKind;
  readonly nullable: boolean;
  /** Postgres: filled from a sequence when left out (its sequence is moved past the restored values). */
  readonly serial: boolean;
}

export interface TableShape {
  readonly name: string;
  readonly columns: readonly ColumnShape[];
  readonly primaryKey: readonly string[];
  /** Tables this one's foreign keys point at (itself left out). */
  readonly references: readonly string[];
}

/**
 * Tables the database's triggers keep: revision counters that name states clients may hold (ETags). A backup
 * carries them; a restore writes them after everything else (the triggers have made their rows by then) and moves
 * every revision far past any the backup held, so no client's kept state can match a restored one by chance.
 */
export const DERIVED_TABLES: readonly string[] = ['household_revisions', 'pantry_food_revisions', 'cached_tables_revision'];
/** Columns a Postgres trigger sets on insert from a derived table (null on SQLite): not compared across databases. */
export const DERIVED_COLUMNS: Readonly<Record<string, readonly string[]>> = { pantry_observations: ['food_revision'] };
/** How far a restore moves every revision (see DERIVED_TABLES). */
export const RESTORED_REVISION_JUMP = 1_000_000_000;

const isPostgres = (knex: Knex) => knex.client.config.client === 'pg';

function kindOf(declared: string): ValueKind {
  const t = declared.toLowerCase();
  if (t.includes('bool')) return 'bool';
  if (t.includes('timestamp') || t.includes('datetime')) return 'timestamp';
  if (t.includes('int')) return 'int';
  if (t.includes('real') || t.includes('float') || t.includes('double') || t.includes('numeric') || t.includes('decimal')) return 'float';
  if (t.includes('blob') || t.includes('bytea')) return 'bytes';
  return 'text';
}

/** Every table of the service (knex's own and SQLite's left out), by name. */
export async function tableShapes(knex: Knex): Promise<TableShape[]> {
  return isPostgres(knex) ? postgresShapes(knex) : sqliteShapes(knex);
}

async function sqliteShapes(knex: Knex): Promise<TableShape[]> {
  const names = ((await knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'knex_%' order by name")) as { name: string }[]).map((r) => r.name);
  const out: TableShape[] = [];
  for (const name of names) {
    const info = (await knex.raw(`pragma table_info(${JSON.stringify(name)})`)) as { name: string; type: string; notnull: number; pk: number }[];
    const fks = (await knex.raw(`pragma foreign_key_list(${JSON.stringify(name)})`)) as { table: string }[];
    out.push({
      name,
      columns: info.map((c) => ({ name: c.name, kind: kindOf(c.type), nullable: c.notnull === 0 && c.pk === 0, serial: false })),
      primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      references: [...new Set(fks.map((f) => f.table).filter((t) => t !== name))],
    });
  }
  return out;
}

async function postgresShapes(knex: Knex): Promise<TableShape[]> {
  const rows = async <T>(sql: string) => ((await knex.raw(sql)) as { rows: T[] }).rows;
  const tables = await rows<{ name: string }>("select tablename as name from pg_tables where schemaname = current_schema() and tablename not like 'knex\\_%' order by tablename");
  const columns = await rows<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
    'select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position',
  );
  const keys = await rows<{ table_name: string; column_name: string; constraint_type: string; referenced: string | null }>(
    'select tc.table_name, kcu.column_name, tc.constraint_type, ccu.table_name as referenced from information_schema.table_constraints tc ' +
      'join information_schema.key_column_usage kcu on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name ' +
      "left join information_schema.constraint_column_usage ccu on tc.constraint_type = 'FOREIGN KEY' and ccu.constraint_schema = tc.constraint_schema and ccu.constraint_name = tc.constraint_name " +
      "where tc.table_schema = current_schema() and tc.constraint_type in ('PRIMARY KEY', 'FOREIGN KEY') order by tc.table_name, kcu.ordinal_position",
  );
  return tables.map(({ name }) => ({
    name,
    columns: columns
      .filter((c) => c.table_name === name)
      .map((c) => ({ name: c.column_name, kind: kindOf(c.data_type), nullable: c.is_nullable === 'YES', serial: (c.column_default ?? '').startsWith('nextval(') })),
    primaryKey: [...new Set(keys.filter((k) => k.table_name === name && k.constraint_type === 'PRIMARY KEY').map((k) => k.column_name))],
    references: [...new Set(keys.filter((k) => k.table_name === name && k.constraint_type === 'FOREIGN KEY' && k.referenced !== null && k.referenced !== name).map((k) => k.referenced!))],
  }));
}

/**
 * The order a restore writes the tables in: each after the tables its foreign keys point at, the derived tables
 * last. A cycle of foreign keys (none today) is a fault of the schema, reported.
 */
export function writeOrder(shapes: readonly TableShape[]): TableShape[] {
  const byName = new Map(shapes.map((s) => [s.name, s]));
  const done = new Set<string>();
  const out: TableShape[] = [];
  const visit = (s: TableShape, path: readonly string[]) => {
    if (done.has(s.name)) return;
    if (path.includes(s.name)) throw new Error(`backup: foreign keys form a cycle: ${[...path, s.name].join(' → ')}`);
    for (const r of s.references) {
      const target = byName.get(r);
      if (target) visit(target, [...path, s.name]);
    }
    done.add(s.name);
    out.push(s);
  };
  for (const s of shapes) if (!DERIVED_TABLES.includes(s.name)) visit(s, []);
  return [...out, ...shapes.filter((s) => DERIVED_TABLES.includes(s.name))];
}
