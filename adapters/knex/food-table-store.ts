import type { Knex } from 'knex';
import type { ChainPrice, FoodProduct, NovaGroup, NutriScore } from '../../core/food/types.js';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import { translated } from './errors.js';
import { fromJsonText, iso, toDate, toJsonText } from './rows.js';

interface ProductRow {
  id: string;
  ean: string | null;
  name: string;
  name_key: string;
  food_key: string;
  food_group: string;
  nova_group: number | string;
  nutri_score: string | null;
  prices: string;
}

export const SYNC_ID = 'food-table';
// Well under SQLite's bound-variable limit per statement.
const CHUNK = 200;
const chunks = <T>(xs: readonly T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

const toProduct = (r: ProductRow): FoodProduct => ({
  id: r.id,
  ean: r.ean,
  name: r.name,
  foodKey: r.food_key,
  foodGroup: r.food_group,
  novaGroup: Number(r.nova_group) as NovaGroup,
  nutriScore: r.nutri_score as NutriScore | null,
  prices: fromJsonText<ChainPrice[]>(r.prices),
});

const toRow = (p: FoodProduct): ProductRow => ({
  id: p.id,
  ean: p.ean,
  name: p.name,
  name_key: normalizeFoodKey(p.name),
  food_key: p.foodKey,
  food_group: p.foodGroup,
  nova_group: p.novaGroup,
  nutri_score: p.nutriScore,
  prices: toJsonText(p.prices.map((c) => ({ chain: c.chain, price: c.price, unit: c.unit, packageSize: c.packageSize }))),
});

export function knexFoodTableStore(knex: Knex): FoodTableStore {
  const byColumn = async (column: keyof ProductRow, values: readonly string[]) => {
    const rows: ProductRow[] = [];
    for (const part of chunks([...new Set(values)])) rows.push(...((await knex<ProductRow>('food_products').whereIn(column, part)) as ProductRow[]));
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(toProduct);
  };
  return translated<FoodTableStore>(knex, {
    async replaceAll(products, at) {
      return knex.transaction(async (trx) => {
        const ids = new Set(products.map((p) => p.id));
        const existing = ((await trx('food_products').select('id')) as { id: string }[]).map((r) => r.id);
        const gone = existing.filter((id) => !ids.has(id));
        for (const part of chunks(gone)) await trx('food_products').whereIn('id', part).delete();
        // The last row of an id wins, as in the memory store.
        const rows = [...new Map(products.map((p) => [p.id, toRow(p)])).values()];
        for (const part of chunks(rows, 50)) {
          await trx('food_products').insert(part).onConflict('id').merge(['ean', 'name', 'name_key', 'food_key', 'food_group', 'nova_group', 'nutri_score', 'prices']);
        }
        await trx('food_table_syncs').insert({ id: SYNC_ID, synced_at: iso(at) }).onConflict('id').merge(['synced_at']);
        return { upserted: rows.length, removed: gone.length };
      });
    },
    async lastSyncedAt() {
      const row = (await knex('food_table_syncs').where({ id: SYNC_ID }).first()) as { synced_at: Date | string } | undefined;
      return row ? toDate(row.synced_at) : null;
    },
    async count() {
      const row = (await knex('food_products').count({ n: '*' }).first()) as { n: number | string } | undefined;
      return Number(row?.n ?? 0);
    },
    byIds: (ids) => byColumn('id', ids),
    byEans: (eans) => byColumn('ean', eans),
    byNameKeys: (keys) => byColumn('name_key', keys),
    byFoodKeys: (keys) => byColumn('food_key', keys),
    byFoodGroups: (groups) => byColumn('food_group', groups),
    async productsAfter(afterId, limit) {
      // Keyset paging on the primary key (collation "C" on Postgres, binary on SQLite: one order on both).
      const rows = (await knex<ProductRow>('food_products')
        .modify((q) => void (afterId !== null && q.where('id', '>', afterId)))
        .orderBy('id')
        .limit(limit)) as ProductRow[];
      return rows.map(toProduct);
    },
  });
}
