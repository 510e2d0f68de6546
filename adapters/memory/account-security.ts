import type { AccountToken, AccountTokenStore } from '../../ports/account-token-store.js';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import { accountRows, type MemoryTables } from './stores.js';

export function memoryAccountTokenStore(t: MemoryTables): AccountTokenStore {
  const tokens = accountRows<AccountToken>(t);
  return {
    async issue(token) {
      tokens.set(token.tokenHash, { ...token });
    },
    async consume(tokenHash, purpose, now) {
      const token = tokens.get(tokenHash);
      if (!token || token.purpose !== purpose) return null;
      tokens.delete(tokenHash);
      return token.expiresAt.getTime() > now.getTime() ? { ...token } : null;
    },
    async lastIssuedAt(accountId, purpose) {
      const times = [...tokens.values()].filter((x) => x.accountId === accountId && x.purpose === purpose).map((x) => x.createdAt.getTime());
      return times.length ? new Date(Math.max(...times)) : null;
    },
    async revokeAll(accountId, purpose) {
      for (const [k, tok] of tokens) if (tok.accountId === accountId && tok.purpose === purpose) tokens.delete(k);
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [k, tok] of tokens) if (tok.expiresAt.getTime() < now.getTime() && tokens.delete(k)) n++;
      return n;
    },
  };
}

export function memoryLoginThrottle(): LoginThrottle {
  const rows = new Map<string, { failures: number; windowStartedAt: Date; lockedUntil: Date | null }>();
  return {
    async lockedUntil(key, now) {
      const until = rows.get(key)?.lockedUntil;
      return until && until.getTime() > now.getTime() ? new Date(until) : null;
    },
    async recordFailure(key, now, rule) {
      const row = rows.get(key);
      const fresh = !row || now.getTime() - row.windowStartedAt.getTime() >= rule.windowMs;
      const failures = fresh ? 1 : row!.failures + 1;
      const locks = failures >= rule.attempts;
      rows.set(key, {
        failures: locks ? 0 : failures,
        windowStartedAt: fresh || locks ? now : row!.windowStartedAt,
        lockedUntil: locks ? new Date(now.getTime() + rule.lockMs) : (row?.lockedUntil ?? null),
      });
      return locks;
    },
    async clear(key) {
      rows.delete(key);
    },
    async purge(now, windowMs) {
      let n = 0;
      for (const [k, r] of rows) {
        const unlocked = !r.lockedUntil || r.lockedUntil.getTime() <= now.getTime();
        if (unlocked && r.windowStartedAt.getTime() < now.getTime() - windowMs && rows.delete(k)) n++;
      }
      return n;
    },
  };
}
