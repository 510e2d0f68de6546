import * as v from 'valibot';
import { addReceipt, listReceipts, purchaseClassification } from '../../../core/food/receipts.js';
import { RECEIPT_LIMITS as L } from '../../../core/food/types.js';
import type { ServiceDeps } from '../deps.js';
import { created, mount, resource } from '../route.js';
import { IsoDateTime, Uuid, Cursor, Limit, Page } from '../schemas.js';

const trimmed = (max: number, what: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, `${what} must not be blank`), v.maxLength(max, `${what}: at most ${max} characters`));
const price = v.nullable(v.pipe(v.number(), v.finite('a finite number'), v.minValue(0, 'at least 0'), v.maxValue(L.priceMax, `at most ${L.priceMax}`)));

const ReceiptLineRequest = v.object({
  productName: trimmed(L.productNameMax, 'productName'),
  ean: v.nullable(v.pipe(v.string(), v.trim(), v.regex(/^\d{8,14}$/, 'an EAN of 8 to 14 digits'))),
  quantity: v.pipe(v.number(), v.finite('a finite number'), v.gtValue(0, 'greater than 0'), v.maxValue(L.quantityMax, `at most ${L.quantityMax}`)),
  unitPrice: price,
  totalPrice: price,
});
const ReceiptRequest = v.object({
  purchasedAt: v.pipe(IsoDateTime, v.transform((s) => new Date(s))),
  chain: trimmed(L.chainMax, 'chain'),
  lines: v.pipe(v.array(ReceiptLineRequest), v.minLength(1, 'at least one line'), v.maxLength(L.linesMax, `at most ${L.linesMax} lines`)),
});
const ReceiptCreated = v.object({ id: Uuid, linesRecognised: v.number(), linesTotal: v.number() });
const ReceiptSummary = v.object({ id: Uuid, purchasedAt: IsoDateTime, chain: v.string(), linesTotal: v.number(), linesRecognised: v.number() });
const ReceiptPage = Page(ReceiptSummary);
const PurchaseClassificationResponse = v.object({
  days: v.number(),
  linesTotal: v.number(),
  linesRecognised: v.number(),
  heavilyProcessed: v.number(),
  processed: v.number(),
  lightlyProcessed: v.number(),
  processingUnknown: v.number(),
  examples: v.array(v.object({ productName: v.string(), novaGroup: v.number(), nutriScore: v.nullable(v.string()) })),
});

const ListQuery = v.object({
  cursor: Cursor(8192),
  limit: v.optional(Limit(100), '50'),
});
const ClassificationQuery = v.object({
  days: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, `a whole number from 1 to ${L.classificationDaysMax}`),
      v.transform(Number),
      v.minValue(1, 'at least 1'),
      v.maxValue(L.classificationDaysMax, `at most ${L.classificationDaysMax}`),
    ),
    String(L.classificationDaysDefault),
  ),
});

const { householdRoute } = resource<ServiceDeps>('Receipts');

const base = '/api/v1/households/{householdId}';

const ADD_RECEIPT_DOC =
  'Any member. 1..200 lines; productName 1..200, ean 8..14 digits or null, quantity > 0 and ≤ 100000, unitPrice ' +
  'and totalPrice ≥ 0 or null (else 400). A line is recognised when it matches a product of the food table: by ' +
  'EAN, else by its normalized name (the food-key rule) against product names, else against food keys.';
const LIST_RECEIPTS_DOC =
  'Any member. Newest purchase first (purchasedAt, then id, descending). limit 1..100, default 50 (else 400). ' +
  'cursor is the nextCursor of the previous page; any other value gives 400 validation_failed. nextCursor is ' +
  "null on the last page; total counts all the household's receipts.";
const PURCHASE_CLASSIFICATION_DOC =
  "Any member; the household's own receipts only. days 1..365, default 30 (else 400): receipts purchased at " +
  'or after now − days × 24 h. Counts distinct priced lines (a unitPrice or a totalPrice): one per food-table ' +
  'product when recognised, else one per normalized name. By the NOVA group the food table gives the product ' +
  'now: 4 heavilyProcessed, 3 processed, 1–2 lightlyProcessed; unrecognised lines (or products since removed ' +
  'from the table) are processingUnknown. heavilyProcessed + processed + lightlyProcessed = linesRecognised: a ' +
  'share is of recognised lines only. examples: up to five heavily processed products, by name then id.';

const addReceiptRoute = householdRoute({
  method: 'POST',
  path: `${base}/receipts`,
  operationId: 'addReceipt',
  auth: 'session-or-token',
  summary: 'Record a receipt',
  description: ADD_RECEIPT_DOC,
  body: ReceiptRequest,
  ...created('Recorded', ReceiptCreated),
  run: ({ deps, caller, params, body }) => addReceipt(deps, caller.account, params.householdId, body),
  reply: (value) => ({ id: value.id, linesRecognised: value.linesRecognised, linesTotal: value.linesTotal }),
});

const listReceiptsRoute = householdRoute({
  method: 'GET',
  path: `${base}/receipts`,
  operationId: 'listReceipts',
  auth: 'session-or-token',
  summary: "A page of the household's receipts",
  description: LIST_RECEIPTS_DOC,
  query: ListQuery,
  responses: { 200: { description: 'A page', schema: ReceiptPage } },
  errors: ['page-cursor-invalid'],
  run: ({ deps, caller, params, query }) => listReceipts(deps, caller.account, params.householdId, { cursor: query.cursor ?? null, limit: query.limit }),
  reply: (value) => ({
    items: value.items.map((r) => ({ id: r.id, purchasedAt: r.purchasedAt.toISOString(), chain: r.chain, linesTotal: r.linesTotal, linesRecognised: r.linesRecognised })),
    nextCursor: value.nextCursor,
    total: value.total,
  }),
});

const purchaseClassificationRoute = householdRoute({
  method: 'GET',
  path: `${base}/shopping/purchase-classification`,
  operationId: 'purchaseClassification',
  auth: 'session-or-token',
  summary: 'How processed the household buys',
  description: PURCHASE_CLASSIFICATION_DOC,
  tag: 'Shopping',
  query: ClassificationQuery,
  responses: { 200: { description: 'The classification', schema: PurchaseClassificationResponse } },
  run: ({ deps, caller, params, query }) => purchaseClassification(deps, caller.account, params.householdId, query.days),
  reply: (value) => ({ ...value, examples: value.examples.map((e) => ({ ...e })) }),
});

export const receiptRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    addReceiptRoute,
    listReceiptsRoute,
    purchaseClassificationRoute,
  ]);

