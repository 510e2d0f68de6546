import type { Knex } from 'knex';

/** One column of a page's order: its name, `>` if it ascends or `<` if it descends, and the value of the last row handed out. */
export type KeysetColumn = readonly [column: string, direction: '>' | '<', last: string];

/**
 * Narrows `where` to the rows after the last one handed out, in the order of `keys` (the first sorts first; the last
 * is unique): past it on the first column, or level with it there and past it on the rest.
 */
export function keysetAfter(where: Knex.QueryBuilder, keys: readonly [KeysetColumn, ...KeysetColumn[]]): void {
  const [[column, direction, last], ...rest] = keys;
  where.where(column, direction, last);
  if (rest.length === 0) return;
  where.orWhere((same) => {
    same.where(column, last);
    if (rest.length === 1) same.andWhere(...rest[0]!);
    else same.andWhere((next) => keysetAfter(next, rest as [KeysetColumn, ...KeysetColumn[]]));
  });
}

/** The rows of `table` that belong to one of `parents`: their `column` holds its id. */
export const childrenOf = (db: Knex | Knex.Transaction, table: string, column: string, parents: readonly { readonly id: string }[]): Knex.QueryBuilder =>
  db(table).whereIn(
    column,
    parents.map((p) => p.id),
  );
