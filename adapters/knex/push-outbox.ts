import type { Knex } from 'knex';
import type { OutboxEntry, PushEvent, PushOutbox } from '../../ports/push-outbox.js';
import { translated } from './errors.js';
import { fromJsonText, iso, toDate, toJsonText } from './rows.js';

interface OutboxRow {
  id: string;
  household_id: string;
  event: string;
  created_at: Date | string;
}

/** The row of an outbox entry (stores that record a push in their own transaction write this). */
export const outboxRow = (e: OutboxEntry) => ({ id: e.id, household_id: e.householdId, event: toJsonText(e.event), created_at: iso(e.createdAt), sent_at: null });

export function knexPushOutbox(knex: Knex): PushOutbox {
  return translated<PushOutbox>(knex, {
    async record(e) {
      await knex('push_outbox').insert(outboxRow(e));
    },
    async pending(limit) {
      const rows = (await knex<OutboxRow>('push_outbox')
        .whereNull('sent_at')
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(limit)) as OutboxRow[];
      return rows.map(
        (r): OutboxEntry => ({ id: r.id, householdId: r.household_id, event: fromJsonText<PushEvent>(r.event), createdAt: toDate(r.created_at) }),
      );
    },
    async markSent(ids, at) {
      if (ids.length > 0) await knex('push_outbox').whereIn('id', [...ids]).update({ sent_at: iso(at) });
    },
  });
}
