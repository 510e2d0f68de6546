import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { nextCursor, openCursor, type CursorScope } from '../kernel/paging.js';
import { ok, type Result } from '../kernel/result.js';
import { comparePositions, positionOf } from './model.js';
import { pantryRows, type PantryDeps } from './rows.js';
import type { InventoryGroup, PantryRow, StorageLocation } from './types.js';

export const INVENTORY_PAGE_DEFAULT = 50;
export const INVENTORY_PAGE_MAX = 100;
/** The sections a list without `group` shows: the archive (Aged) is left out. */
export const LIVE_GROUPS: readonly InventoryGroup[] = ['UseSoon', 'LikelyAvailable', 'Uncertain'];

export interface InventoryFilter {
  readonly q: string | null;
  readonly place: StorageLocation | null;
}

/**
 * q matches a row when, in lower case, it is part of the display name or of the food key, or its own food key
 * (normalizeFoodKey(q), so "Tomatoes" finds "tomat") is part of the food key. place matches the row's location.
 */
export function rowFilter(filter: InventoryFilter): (row: PantryRow) => boolean {
  const q = filter.q?.trim().toLowerCase() ?? '';
  const qKey = q === '' ? '' : normalizeFoodKey(q);
  return (row) =>
    (filter.place === null || row.storageLocation === filter.place) &&
    (q === '' || row.displayName.toLowerCase().includes(q) || row.foodKey.includes(q) || (qKey !== '' && row.foodKey.includes(qKey)));
}

export interface InventoryPageQuery extends InventoryFilter {
  readonly group: InventoryGroup | null;
  readonly cursor: string | null;
  readonly limit: number;
}

export interface InventoryPage {
  readonly items: PantryRow[];
  readonly nextCursor: string | null;
  readonly total: number;
}

/** Where an inventory cursor is valid: the household and the whole filter; any other list refuses it. */
export const inventoryCursorScope = (householdId: HouseholdId, q: Pick<InventoryPageQuery, 'q' | 'place' | 'group'>): CursorScope => ({
  scope: `inventory\n${householdId}\n${q.q?.trim().toLowerCase() ?? ''}\n${q.place ?? ''}\n${q.group ?? ''}`,
  boundTo: 'this household, q, place and group',
});

/** Where a page ended: [section, use priority, name, food key] (positionOf in model.ts). */
const inventoryPositionOf = (p: readonly string[]): [number, number, string, string] | null =>
  p.length === 4 && /^\d$/.test(p[0]!) && /^\d$/.test(p[1]!) ? [Number(p[0]), Number(p[1]), p[2]!, p[3]!] : null;

/** The rows matching a page query, in list order (before paging). */
export function matchingRows(rows: readonly PantryRow[], query: Omit<InventoryPageQuery, 'cursor' | 'limit'>): PantryRow[] {
  const matches = rowFilter(query);
  const groups = query.group === null ? LIVE_GROUPS : [query.group];
  return rows.filter((r) => groups.includes(r.group) && matches(r));
}

/** GET inventory (any member): a page of rows in list order; total counts every row the filter matches. */
export async function listInventory(
  deps: PantryDeps,
  caller: Account,
  householdId: HouseholdId,
  query: InventoryPageQuery,
): Promise<Result<InventoryPage, ErrorOf<'household-not-found' | 'page-cursor-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const where = inventoryCursorScope(householdId, query);
  const opened = openCursor(deps.pageCursors, where, query.cursor, inventoryPositionOf);
  if (!opened.ok) return opened;
  const after = opened.value;
  const rows = matchingRows(await pantryRows(deps, householdId), query);
  const rest = after === null ? rows : rows.filter((r) => comparePositions(positionOf(r), after) > 0);
  const items = rest.slice(0, query.limit);
  return ok({ items, nextCursor: nextCursor(deps.pageCursors, where, items, rest.length > items.length, (r) => positionOf(r).map(String)), total: rows.length });
}

export interface PlaceCounts {
  fridge: number;
  pantry: number;
  freezer: number;
  unknown: number;
}
export interface InventorySummary {
  byPlace: PlaceCounts;
  byGroup: { useSoon: number; likelyAvailable: number; uncertain: number; aged: number };
  triage: number;
  total: number;
  matchesByPlace: PlaceCounts;
}

const PLACE_FIELD: Record<StorageLocation, keyof PlaceCounts> = { Fridge: 'fridge', Pantry: 'pantry', Freezer: 'freezer', Unknown: 'unknown' };
const GROUP_FIELD = { UseSoon: 'useSoon', LikelyAvailable: 'likelyAvailable', Uncertain: 'uncertain', Aged: 'aged' } as const;

function byPlace(rows: readonly PantryRow[]): PlaceCounts {
  const counts: PlaceCounts = { fridge: 0, pantry: 0, freezer: 0, unknown: 0 };
  for (const r of rows) if (r.group !== 'Aged') counts[PLACE_FIELD[r.storageLocation]] += 1;
  return counts;
}

/** A live row that wants a look: Uncertain, or asking for a best-before date. */
export const needsTriage = (r: PantryRow): boolean => r.group !== 'Aged' && (r.group === 'Uncertain' || r.asksForDate);

/**
 * The summary's counts (docs/pantry-model.md): byGroup, total and matchesByPlace follow q and place; byPlace and
 * triage cover the whole pantry; byPlace and matchesByPlace leave archived (Aged) rows out.
 */
export function summaryOf(rows: readonly PantryRow[], filter: InventoryFilter): InventorySummary {
  const matches = rows.filter(rowFilter(filter));
  const byGroup = { useSoon: 0, likelyAvailable: 0, uncertain: 0, aged: 0 };
  for (const r of matches) byGroup[GROUP_FIELD[r.group]] += 1;
  return { byPlace: byPlace(rows), byGroup, triage: rows.filter(needsTriage).length, total: matches.length, matchesByPlace: byPlace(matches) };
}

/** GET inventory/summary (any member). */
export async function inventorySummary(
  deps: PantryDeps,
  caller: Account,
  householdId: HouseholdId,
  filter: InventoryFilter,
): Promise<Result<InventorySummary, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return ok(summaryOf(await pantryRows(deps, householdId), filter));
}
