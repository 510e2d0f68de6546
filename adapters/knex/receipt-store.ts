import type { Knex } from 'knex';
import type { ReceiptLine, ReceiptSummary } from '../../core/food/types.js';
import type { ReceiptStore } from '../../ports/receipt-store.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';
import { keysetAfter } from './queries.js';

interface ReceiptRow {
  id: string;
  household_id: string;
  purchased_at: Date | string;
  chain: string;
  lines_total: number | string;
  lines_recognised: number | string;
  created_at: Date | string;
}

interface LineRow {
  receipt_id: string;
  position: number;
  product_name: string;
  ean: string | null;
  quantity: number | string;
  unit_price: number | string | null;
  total_price: number | string | null;
  product_id: string | null;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

const toSummary = (r: ReceiptRow): ReceiptSummary => ({
  id: r.id,
  purchasedAt: toDate(r.purchased_at),
  chain: r.chain,
  linesTotal: Number(r.lines_total),
  linesRecognised: Number(r.lines_recognised),
});

const toLine = (r: LineRow): ReceiptLine => ({
  productName: r.product_name,
  ean: r.ean,
  quantity: Number(r.quantity),
  unitPrice: num(r.unit_price),
  totalPrice: num(r.total_price),
  productId: r.product_id,
});

export function knexReceiptStore(knex: Knex): ReceiptStore {
  return translated<ReceiptStore>(knex, {
    async add(r) {
      await knex.transaction(async (trx) => {
        await trx('receipts').insert({
          id: r.id,
          household_id: r.householdId,
          purchased_at: iso(r.purchasedAt),
          chain: r.chain,
          lines_total: r.lines.length,
          lines_recognised: r.lines.filter((l) => l.productId !== null).length,
          created_at: iso(r.createdAt),
        });
        const rows: LineRow[] = r.lines.map((l, position) => ({
          receipt_id: r.id,
          position,
          product_name: l.productName,
          ean: l.ean,
          quantity: l.quantity,
          unit_price: l.unitPrice,
          total_price: l.totalPrice,
          product_id: l.productId,
        }));
        for (let i = 0; i < rows.length; i += 50) await trx('receipt_lines').insert(rows.slice(i, i + 50));
      });
    },
    async page(householdId, { after, limit }) {
      const q = knex<ReceiptRow>('receipts').where({ household_id: householdId });
      if (after) {
        const at = iso(after.purchasedAt);
        q.andWhere((w) => keysetAfter(w, [['purchased_at', '<', at], ['id', '<', after.id]]));
      }
      const rows = (await q.orderBy([{ column: 'purchased_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1)) as ReceiptRow[];
      const total = (await knex('receipts').where({ household_id: householdId }).count({ n: '*' }).first()) as { n: number | string } | undefined;
      return { items: rows.slice(0, limit).map(toSummary), more: rows.length > limit, total: Number(total?.n ?? 0) };
    },
    async linesSince(householdId, since) {
      const rows = (await knex<LineRow>('receipt_lines as l')
        .join('receipts as r', 'r.id', 'l.receipt_id')
        .where('r.household_id', householdId)
        .andWhere('r.purchased_at', '>=', iso(since))
        .orderBy([{ column: 'r.purchased_at' }, { column: 'r.id' }, { column: 'l.position' }])
        .select('l.*')) as LineRow[];
      return rows.map(toLine);
    },
  });
}
