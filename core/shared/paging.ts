import type { PageCursors } from '../../ports/page-cursors.js';
import type { ErrorOf } from './errors.js';
import { fail, ok, type Result } from './result.js';

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
  readonly total: number;
}

/**
 * One keyset page: opens the caller's cursor (sealed to `scope`, so a cursor of another list, household or filter
 * is refused), reads one row more than asked to know whether a next page exists, and seals the last row's
 * position as the next cursor.
 */
export async function keysetPage<T, P>(
  cursors: PageCursors,
  scope: string,
  query: { cursor: string | null; limit: number },
  list: {
    decode(sealed: readonly string[] | null): P | null;
    rows(after: P | null, limit: number): Promise<T[]>;
    count(): Promise<number>;
    positionOf(item: T): string[];
  },
): Promise<Result<Page<T>, ErrorOf<'page-cursor-invalid'>>> {
  let after: P | null = null;
  if (query.cursor !== null) {
    after = list.decode(cursors.open(scope, query.cursor));
    if (after === null) return fail({ type: 'page-cursor-invalid' });
  }
  const [rows, total] = await Promise.all([list.rows(after, query.limit + 1), list.count()]);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return ok({ items, nextCursor: rows.length > query.limit && last !== undefined ? cursors.seal(scope, list.positionOf(last)) : null, total });
}
