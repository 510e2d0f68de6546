import type { Knex } from 'knex';
import type { DinnerPriceMonthlyMail, DinnerPriceMonthlyMails, DinnerPriceSubscriberStore } from '../../ports/dinner-price-monthly-mails.js';
import { isForeignKeyViolation, translated } from './errors.js';
import { columnsOf, issueTokens, knexMailingList, toAddress, type AddressRow } from './mailing-list-store.js';
import { iso, toDate } from './rows.js';

/** The dinner-price list's monthly mails (migration 0037): one row per address and month, the claim. */
export function knexDinnerPriceMonthlyMails(knex: Knex): DinnerPriceMonthlyMails {
  return translated<DinnerPriceMonthlyMails>(knex, {
    async dueForMonthlyMail({ month, confirmedBefore, afterId, limit }) {
      const q = knex('dinner_price_subscribers as a')
        .select(columnsOf('dinner-prices'))
        .whereNotNull('a.confirmed_at')
        .where('a.confirmed_at', '<', iso(confirmedBefore))
        .whereNotExists(knex('dinner_price_mailings as m').select(knex.raw('1')).whereRaw('m.subscriber_id = a.id').where('m.month', month))
        .orderBy('a.id')
        .limit(limit);
      if (afterId !== null) q.where('a.id', '>', afterId);
      return ((await q) as AddressRow[]).map(toAddress);
    },
    async claimMonthlyMail(id, month, claim) {
      try {
        return await knex.transaction(async (trx) => {
          // The primary key (subscriber, month) decides between simultaneous claims: one insert lands, the others find it.
          const claimed = (await trx('dinner_price_mailings')
            .insert({ subscriber_id: id, month, claimed_at: iso(claim.at), sent_at: null })
            .onConflict(['subscriber_id', 'month'])
            .ignore()
            .returning('month')) as unknown[];
          if (claimed.length !== 1) return false;
          await issueTokens(trx, 'dinner-prices', id, claim.at, claim.tokens);
          return true;
        });
      } catch (err) {
        // The address left the list since it was found due.
        if (isForeignKeyViolation(err)) return false;
        throw err;
      }
    },
    async monthlyMailSent(id, month, at) {
      await knex('dinner_price_mailings').where({ subscriber_id: id, month }).update({ sent_at: iso(at) });
    },
    async releaseMonthlyMail(id, month) {
      await knex('dinner_price_mailings').where({ subscriber_id: id, month }).whereNull('sent_at').delete();
    },
    async monthlyMailsOf(id) {
      const rows = (await knex('dinner_price_mailings').where({ subscriber_id: id }).orderBy('month').select('month', 'claimed_at', 'sent_at')) as {
        month: string;
        claimed_at: Date | string;
        sent_at: Date | string | null;
      }[];
      return rows.map((r): DinnerPriceMonthlyMail => ({ month: r.month, claimedAt: toDate(r.claimed_at), sentAt: r.sent_at === null ? null : toDate(r.sent_at) }));
    },
  });
}

/** The dinner-price list: the mailing list 'dinner-prices' with its monthly mails. */
export function knexDinnerPriceSubscriberStore(knex: Knex): DinnerPriceSubscriberStore {
  return { ...knexMailingList(knex, 'dinner-prices'), ...knexDinnerPriceMonthlyMails(knex) };
}
