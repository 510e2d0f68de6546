import type { Knex } from 'knex';
import type { Derivation, LineStatus, ListStamp, PriceSource, ReasonCode, ShoppingLine, ShoppingList, ShoppingListContent, TripRecord } from '../../core/shopping/types.js';
import type { ListEffects, ShoppingListStore } from '../../ports/shopping-list-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { observationRow } from './pantry-observation-store.js';
import { outboxRow } from './push-outbox.js';
import { fromJsonText, iso, toBool, toDate, toJsonText } from './rows.js';

interface ListRow {
  id: string;
  household_id: string;
  plan_id: string;
  version: number;
  generated_at: Date | string;
  completed_at: Date | string | null;
  skipped_references: string;
  added_references: string | null;
  trip: string | null;
  derived_from: string | null;
  fresh_until: Date | string | null;
}
interface LineRow {
  id: string;
  list_id: string;
  position: number;
  food_key: string;
  display_name: string;
  required_quantity: number | string;
  unit: string;
  extra_quantity: number | string;
  status: string;
  purchased_quantity: number | string;
  purchased_unit: string | null;
  reason_code: string;
  have_quantity: number | string;
  related_plan_entry_ids: string;
  is_manual: unknown;
  added_after_shopping: unknown;
  aisle: string;
  suggested_price: number | string | null;
  suggested_product_name: string | null;
  suggested_price_source: string;
  suggested_price_is_aggregate: unknown;
  tick_notified: unknown;
}

const toLine = (r: LineRow): ShoppingLine => ({
  id: r.id,
  foodKey: r.food_key,
  displayName: r.display_name,
  requiredQuantity: Number(r.required_quantity),
  unit: r.unit,
  extraQuantity: Number(r.extra_quantity),
  status: r.status as LineStatus,
  purchasedQuantity: Number(r.purchased_quantity),
  purchasedUnit: r.purchased_unit,
  reasonCode: r.reason_code as ReasonCode,
  haveQuantity: Number(r.have_quantity),
  relatedPlanEntryIds: fromJsonText<string[]>(r.related_plan_entry_ids),
  isManual: toBool(r.is_manual),
  addedAfterShopping: toBool(r.added_after_shopping),
  aisle: r.aisle,
  suggestedPrice: r.suggested_price === null ? null : Number(r.suggested_price),
  suggestedProductName: r.suggested_product_name,
  suggestedPriceSource: r.suggested_price_source as PriceSource,
  suggestedPriceIsAggregate: toBool(r.suggested_price_is_aggregate),
  tickNotified: toBool(r.tick_notified),
});

const lineRow = (listId: string, l: ShoppingLine, position: number): LineRow => ({
  id: l.id,
  list_id: listId,
  position,
  food_key: l.foodKey,
  display_name: l.displayName,
  required_quantity: l.requiredQuantity,
  unit: l.unit,
  extra_quantity: l.extraQuantity,
  status: l.status,
  purchased_quantity: l.purchasedQuantity,
  purchased_unit: l.purchasedUnit,
  reason_code: l.reasonCode,
  have_quantity: l.haveQuantity,
  related_plan_entry_ids: toJsonText(l.relatedPlanEntryIds),
  is_manual: l.isManual,
  added_after_shopping: l.addedAfterShopping,
  aisle: l.aisle,
  suggested_price: l.suggestedPrice,
  suggested_product_name: l.suggestedProductName,
  suggested_price_source: l.suggestedPriceSource,
  suggested_price_is_aggregate: l.suggestedPriceIsAggregate,
  tick_notified: l.tickNotified,
});

const stampOf = (r: ListRow): ListStamp => ({
  id: r.id,
  version: Number(r.version),
  completedAt: r.completed_at === null ? null : toDate(r.completed_at),
  derivation: r.derived_from === null || r.fresh_until === null ? null : { from: r.derived_from, until: toDate(r.fresh_until) },
});

// 23 columns a line: 40 lines stay below SQLite's 999 bound variables of one statement.
const CHUNK = 40;

