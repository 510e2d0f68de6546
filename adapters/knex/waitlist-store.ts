import type { Knex } from 'knex';
import type { WaitlistEntry, WaitlistLanguage, WaitlistStore, WaitlistToken } from '../../ports/waitlist-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface EntryRow {
  id: string;
  email: string;
  language: string;
  created_at: Date | string;
  confirmed_at: Date | string | null;
  last_mailed_at: Date | string;
  account_id: string | null;
}

const COLUMNS = ['e.id', 'e.email', 'e.language', 'e.created_at', 'e.confirmed_at', 'e.last_mailed_at', 'e.account_id'];

const toEntry = (r: EntryRow): WaitlistEntry => ({
  id: r.id,
  email: r.email,
  language: r.language as WaitlistLanguage,
  createdAt: toDate(r.created_at),
  confirmedAt: r.confirmed_at === null ? null : toDate(r.confirmed_at),
  lastMailedAt: toDate(r.last_mailed_at),
  accountId: r.account_id,
});

const tokenRow = (entryId: string, t: WaitlistToken) => ({ token_hash: t.tokenHash, entry_id: entryId, expires_at: iso(t.expiresAt) });

export function knexWaitlistStore(knex: Knex): WaitlistStore {
  return translated<WaitlistStore>(knex, {
    async byEmail(email) {
      const row = (await knex('waitlist_entries as e').select(COLUMNS).where('e.email', email).first()) as EntryRow | undefined;
      return row ? toEntry(row) : null;
    },
    async add(e, token) {
      try {
        await knex.transaction(async (trx) => {
          await trx('waitlist_entries').insert({
            id: e.id,
            email: e.email,
            language: e.language,
            created_at: iso(e.createdAt),
            confirmed_at: e.confirmedAt ? iso(e.confirmedAt) : null,
            last_mailed_at: iso(e.lastMailedAt),
            account_id: e.accountId,
          });
          await trx('waitlist_tokens').insert(tokenRow(e.id, token));
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
        const updated = await trx('waitlist_entries')
          .where({ id })
          .whereNull('confirmed_at')
          .whereNull('account_id')
          .where('last_mailed_at', '<=', iso(mailedNoLaterThan))
          .update({ last_mailed_at: iso(mail.at), language: mail.language });
        if (updated !== 1) return false;
        await trx('waitlist_tokens').insert(tokenRow(id, mail.token));
        return true;
      });
    },
    async byToken(tokenHash) {
      const row = (await knex('waitlist_tokens as t')
        .leftJoin('waitlist_entries as e', 'e.id', 't.entry_id')
        .select([...COLUMNS, 't.expires_at'])
        .where('t.token_hash', tokenHash)
        .first()) as (Omit<EntryRow, 'id'> & { id: string | null; expires_at: Date | string }) | undefined;
      if (!row) return null;
      return { entry: row.id === null ? null : toEntry(row as EntryRow), expiresAt: toDate(row.expires_at) };
    },
    async confirm(tokenHash, at) {
      return knex.transaction(async (trx) => {
        const token = (await trx('waitlist_tokens').where({ token_hash: tokenHash }).whereNotNull('entry_id').first('entry_id')) as { entry_id: string } | undefined;
        if (!token) return false;
        // Deleting is the spend: of two simultaneous clicks only one deletes the row.
        if ((await trx('waitlist_tokens').where({ token_hash: tokenHash, entry_id: token.entry_id }).delete()) !== 1) return false;
        await trx('waitlist_entries').where({ id: token.entry_id }).whereNull('confirmed_at').update({ confirmed_at: iso(at) });
        await trx('waitlist_tokens').where({ entry_id: token.entry_id }).delete();
        return true;
      });
    },
    async remove(id) {
      return (await knex('waitlist_entries').where({ id }).delete()) === 1;
    },
    async removeUnconfirmed(createdBefore) {
      return knex('waitlist_entries').whereNull('confirmed_at').whereNull('account_id').where('created_at', '<', iso(createdBefore)).delete();
    },
    async forgetTokens(expiredBefore) {
      return knex('waitlist_tokens').where('expires_at', '<', iso(expiredBefore)).delete();
    },
    async linkAccount(email, accountId) {
      return (await knex('waitlist_entries').where({ email }).whereNull('account_id').update({ account_id: accountId })) === 1;
    },
    async removeOfAccount(accountId, email) {
      const ofAccount = knex('waitlist_entries').where('account_id', accountId);
      // The address's row when no other account has it (an account that changed its address may still hold it).
      if (email !== null) void ofAccount.orWhere((q) => void q.where('email', email).whereNull('account_id'));
      return ofAccount.delete();
    },
  });
}
