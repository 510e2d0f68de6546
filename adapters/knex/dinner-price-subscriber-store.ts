import type { Knex } from 'knex';
import type {
  DinnerPriceLanguage,
  DinnerPriceListExit,
  DinnerPriceMonthlyMail,
  DinnerPriceSubscriber,
  DinnerPriceSubscriberStore,
  DinnerPriceToken,
} from '../../ports/dinner-price-subscriber-store.js';
import { isForeignKeyViolation, isUniqueViolation, translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface SubscriberRow {
  id: string;
  email: string;
  language: string;
  created_at: Date | string;
  confirmed_at: Date | string | null;
  last_mailed_at: Date | string;
}

const COLUMNS = ['s.id', 's.email', 's.language', 's.created_at', 's.confirmed_at', 's.last_mailed_at'];

const toSubscriber = (r: SubscriberRow): DinnerPriceSubscriber => ({
  id: r.id,
  email: r.email,
  language: r.language as DinnerPriceLanguage,
  createdAt: toDate(r.created_at),
  confirmedAt: r.confirmed_at === null ? null : toDate(r.confirmed_at),
  lastMailedAt: toDate(r.last_mailed_at),
});

const tokenRows = (subscriberId: string, at: Date, tokens: readonly DinnerPriceToken[]) =>
  tokens.map((t) => ({ token_hash: t.tokenHash, purpose: t.purpose, subscriber_id: subscriberId, issued_at: iso(at), exit: null, left_at: null }));

/** Chunks keep the `in (...)` lists of a large purge within the drivers' bound-parameter limits. */
const CHUNK = 500;

export function knexDinnerPriceSubscriberStore(knex: Knex): DinnerPriceSubscriberStore {
  // Tokens first (they keep why), then the rows: in one transaction, so a token never points at a missing row.
  const removeIds = async (trx: Knex.Transaction, ids: readonly string[], exit: DinnerPriceListExit, at: Date): Promise<number> => {
    let removed = 0;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      await trx('dinner_price_tokens').whereIn('subscriber_id', chunk).update({ subscriber_id: null, exit, left_at: iso(at) });
      removed += await trx('dinner_price_subscribers').whereIn('id', chunk).delete();
    }
    return removed;
  };

  return translated<DinnerPriceSubscriberStore>(knex, {
    async byEmail(email) {
      const row = (await knex('dinner_price_subscribers as s').select(COLUMNS).where('s.email', email).first()) as SubscriberRow | undefined;
      return row ? toSubscriber(row) : null;
    },
    async add(s, tokens) {
      try {
        await knex.transaction(async (trx) => {
          await trx('dinner_price_subscribers').insert({
            id: s.id,
            email: s.email,
            language: s.language,
            created_at: iso(s.createdAt),
            confirmed_at: s.confirmedAt ? iso(s.confirmedAt) : null,
            last_mailed_at: iso(s.lastMailedAt),
          });
          if (tokens.length > 0) await trx('dinner_price_tokens').insert(tokenRows(s.id, s.lastMailedAt, tokens));
        });
        return 'added';
      } catch (err) {
        // Only the address is unique among what a caller chooses (ids and token hashes are random).
        if (isUniqueViolation(err)) return 'email-taken';
        throw err;
      }
    },
    async recordMail(id, mail, mailedNoLaterThan) {
      return knex.transaction(async (trx) => {
        // The condition is re-checked under the row lock: of two simultaneous calls one updates, one finds nothing.
        const updated = await trx('dinner_price_subscribers')
          .where({ id })
          .whereNull('confirmed_at')
          .where('last_mailed_at', '<=', iso(mailedNoLaterThan))
          .update({ last_mailed_at: iso(mail.at), language: mail.language });
        if (updated !== 1) return false;
        if (mail.tokens.length > 0) await trx('dinner_price_tokens').insert(tokenRows(id, mail.at, mail.tokens));
        return true;
      });
    },
    async byToken(tokenHash, purpose) {
      const row = (await knex('dinner_price_tokens as t')
        .leftJoin('dinner_price_subscribers as s', 's.id', 't.subscriber_id')
        .select([...COLUMNS, 't.exit', 't.subscriber_id'])
        .where({ 't.token_hash': tokenHash, 't.purpose': purpose })
        .first()) as (SubscriberRow & { exit: string | null; subscriber_id: string | null }) | undefined;
      if (!row) return null;
      if (row.subscriber_id !== null && row.id !== null) return { state: 'listed', subscriber: toSubscriber(row) };
      return { state: 'left', exit: (row.exit ?? 'unsubscribed') as DinnerPriceListExit };
    },
    async confirm(id, at) {
      await knex('dinner_price_subscribers').where({ id }).whereNull('confirmed_at').update({ confirmed_at: iso(at) });
      return (await knex('dinner_price_subscribers').where({ id }).first('id')) !== undefined;
    },
    async remove(id, exit, at) {
      return (await knex.transaction((trx) => removeIds(trx, [id], exit, at))) === 1;
    },
    async removeUnconfirmed(createdBefore, at) {
      return knex.transaction(async (trx) => {
        const ids = (await trx('dinner_price_subscribers').whereNull('confirmed_at').where('created_at', '<', iso(createdBefore)).pluck('id')) as string[];
        return removeIds(trx, ids, 'expired', at);
      });
    },
    async forgetLeft(leftBefore) {
      return knex('dinner_price_tokens').whereNull('subscriber_id').where('left_at', '<', iso(leftBefore)).delete();
    },
    async dueForMonthlyMail({ month, confirmedBefore, afterId, limit }) {
      const q = knex('dinner_price_subscribers as s')
        .select(COLUMNS)
        .whereNotNull('s.confirmed_at')
        .where('s.confirmed_at', '<', iso(confirmedBefore))
        .whereNotExists(knex('dinner_price_mailings as m').select(knex.raw('1')).whereRaw('m.subscriber_id = s.id').where('m.month', month))
        .orderBy('s.id')
        .limit(limit);
      if (afterId !== null) q.where('s.id', '>', afterId);
      return ((await q) as SubscriberRow[]).map(toSubscriber);
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
          if (claim.tokens.length > 0) await trx('dinner_price_tokens').insert(tokenRows(id, claim.at, claim.tokens));
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
