import type { Knex } from 'knex';
import type { PushDevice } from '../../core/push/types.js';
import type { PushDeviceStore } from '../../ports/push-device-store.js';
import { translated } from './errors.js';
import { iso, rowMapping } from './rows.js';

const deviceMapping = rowMapping<PushDevice>({
  token: 'as-is',
  accountId: 'as-is',
  platform: 'as-is',
  provider: 'as-is',
  listChanges: 'flag',
  householdNews: 'flag',
  runDone: 'flag',
  reminders: 'flag',
  createdAt: 'instant',
  lastSeenAt: 'instant',
});

// On a known token: the same login keeps its switches and createdAt; another login gets the new row's values.
const SWITCHED = ['list_changes', 'household_news', 'run_done', 'reminders', 'created_at'] as const;

export function knexPushDeviceStore(knex: Knex): PushDeviceStore {
  const one = async (db: Knex | Knex.Transaction, accountId: string, token: string) => {
    const row = (await db('push_devices').where({ token, account_id: accountId }).first()) as object | undefined;
    return row ? deviceMapping.fromRow(row) : null;
  };
  return translated<PushDeviceStore>(knex, {
    async register(d, s) {
      return knex.transaction(async (trx) => {
        const merge: Record<string, unknown> = {
          account_id: knex.ref('excluded.account_id'),
          platform: knex.ref('excluded.platform'),
          provider: knex.ref('excluded.provider'),
          last_seen_at: knex.ref('excluded.last_seen_at'),
        };
        for (const c of SWITCHED) merge[c] = knex.raw(`case when push_devices.account_id = excluded.account_id then push_devices.?? else excluded.?? end`, [c, c]);
        // One statement: simultaneous registrations of a token leave one row (the primary key decides).
        await trx('push_devices')
          .insert({
            token: d.token,
            account_id: d.accountId,
            platform: d.platform,
            provider: d.provider,
            list_changes: s.listChanges,
            household_news: s.householdNews,
            run_done: s.runDone,
            reminders: s.reminders,
            created_at: iso(d.at),
            last_seen_at: iso(d.at),
          })
          .onConflict('token')
          .merge(merge);
        return (await one(trx, d.accountId, d.token))!;
      });
    },
    async get(accountId, token) {
      return one(knex, accountId, token);
    },
    async setSwitches(accountId, token, s) {
      return knex.transaction(async (trx) => {
        const n = await trx('push_devices')
          .where({ token, account_id: accountId })
          .update({
            list_changes: s.listChanges,
            household_news: s.householdNews,
            run_done: s.runDone,
            ...(s.reminders === undefined ? {} : { reminders: s.reminders }),
          });
        return n === 0 ? null : one(trx, accountId, token);
      });
    },
    async delete(accountId, token) {
      return (await knex('push_devices').where({ token, account_id: accountId }).delete()) === 1;
    },
    async ofAccounts(accountIds) {
      if (accountIds.length === 0) return [];
      const rows = (await knex('push_devices')
        .whereIn('account_id', [...accountIds])
        .orderBy([{ column: 'account_id' }, { column: 'token' }])) as object[];
      return rows.map((r) => deviceMapping.fromRow(r));
    },
    async forget(token) {
      await knex('push_devices').where({ token }).delete();
    },
  });
}
