import type { Knex } from 'knex';
import { MAILING_LISTS, type ListedAddress, type ListExit, type ListLanguage, type ListToken, type MailingList, type MailingListStore } from '../../ports/mailing-list-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, toDate } from './rows.js';

/** Where each list lives (migrations 0022 and 0036): its addresses, its tokens, and the tokens' column naming the address. */
const TABLES: Readonly<Record<MailingList, { addresses: string; tokens: string; addressColumn: string }>> = {
  'dinner-prices': { addresses: 'dinner_price_subscribers', tokens: 'dinner_price_tokens', addressColumn: 'subscriber_id' },
  waitlist: { addresses: 'waitlist_entries', tokens: 'waitlist_tokens', addressColumn: 'entry_id' },
};

export interface AddressRow {
  id: string;
  email: string;
  language: string;
  created_at: Date | string;
  confirmed_at: Date | string | null;
  last_mailed_at: Date | string;
  account_id?: string | null;
}

export const toAddress = (r: AddressRow): ListedAddress => ({
  id: r.id,
  email: r.email,
  language: r.language as ListLanguage,
  createdAt: toDate(r.created_at),
  confirmedAt: r.confirmed_at === null ? null : toDate(r.confirmed_at),
  lastMailedAt: toDate(r.last_mailed_at),
  accountId: r.account_id ?? null,
});

/** Chunks keep the `in (...)` lists of a large purge within the drivers' bound-parameter limits. */
const CHUNK = 500;

/** The columns of a list's address rows, under the alias `a`. */
export const columnsOf = (list: MailingList): string[] =>
  ['a.id', 'a.email', 'a.language', 'a.created_at', 'a.confirmed_at', 'a.last_mailed_at', ...(MAILING_LISTS[list].linksAccounts ? ['a.account_id'] : [])];

/** Writes the tokens of one mail to `addressId` (the dinner-price list's monthly mail issues them too). */
export async function issueTokens(trx: Knex | Knex.Transaction, list: MailingList, addressId: string, at: Date, tokens: readonly ListToken[]): Promise<void> {
  if (tokens.length === 0) return;
  const rules = MAILING_LISTS[list];
  const rows = tokens.map((t) => {
    if (!rules.purposes.includes(t.purpose)) throw new Error(`the ${list} list issues no ${t.purpose} links`);
    if ((t.expiresAt !== null) !== rules.linksExpire) throw new Error(`the ${list} list's links ${rules.linksExpire ? 'expire' : 'do not expire'}`);
    return list === 'waitlist'
      ? { token_hash: t.tokenHash, entry_id: addressId, expires_at: iso(t.expiresAt!) }
      : { token_hash: t.tokenHash, purpose: t.purpose, subscriber_id: addressId, issued_at: iso(at), exit: null, left_at: null };
  });
  await trx(TABLES[list].tokens).insert(rows);
}

