import type { Knex } from 'knex';
import type { AccessToken, ListedAccessToken } from '../../core/households/types.js';
import type { AccessTokenStore, FoundAccessToken } from '../../ports/access-token-store.js';
import { ACCOUNT_COLUMNS, toAccount, type AccountRow } from './account-store.js';
import { isForeignKeyViolation, translated } from './errors.js';
import { iso, rowMapping, toBool } from './rows.js';
import { isPostgres } from './schema-kit.js';
import { speedOf } from './speed/index.js';

const tokenMapping = rowMapping<AccessToken>({
  id: 'as-is',
  accountId: 'as-is',
  householdId: 'as-is',
  name: 'as-is',
  scope: 'as-is',
  tokenHash: 'as-is',
  createdAt: 'instant',
  expiresAt: 'instant',
  lastUsedAt: 'optional-instant',
});

const TOKEN_COLUMNS = ['id', 'account_id', 'household_id', 'name', 'scope', 'token_hash', 'created_at', 'expires_at', 'last_used_at'];

/**
 * Run on every request made with a token, so written out once: the token, its account, and whether the account is
 * still a member of the token's household, in one read. Never through the read cache (ports/access-token-store.ts).
 */
const LOOKUP_SQL =
  `select ${TOKEN_COLUMNS.map((c) => `t.${c} as t_${c}`).join(', ')}, ${ACCOUNT_COLUMNS.map((c) => `a.${c}`).join(', ')}, ` +
  'exists (select 1 from household_members m where m.household_id = t.household_id and m.account_id = t.account_id) as is_member ' +
  'from access_tokens t inner join accounts a on a.id = t.account_id where t.token_hash = ? limit 1';

type LookupRow = AccountRow & Record<`t_${string}`, unknown> & { is_member: boolean | number };

const tokenOf = (row: LookupRow): AccessToken => tokenMapping.fromRow(Object.fromEntries(TOKEN_COLUMNS.map((c) => [c, row[`t_${c}`]])));

export function knexAccessTokenStore(knex: Knex): AccessTokenStore {
  return translated<AccessTokenStore>(knex, {
    async create(token, { maxLive, now }) {
      try {
        return await knex.transaction(async (trx) => {
          // Two makings at once for one account wait for each other here (SQLite's writes are one at a time anyway).
          // An advisory lock, not a row lock on accounts: the read cache takes any statement naming a cached table
          // with "update" in it for a write to it, and would let go of every session it holds.
          if (isPostgres(knex)) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`access_tokens:${token.accountId}`]);
          const row = (await trx('access_tokens').where({ account_id: token.accountId }).andWhere('expires_at', '>', iso(now)).count({ n: '*' }).first()) as { n: number | string } | undefined;
          if (Number(row?.n ?? 0) >= maxLive) return 'limit' as const;
          await trx('access_tokens').insert(tokenMapping.toRow(token));
          return 'created' as const;
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) return 'gone';
        throw err;
      }
    },
    async listOf(accountId) {
      const rows = (await knex('access_tokens as t')
        .join('households as h', 'h.id', 't.household_id')
        .where('t.account_id', accountId)
        .select(TOKEN_COLUMNS.map((c) => `t.${c}`))
        .select({ household_name: 'h.name' })
        .select(knex.raw('exists (select 1 from household_members m where m.household_id = t.household_id and m.account_id = t.account_id) as is_member'))
        .orderBy([{ column: 't.created_at', order: 'desc' }, { column: 't.id', order: 'desc' }])) as (Record<string, unknown> & { household_name: string; is_member: unknown })[];
      return rows.map((r): ListedAccessToken => {
        const { tokenHash: _secretHash, ...token } = tokenMapping.fromRow(r);
        return { ...token, householdName: r.household_name, member: toBool(r.is_member) };
      });
    },
    async revoke(accountId, tokenId) {
      return (await knex('access_tokens').where({ id: tokenId, account_id: accountId }).delete()) > 0;
    },
    async lookup(tokenHash): Promise<FoundAccessToken | null> {
      const [row] = await speedOf(knex).fixedRows<LookupRow>(LOOKUP_SQL, [tokenHash]);
      return row ? { token: tokenOf(row), account: toAccount(row), member: toBool(row.is_member) } : null;
    },
    async touch(tokenId, at, notBefore) {
      await knex('access_tokens')
        .where({ id: tokenId })
        .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<=', iso(notBefore)))
        .update({ last_used_at: iso(at) });
    },
    async deleteExpired(before) {
      return knex('access_tokens').where('expires_at', '<', iso(before)).delete();
    },
  });
}
