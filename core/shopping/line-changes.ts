import type { LineChange, LineChangeKind, ShoppingLine, ShoppingListContent } from './types.js';

/*
 * Two shoppers, one list, and a store with bad reception: a change made offline reaches the service minutes after it
 * was made, and may meet a change the other shopper made in between. The later action in time wins. Each list keeps
 * every line's last change by a person (who, what, and when it was made), and a change sent late says when it was
 * made (`actedAt`): where someone else changed the line after that, the late change is refused with what they did
 * (the `shopping-line-changed` failure), unless it asks for what the line already is. A line removed is kept as it
 * was, so that a later change of it (ticked offline after the other removed it) puts it back.
 */

/** How many lines' last changes a list keeps: the newest, one each (a week's list has far fewer lines changed). */
export const KEPT_CHANGES = 200;

/**
 * When a change counts as made: when the person says they made it (a change sent late), but never after now (a
 * phone's clock ahead of the service's would otherwise win every time); now when they say nothing.
 */
export const actedAtOf = (actedAt: Date | undefined, now: Date): Date => (actedAt === undefined || actedAt.getTime() > now.getTime() ? now : actedAt);

/** The list's changes with this one as the line's last (its earlier one dropped), the oldest beyond KEPT_CHANGES dropped. */
export function withChange(list: Pick<ShoppingListContent, 'personChanges'>, change: LineChange): { personChanges: readonly LineChange[] } {
  const kept = (list.personChanges ?? []).filter((c) => c.lineId !== change.lineId);
  return { personChanges: [...kept, change].slice(-KEPT_CHANGES) };
}

/** A line's last change by a person, if the list kept one. */
export const lastChangeOf = (list: Pick<ShoppingListContent, 'personChanges'>, lineId: string): LineChange | null =>
  (list.personChanges ?? []).find((c) => c.lineId === lineId) ?? null;

/**
 * The change a late change loses to: the line's last change, when someone else made it after `at`. The caller's own
 * changes never stand in the way (their phone sends them in the order made).
 */
export function laterChangeBy(list: Pick<ShoppingListContent, 'personChanges'>, lineId: string, caller: string, at: Date): LineChange | null {
  const last = lastChangeOf(list, lineId);
  return last !== null && last.by !== caller && last.at.getTime() > at.getTime() ? last : null;
}

/** What a PATCH of a line does, as a kind of change: a tick, an untick, or an amount said. */
export const changeKindOf = (input: { status: ShoppingLine['status']; purchasedQuantity?: number | undefined }): LineChangeKind =>
  input.status === 'Buy' ? 'Buy' : input.purchasedQuantity === undefined ? 'Purchased' : 'Amount';

/** Whether a change left a line as it was (nothing bought or unticked that was not already). */
export const sameState = (a: ShoppingLine, b: ShoppingLine): boolean =>
  a.status === b.status && a.purchasedQuantity === b.purchasedQuantity && a.purchasedUnit === b.purchasedUnit;