export function knexShoppingListStore(knex: Knex): ShoppingListStore {
  const postgres = knex.client.config.client === 'pg';
  const withLines = async (db: Knex | Knex.Transaction, r: ListRow): Promise<ShoppingList> => {
    const lines = (await db<LineRow>('shopping_list_lines').where({ list_id: r.id }).orderBy('position')) as LineRow[];
    return {
      ...stampOf(r),
      householdId: r.household_id,
      planId: r.plan_id,
      generatedAt: toDate(r.generated_at),
      skippedReferences: fromJsonText<string[]>(r.skipped_references),
      addedReferences: r.added_references === null ? [] : fromJsonText<string[]>(r.added_references),
      trip: r.trip === null ? null : fromJsonText<TripRecord>(r.trip),
      lines: lines.map(toLine),
    };
  };
  const contentColumns = (c: ShoppingListContent) => ({
    generated_at: iso(c.generatedAt),
    completed_at: c.completedAt === null ? null : iso(c.completedAt),
    skipped_references: toJsonText(c.skippedReferences),
    added_references: toJsonText(c.addedReferences),
    trip: c.trip === null ? null : toJsonText(c.trip),
  });
  const derivationColumns = (d: Derivation | null) => ({ derived_from: d?.from ?? null, fresh_until: d === null ? null : iso(d.until) });
  // A trip's pantry evidence and the change's pushes, in the change's transaction.
  const applyEffects = async (trx: Knex.Transaction, householdId: string, e: ListEffects) => {
    const added = (e.addObservations ?? []).map(observationRow);
    for (let i = 0; i < added.length; i += CHUNK) await trx('pantry_observations').insert(added.slice(i, i + CHUNK));
    const removed = [...(e.removeObservations ?? [])];
    for (let i = 0; i < removed.length; i += 500) await trx('pantry_observations').where({ household_id: householdId }).whereIn('id', removed.slice(i, i + 500)).delete();
    const pushes = (e.pushes ?? []).map(outboxRow);
    if (pushes.length > 0) await trx('push_outbox').insert(pushes);
  };

  async function attempt<T>(householdId: string, planId: string, listId: string, decide: Parameters<ShoppingListStore['change']>[3]) {
    return knex.transaction(async (trx) => {
      const q = trx<ListRow>('shopping_lists').where({ household_id: householdId, plan_id: planId });
      // Postgres: the list row's lock orders concurrent changes; SQLite: the one connection does.
      const row = ((await (postgres ? q.forUpdate().first() : q.first())) as ListRow | undefined) ?? null;
      const current = row ? await withLines(trx, row) : null;
      const { write, result, derivation, effects } = decide(current);
      if (write === null) {
        if (!current || derivation === undefined) return { list: current, result: result as T };
        await trx('shopping_lists').where({ id: current.id }).update(derivationColumns(derivation));
        return { list: { ...current, derivation }, result: result as T };
      }
      let id = listId;
      const kept = derivation === undefined ? (current?.derivation ?? null) : derivation;
      if (row) {
        id = row.id;
        await trx('shopping_lists').where({ id }).update({ ...contentColumns(write), ...derivationColumns(kept), version: trx.raw('version + 1') });
        await trx('shopping_list_lines').where({ list_id: id }).delete();
      } else {
        await trx('shopping_lists').insert({ id, household_id: householdId, plan_id: planId, version: 1, ...contentColumns(write), ...derivationColumns(kept) });
      }
      const rows = write.lines.map((l, i) => lineRow(id, l, i));
      for (let i = 0; i < rows.length; i += CHUNK) await trx('shopping_list_lines').insert(rows.slice(i, i + CHUNK));
      if (effects) await applyEffects(trx, householdId, effects);
      const list: ShoppingList = { id, householdId, planId, version: row ? Number(row.version) + 1 : 1, derivation: kept, ...structuredClone(write) };
      return { list, result: result as T };
    });
  }

  return translated<ShoppingListStore>({
    async byPlan(householdId, planId) {
      const row = (await knex<ListRow>('shopping_lists').where({ household_id: householdId, plan_id: planId }).first()) as ListRow | undefined;
      return row ? withLines(knex, row) : null;
    },
    async stamp(householdId, planId) {
      const row = (await knex<ListRow>('shopping_lists')
        .where({ household_id: householdId, plan_id: planId })
        .first('id', 'version', 'completed_at', 'derived_from', 'fresh_until')) as ListRow | undefined;
      return row ? stampOf(row) : null;
    },
    async byLine(householdId, lineId) {
      const row = (await knex<ListRow>('shopping_lists as l')
        .join('shopping_list_lines as x', 'x.list_id', 'l.id')
        .where({ 'l.household_id': householdId, 'x.id': lineId })
        .first('l.*')) as ListRow | undefined;
      return row ? withLines(knex, row) : null;
    },
    async change(householdId, planId, fresh, decide) {
      try {
        return await attempt(householdId, planId, fresh.listId, decide);
      } catch (err) {
        // Another request made the plan's list first: decide again against that one.
        if (!isUniqueViolation(err)) throw err;
        return attempt(householdId, planId, fresh.listId, decide);
      }
    },
  });
}
