import type { Clock } from '../../ports/clock.js';
import type { FoodSource } from '../../ports/food-source.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { PageCursors } from '../../ports/page-cursors.js';
import type { PriceProvider } from '../../ports/price-provider.js';
import type { ReceiptPosition, ReceiptStore } from '../../ports/receipt-store.js';
import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { nextCursor, openCursor, type CursorScope } from '../kernel/paging.js';
import { ok, type Result } from '../kernel/result.js';
import { RECEIPT_LIMITS, type FoodProduct, type NovaGroup, type NutriScore, type ReceiptLine, type ReceiptSummary } from './types.js';

export interface ReceiptDeps {
  households: HouseholdStore;
  receipts: ReceiptStore;
  foodTable: FoodTableStore;
  foodSource: FoodSource;
  prices: PriceProvider;
  pageCursors: PageCursors;
  ids: IdGenerator;
  clock: Clock;
}

export interface ReceiptLineInput {
  readonly productName: string;
  readonly ean: string | null;
  readonly quantity: number;
  readonly unitPrice: number | null;
  readonly totalPrice: number | null;
}

export interface ReceiptInput {
  readonly purchasedAt: Date;
  readonly chain: string;
  readonly lines: readonly ReceiptLineInput[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const firstById = (ps: readonly FoodProduct[]) => [...ps].sort((a, b) => cmp(a.id, b.id))[0];

/**
 * The food-table product of each line, or null: by EAN first, else by the normalized product name (the
 * product's name normalized the same way), else by food key (a line that names the food itself, "Lettmelk").
 * Several candidates: the lowest product id, so the same line always meets the same product.
 */
export async function matchLines(deps: { foodTable: FoodTableStore }, lines: readonly ReceiptLineInput[]): Promise<(FoodProduct | null)[]> {
  const eans = [...new Set(lines.flatMap((l) => (l.ean === null ? [] : [l.ean])))];
  const keys = [...new Set(lines.map((l) => normalizeFoodKey(l.productName)).filter((k) => k !== ''))];
  const [byEan, byName, byFood] = await Promise.all([
    eans.length ? deps.foodTable.byEans(eans) : [],
    keys.length ? deps.foodTable.byNameKeys(keys) : [],
    keys.length ? deps.foodTable.byFoodKeys(keys) : [],
  ]);
  return lines.map((l) => {
    const key = normalizeFoodKey(l.productName);
    return (
      (l.ean !== null ? firstById(byEan.filter((p) => p.ean === l.ean)) : undefined) ??
      (key !== '' ? (firstById(byName.filter((p) => normalizeFoodKey(p.name) === key)) ?? firstById(byFood.filter((p) => p.foodKey === key))) : undefined) ??
      null
    );
  });
}

/** Records a receipt of the household (any member); each line keeps the product it matched. */
export async function addReceipt(
  deps: Pick<ReceiptDeps, 'households' | 'receipts' | 'foodTable' | 'ids' | 'clock'>,
  caller: Account,
  householdId: HouseholdId,
  input: ReceiptInput,
): Promise<Result<{ id: string; linesTotal: number; linesRecognised: number }, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const matches = await matchLines(deps, input.lines);
  const lines: ReceiptLine[] = input.lines.map((l, i) => ({ ...l, productId: matches[i]?.id ?? null }));
  const id = deps.ids.newId();
  await deps.receipts.add({ id, householdId, purchasedAt: input.purchasedAt, chain: input.chain, lines, createdAt: deps.clock.now() });
  return ok({ id, linesTotal: lines.length, linesRecognised: lines.filter((l) => l.productId !== null).length });
}

const scopeOf = (householdId: HouseholdId): CursorScope => ({ scope: `receipts:${householdId}`, boundTo: 'this household' });

/** Where a page ended: [purchasedAt, id]. */
function receiptPositionOf(p: readonly string[]): ReceiptPosition | null {
  const purchasedAt = p.length === 2 ? new Date(p[0]!) : null;
  return purchasedAt && !Number.isNaN(purchasedAt.getTime()) ? { purchasedAt, id: p[1]! } : null;
}

/** A page of the household's receipts, newest purchase first (any member). */
export async function listReceipts(
  deps: Pick<ReceiptDeps, 'households' | 'receipts' | 'pageCursors'>,
  caller: Account,
  householdId: HouseholdId,
  query: { cursor: string | null; limit: number },
): Promise<Result<{ items: ReceiptSummary[]; nextCursor: string | null; total: number }, ErrorOf<'household-not-found' | 'page-cursor-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const where = scopeOf(householdId);
  const after = openCursor(deps.pageCursors, where, query.cursor, receiptPositionOf);
  if (!after.ok) return after;
  const page = await deps.receipts.page(householdId, { after: after.value, limit: query.limit });
  const next = nextCursor(deps.pageCursors, where, page.items, page.more, (r) => [r.purchasedAt.toISOString(), r.id]);
  return ok({ items: page.items, nextCursor: next, total: page.total });
}

export interface PurchaseClassification {
  readonly days: number;
  readonly linesTotal: number;
  readonly linesRecognised: number;
  readonly heavilyProcessed: number;
  readonly processed: number;
  readonly lightlyProcessed: number;
  readonly processingUnknown: number;
  readonly examples: readonly { productName: string; novaGroup: NovaGroup; nutriScore: NutriScore | null }[];
}

/**
 * The household's own priced receipt lines of the last `days` days (purchasedAt ≥ now − days × 24 h), counted
 * once per product (recognised lines) or per normalized name (the rest), by NOVA group of the product as the food
 * table has it now: 4 heavily processed, 3 processed, 1–2 lightly processed; lines without a product (or whose
 * product left the table) are processingUnknown. heavilyProcessed + processed + lightlyProcessed =
 * linesRecognised, so shares are of recognised lines. Examples: up to five heavily processed products by name, then id.
 */
export async function purchaseClassification(
  deps: Pick<ReceiptDeps, 'households' | 'receipts' | 'foodTable' | 'clock'>,
  caller: Account,
  householdId: HouseholdId,
  days: number,
): Promise<Result<PurchaseClassification, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const since = new Date(deps.clock.now().getTime() - days * 86_400_000);
  const priced = (await deps.receipts.linesSince(householdId, since)).filter((l) => l.unitPrice !== null || l.totalPrice !== null);
  const productIds = [...new Set(priced.flatMap((l) => (l.productId === null ? [] : [l.productId])))];
  const products = new Map((productIds.length ? await deps.foodTable.byIds(productIds) : []).map((p) => [p.id, p]));
  const recognised = new Map<string, FoodProduct>();
  const unknown = new Set<string>();
  for (const l of priced) {
    const product = l.productId === null ? undefined : products.get(l.productId);
    if (product) recognised.set(product.id, product);
    else unknown.add(normalizeFoodKey(l.productName) || l.productName);
  }
  const all = [...recognised.values()];
  const heavy = all.filter((p) => p.novaGroup === 4);
  return ok({
    days,
    linesTotal: recognised.size + unknown.size,
    linesRecognised: recognised.size,
    heavilyProcessed: heavy.length,
    processed: all.filter((p) => p.novaGroup === 3).length,
    lightlyProcessed: all.filter((p) => p.novaGroup <= 2).length,
    processingUnknown: unknown.size,
    examples: heavy
      .sort((a, b) => cmp(a.name, b.name) || cmp(a.id, b.id))
      .slice(0, RECEIPT_LIMITS.examplesMax)
      .map((p) => ({ productName: p.name, novaGroup: p.novaGroup, nutriScore: p.nutriScore })),
  });
}
