import type { Knex } from 'knex';
import type { AccountToken, AccountTokenStore } from '../../ports/account-token-store.js';
import { translated } from './errors.js';
import { iso, rowMapping, toDate } from './rows.js';

const tokenMapping = rowMapping<AccountToken>({
  tokenHash: 'as-is',
  accountId: 'as-is',
  purpose: 'as-is',
  newEmail: 'as-is',
  createdAt: 'instant',
  expiresAt: 'instant',
});

export function knexAccountTokenStore(knex: Knex): AccountTokenStore {
  return translated<AccountTokenStore>(knex, {
    async issue(t) {
      await knex('account_tokens').insert(tokenMapping.toRow(t));
    },
    async consume(tokenHash, purpose, now) {
      return knex.transaction(async (trx) => {
        const row = (await trx('account_tokens').where({ token_hash: tokenHash, purpose }).first()) as object | undefined;
        if (!row) return null;
        // Only the transaction whose delete removed the row may use it: a concurrent one deletes nothing.
        const deleted = await trx('account_tokens').where({ token_hash: tokenHash }).delete();
        if (deleted !== 1) return null;
        const token = tokenMapping.fromRow(row);
        return token.expiresAt.getTime() > now.getTime() ? token : null;
      });
    },
    async lastIssuedAt(accountId, purpose) {
      const row = (await knex('account_tokens').where({ account_id: accountId, purpose }).max({ at: 'created_at' }).first()) as { at: Date | string | null } | undefined;
      return row?.at ? toDate(row.at) : null;
    },
    async revokeAll(accountId, purpose) {
      await knex('account_tokens').where({ account_id: accountId, purpose }).delete();
    },
    async deleteExpired(now) {
      return knex('account_tokens').where('expires_at', '<', iso(now)).delete();
    },
  });
}
