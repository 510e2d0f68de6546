import type { PageCursors } from '../../ports/page-cursors.js';
import type { ErrorOf } from './errors.js';
import { fail, ok, type Result } from './result.js';

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
  readonly total: number;
}

/**
 * Where a list's cursors are valid: `scope` is sealed into each cursor, so a cursor of another list, household or
 * filter is refused; `boundTo` says what the cursor is bound to, for the caller ("this household and q").
 */
export interface CursorScope {
  readonly scope: string;
  readonly boundTo: string;
}

type CursorInvalid = ErrorOf<'page-cursor-invalid'>;

/**
 * The position a caller's cursor holds: null without a cursor; refused when it was not sealed for this scope or
 * `decode` (which checks each part, since a cursor is input like any other) does not accept what it holds.
 */
export function openCursor<P>(cursors: PageCursors, where: CursorScope, cursor: string | null, decode: (sealed: readonly string[]) => P | null): Result<P | null, CursorInvalid> {
  if (cursor === null) return ok(null);
  const sealed = cursors.open(where.scope, cursor);
  const position = sealed === null ? null : decode(sealed);
  return position === null ? fail({ type: 'page-cursor-invalid', boundTo: where.boundTo }) : ok(position);
}

/** The cursor of the page after `items` (the last item's position, sealed), or null when there is none. */
export function nextCursor<T>(cursors: PageCursors, where: CursorScope, items: readonly T[], more: boolean, positionOf: (item: T) => string[]): string | null {
  const last = items[items.length - 1];
  return more && last !== undefined ? cursors.seal(where.scope, positionOf(last)) : null;
}

/**
 * One keyset page: opens the caller's cursor, reads one row more than asked to know whether a next page exists,
 * and seals the last row's position as the next cursor.
 */
export async function keysetPage<T, P>(
  cursors: PageCursors,
  where: CursorScope,
  query: { cursor: string | null; limit: number },
  list: {
    decode(sealed: readonly string[]): P | null;
    rows(after: P | null, limit: number): Promise<T[]>;
    count(): Promise<number>;
    positionOf(item: T): string[];
  },
): Promise<Result<Page<T>, CursorInvalid>> {
  const after = openCursor(cursors, where, query.cursor, list.decode);
  if (!after.ok) return after;
  const [rows, total] = await Promise.all([list.rows(after.value, query.limit + 1), list.count()]);
  const items = rows.slice(0, query.limit);
  return ok({ items, nextCursor: nextCursor(cursors, where, items, rows.length > query.limit, list.positionOf), total });
}
