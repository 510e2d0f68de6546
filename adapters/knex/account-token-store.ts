import type { Knex } from 'knex';
import type { AccountToken, AccountTokenStore, TokenPurpose } from '../../ports/account-token-store.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface TokenRow {
  token_hash: string;
  account_id: string;
  purpose: string;
  new_email: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

const toToken = (r: TokenRow): AccountToken => ({
  tokenHash: r.token_hash,
  accountId: r.account_id,
  purpose: r.purpose as TokenPurpose,
  newEmail: r.new_email,
  createdAt: toDate(r.created_at),
  expiresAt: toDate(r.expires_at),
});

export function knexAccountTokenStore(knex: Knex): AccountTokenStore {
  return translated<AccountTokenStore>(knex, {
    async issue(t) {
      await knex('account_tokens').insert({
        token_hash: t.tokenHash,
        account_id: t.accountId,
        purpose: t.purpose,
        new_email: t.newEmail,
        created_at: iso(t.createdAt),
        expires_at: iso(t.expiresAt),
      });
    },
    async consume(tokenHash, purpose, now) {
      return knex.transaction(async (trx) => {
        const row = (await trx<TokenRow>('account_tokens').where({ token_hash: tokenHash, purpose }).first()) as TokenRow | undefined;
        if (!row) return null;
        // Only the transaction whose delete removed the row may use it: a concurrent one deletes nothing.
        const deleted = await trx('account_tokens').where({ token_hash: tokenHash }).delete();
        if (deleted !== 1) return null;
        const token = toToken(row);
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
