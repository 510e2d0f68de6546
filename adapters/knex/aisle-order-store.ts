import type { Knex } from 'knex';
import type { Aisle } from '../../core/pantry/model.js';
import { newestTrips } from '../../core/shopping/aisle-order.js';
import type { AisleOrderStore } from '../../ports/aisle-order-store.js';
import { translated } from './errors.js';
import { fromJsonText, iso, toDate, toJsonText } from './rows.js';

interface TripTickRow {
  list_id: string;
  completed_at: Date | string;
  aisle: string;
  seq: number | string;
}

export function knexAisleOrderStore(knex: Knex): AisleOrderStore {
  return translated<AisleOrderStore>(knex, {
    async recordTick(tick, keepTrips) {
      const mine = { household_id: tick.householdId, store: tick.store };
      await knex.transaction(async (trx) => {
        // Ticked again: the line counts where it was ticked last.
        await trx('aisle_ticks').where({ list_id: tick.listId, line_id: tick.lineId }).delete();
        await trx('aisle_ticks').insert({ ...mine, list_id: tick.listId, plan_id: tick.planId, line_id: tick.lineId, aisle: tick.aisle, ticked_at: iso(tick.at) });
        const lists = (await trx('aisle_ticks').where(mine).groupBy('list_id').select('list_id').max({ last: 'seq' }).orderBy('last', 'desc')) as { list_id: string }[];
        const old = lists.slice(keepTrips).map((l) => l.list_id);
        if (old.length > 0) await trx('aisle_ticks').where(mine).whereIn('list_id', old).delete();
      });
    },
    async finishedTrips(householdId, store, limit) {
      const rows = (await knex('aisle_ticks as t')
        .join('shopping_lists as l', function () {
          this.on('l.id', '=', 't.list_id').andOn('l.household_id', '=', 't.household_id');
        })
        .where({ 't.household_id': householdId, 't.store': store })
        .whereNotNull('l.completed_at')
        .orderBy('t.seq')
        .select('t.list_id', 'l.completed_at', 't.aisle', 't.seq')) as TripTickRow[];
      return newestTrips(
        rows.map((r) => ({ listId: r.list_id, finishedAt: toDate(r.completed_at), aisle: r.aisle, seq: Number(r.seq) })),
        limit,
      );
    },
    async handOrder(householdId, store) {
      const row = (await knex('aisle_hand_orders').where({ household_id: householdId, store }).first('aisles', 'set_at')) as { aisles: string; set_at: Date | string } | undefined;
      return row ? { aisles: fromJsonText<Aisle[]>(row.aisles), setAt: toDate(row.set_at) } : null;
    },
    async setHandOrder(householdId, store, aisles, at) {
      const row = { aisles: toJsonText(aisles), set_at: iso(at) };
      await knex('aisle_hand_orders').insert({ household_id: householdId, store, ...row }).onConflict(['household_id', 'store']).merge(row);
    },
    async forgetHandOrder(householdId, store) {
      return (await knex('aisle_hand_orders').where({ household_id: householdId, store }).delete()) > 0;
    },
  });
}
