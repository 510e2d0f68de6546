import type { Knex } from 'knex';
import type { PushSwitch } from '../../core/push/types.js';
import type { Delivery, NewDelivery, PushDeliveryStore } from '../../ports/push-delivery-store.js';
import type { PushMessage } from '../../ports/push-sender.js';
import { translated } from './errors.js';
import { fromJsonText, iso, toDate, toJsonText } from './rows.js';
import { dueAt, sendProgressOf, settlementColumns, type SendColumns } from './send-progress.js';

interface DeliveryRow extends SendColumns {
  id: string;
  household_id: string;
  account_id: string;
  token: string;
  switch_name: string;
  message: string;
  created_at: Date | string;
}

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  householdId: r.household_id,
  accountId: r.account_id,
  token: r.token,
  switch: r.switch_name as PushSwitch,
  message: fromJsonText<PushMessage>(r.message),
  ...sendProgressOf(r),
  createdAt: toDate(r.created_at),
});

const deliveryRow = (d: NewDelivery) => ({
  id: d.id,
  household_id: d.householdId,
  account_id: d.accountId,
  token: d.token,
  switch_name: d.switch,
  message: toJsonText(d.message),
  ...dueAt(d.createdAt),
  created_at: iso(d.createdAt),
});

/** Thrown inside a transaction to roll it back when another worker handed an entry over first. */
class Contended extends Error {}

const ORDER = [{ column: 'next_attempt_at' }, { column: 'created_at' }, { column: 'id' }];

export function knexPushDeliveryStore(knex: Knex): PushDeliveryStore {
  return translated<PushDeliveryStore>(knex, {
    async handOver(entryIds, deliveries, at) {
      try {
        await knex.transaction(async (trx) => {
          // The conditional update takes the entries' row locks: a simultaneous hand-over waits here, then finds
          // sent_at set, counts short and rolls back.
          const n = entryIds.length === 0 ? 0 : await trx('push_outbox').whereIn('id', [...entryIds]).whereNull('sent_at').update({ sent_at: iso(at) });
          if (n !== entryIds.length) throw new Contended();
          const rows = deliveries.map(deliveryRow);
          for (let i = 0; i < rows.length; i += 200) await trx('push_deliveries').insert(rows.slice(i, i + 200));
        });
        return true;
      } catch (err) {
        if (err instanceof Contended) return false;
        throw err;
      }
    },
    async claimDue({ claimId, now, until, limit }) {
      const free = (q: Knex.QueryBuilder) => q.whereNull('claimed_until').orWhere('claimed_until', '<=', iso(now));
      const candidates = (await knex('push_deliveries')
        .select('id')
        .where({ state: 'pending' })
        .andWhere('next_attempt_at', '<=', iso(now))
        .andWhere(free)
        .orderBy(ORDER)
        .limit(limit)) as { id: string }[];
      if (candidates.length === 0) return [];
      // The same conditions again in the update: of two workers racing for a row, the later finds it claimed.
      await knex('push_deliveries')
        .whereIn('id', candidates.map((c) => c.id))
        .andWhere({ state: 'pending' })
        .andWhere(free)
        .update({ claim_id: claimId, claimed_until: iso(until) });
      const rows = (await knex<DeliveryRow>('push_deliveries').where({ claim_id: claimId, state: 'pending' }).orderBy(ORDER)) as DeliveryRow[];
      return rows.map(toDelivery);
    },
    async renew(id, claimId, until) {
      return (await knex('push_deliveries').where({ id, claim_id: claimId, state: 'pending' }).update({ claimed_until: iso(until) })) === 1;
    },
    async settle(id, claimId, s) {
      await knex('push_deliveries').where({ id, claim_id: claimId, state: 'pending' }).update(settlementColumns(s));
    },
    async ofHousehold(householdId) {
      const rows = (await knex<DeliveryRow>('push_deliveries')
        .where({ household_id: householdId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])) as DeliveryRow[];
      return rows.map(toDelivery);
    },
    async purge(before) {
      return knex.transaction(async (trx) => {
        const deliveries = await trx('push_deliveries').whereNot({ state: 'pending' }).andWhere('finished_at', '<', iso(before)).delete();
        const entries = await trx('push_outbox').whereNotNull('sent_at').andWhere('sent_at', '<', iso(before)).delete();
        return deliveries + entries;
      });
    },
  });
}
