import type { AccessToken } from '../../core/households/types.js';
import type { AccessTokenStore } from '../../ports/access-token-store.js';
import { accountRows, type MemoryTables } from './stores.js';

/** Personal access tokens in memory; a token whose household is gone counts as gone, as the database's cascade makes it. */
export function memoryAccessTokenStore(t: MemoryTables): AccessTokenStore {
  const rows = accountRows<AccessToken>(t);
  const member = (token: Pick<AccessToken, 'householdId' | 'accountId'>) => [...t.members.values()].some((m) => m.householdId === token.householdId && m.accountId === token.accountId);
  const live = (): AccessToken[] => {
    for (const [id, token] of rows) if (!t.households.has(token.householdId)) rows.delete(id);
    return [...rows.values()];
  };
  return {
    async create(token, { maxLive, now }) {
      if (!t.accounts.has(token.accountId) || !t.households.has(token.householdId)) return 'gone';
      if (live().filter((x) => x.accountId === token.accountId && x.expiresAt.getTime() > now.getTime()).length >= maxLive) return 'limit';
      rows.set(token.id, structuredClone(token));
      return 'created';
    },
    async listOf(accountId) {
      return live()
        .filter((x) => x.accountId === accountId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        .map(({ tokenHash: _secretHash, ...token }) => ({ ...structuredClone(token), householdName: t.households.get(token.householdId)!.name, member: member(token) }));
    },
    async revoke(accountId, tokenId) {
      const token = rows.get(tokenId);
      if (!token || token.accountId !== accountId) return false;
      return rows.delete(tokenId);
    },
    async lookup(tokenHash) {
      const token = live().find((x) => x.tokenHash === tokenHash);
      const account = token && t.accounts.get(token.accountId);
      return token && account ? structuredClone({ token, account, member: member(token) }) : null;
    },
    async touch(tokenId, at, notBefore) {
      const token = rows.get(tokenId);
      if (token && (token.lastUsedAt === null || token.lastUsedAt.getTime() <= notBefore.getTime())) rows.set(tokenId, { ...token, lastUsedAt: at });
    },
    async deleteExpired(before) {
      let n = 0;
      for (const [id, token] of rows) if (token.expiresAt.getTime() < before.getTime() && rows.delete(id)) n++;
      return n;
    },
  };
}