/** One double-opt-in list over its own tables (ports/mailing-list-store.ts says how the two lists differ). */
export function knexMailingList(knex: Knex, list: MailingList): MailingListStore {
  const rules = MAILING_LISTS[list];
  const { addresses, tokens, addressColumn } = TABLES[list];
  const columns = columnsOf(list);
  const ofNoAccount = (q: Knex.QueryBuilder) => (rules.linksAccounts ? q.whereNull('account_id') : q);
  // Tokens first (they keep why, where the list remembers it), then the rows: in one transaction, so a token never
  // points at a missing row. Without a reason to keep, the foreign key sets the tokens' address to null.
  const removeIds = async (trx: Knex.Transaction, ids: readonly string[], exit: ListExit, at: Date): Promise<number> => {
    let removed = 0;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      if (rules.remembersExit) await trx(tokens).whereIn(addressColumn, chunk).update({ [addressColumn]: null, exit, left_at: iso(at) });
      removed += await trx(addresses).whereIn('id', chunk).delete();
    }
    return removed;
  };
  const removeWhere = (where: (q: Knex.QueryBuilder) => Knex.QueryBuilder, exit: ListExit, at: Date): Promise<number> =>
    knex.transaction(async (trx) => removeIds(trx, (await where(trx(addresses)).pluck('id')) as string[], exit, at));

  return translated<MailingListStore>(knex, {
    async byEmail(email) {
      const row = (await knex(`${addresses} as a`).select(columns).where('a.email', email).first()) as AddressRow | undefined;
      return row ? toAddress(row) : null;
    },
    async add(a, first) {
      try {
        await knex.transaction(async (trx) => {
          await trx(addresses).insert({
            id: a.id,
            email: a.email,
            language: a.language,
            created_at: iso(a.createdAt),
            confirmed_at: a.confirmedAt ? iso(a.confirmedAt) : null,
            last_mailed_at: iso(a.lastMailedAt),
            ...(rules.linksAccounts ? { account_id: a.accountId } : {}),
          });
          await issueTokens(trx, list, a.id, a.lastMailedAt, first);
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
        const updated = await ofNoAccount(trx(addresses).where({ id }).whereNull('confirmed_at'))
          .where('last_mailed_at', '<=', iso(mailedNoLaterThan))
          .update({ last_mailed_at: iso(mail.at), language: mail.language });
        if (updated !== 1) return false;
        await issueTokens(trx, list, id, mail.at, mail.tokens);
        return true;
      });
    },
    async byToken(tokenHash, purpose) {
      if (!rules.purposes.includes(purpose)) return null;
      const q = knex(`${tokens} as t`)
        .leftJoin(`${addresses} as a`, 'a.id', `t.${addressColumn}`)
        .select([...columns, `t.${addressColumn} as address_id`, ...(rules.remembersExit ? ['t.exit'] : []), ...(rules.linksExpire ? ['t.expires_at'] : [])])
        .where('t.token_hash', tokenHash);
      if (rules.purposes.length > 1) void q.where('t.purpose', purpose);
      const row = (await q.first()) as (AddressRow & { address_id: string | null; exit?: string | null; expires_at?: Date | string }) | undefined;
      if (!row) return null;
      const listed = row.address_id !== null && row.id !== null;
      return {
        address: listed ? toAddress(row) : null,
        expiresAt: row.expires_at === undefined ? null : toDate(row.expires_at),
        exit: listed || !rules.remembersExit ? null : ((row.exit ?? 'unsubscribed') as ListExit),
      };
    },
    async confirm(tokenHash, at) {
      return knex.transaction(async (trx) => {
        const token = trx(tokens).where({ token_hash: tokenHash }).whereNotNull(addressColumn);
        if (rules.purposes.length > 1) void token.where('purpose', 'confirm');
        const found = (await token.first(addressColumn)) as Record<string, string> | undefined;
        const addressId = found?.[addressColumn];
        if (addressId === undefined) return false;
        // Deleting is the spend: of two simultaneous clicks only one deletes the row.
        if (rules.confirmSpendsLinks && (await trx(tokens).where({ token_hash: tokenHash, [addressColumn]: addressId }).delete()) !== 1) return false;
        await trx(addresses).where({ id: addressId }).whereNull('confirmed_at').update({ confirmed_at: iso(at) });
        if (rules.confirmSpendsLinks) await trx(tokens).where({ [addressColumn]: addressId }).delete();
        return (await trx(addresses).where({ id: addressId }).first('id')) !== undefined;
      });
    },
    async remove(id, exit, at) {
      return (await knex.transaction((trx) => removeIds(trx, [id], exit, at))) === 1;
    },
    async removeUnconfirmed(createdBefore, at) {
      return removeWhere((q) => ofNoAccount(q.whereNull('confirmed_at').where('created_at', '<', iso(createdBefore))), 'expired', at);
    },
    async forgetTokens(before) {
      if (rules.linksExpire) return knex(tokens).where('expires_at', '<', iso(before)).delete();
      return knex(tokens).whereNull(addressColumn).where('left_at', '<', iso(before)).delete();
    },
    async linkAccount(email, accountId) {
      if (!rules.linksAccounts) return false;
      return (await knex(addresses).where({ email }).whereNull('account_id').update({ account_id: accountId })) === 1;
    },
    async removeOfAccount(accountId, email) {
      if (!rules.linksAccounts) return 0;
      const ofAccount = knex(addresses).where('account_id', accountId);
      // The address's row when no other account has it (an account that changed its address may still hold it).
      if (email !== null) void ofAccount.orWhere((q) => void q.where('email', email).whereNull('account_id'));
      return ofAccount.delete();
    },
  });
}
