import type { WaitlistEntry, WaitlistStore, WaitlistToken } from '../../ports/waitlist-store.js';
import type { MemoryTables } from './stores.js';

interface TokenRow {
  entryId: string | null;
  expiresAt: Date;
}

/** The waitlist in memory; an entry of an account goes with it, as the database's cascade has it. */
export function memoryWaitlistStore(t: MemoryTables): WaitlistStore {
  const entries = new Map<string, WaitlistEntry>();
  const tokens = new Map<string, TokenRow>();
  const copy = (e: WaitlistEntry): WaitlistEntry => structuredClone(e);
  const issue = (entryId: string, token: WaitlistToken) => {
    if (tokens.has(token.tokenHash)) throw new Error('waitlist token hash taken');
    tokens.set(token.tokenHash, { entryId, expiresAt: new Date(token.expiresAt) });
  };
  // Unspent tokens of a row that goes keep their expiry without it (ON DELETE SET NULL).
  const removeWhere = (gone: (e: WaitlistEntry) => boolean): number => {
    let n = 0;
    for (const [id, e] of entries) {
      if (!gone(e)) continue;
      entries.delete(id);
      for (const row of tokens.values()) if (row.entryId === id) row.entryId = null;
      n++;
    }
    return n;
  };
  t.onAccountDeleted.push((accountId) => removeWhere((e) => e.accountId === accountId));
  return {
    async byEmail(email) {
      const e = [...entries.values()].find((x) => x.email === email);
      return e ? copy(e) : null;
    },
    async add(e, token) {
      if ([...entries.values()].some((x) => x.email === e.email)) return 'email-taken';
      issue(e.id, token);
      entries.set(e.id, copy(e));
      return 'added';
    },
    async recordMail(id, mail, mailedNoLaterThan) {
      const e = entries.get(id);
      if (!e || e.confirmedAt !== null || e.accountId !== null || e.lastMailedAt.getTime() > mailedNoLaterThan.getTime()) return false;
      issue(id, mail.token);
      entries.set(id, { ...e, lastMailedAt: new Date(mail.at), language: mail.language });
      return true;
    },
    async byToken(tokenHash) {
      const row = tokens.get(tokenHash);
      if (!row) return null;
      const e = row.entryId === null ? undefined : entries.get(row.entryId);
      return { entry: e ? copy(e) : null, expiresAt: new Date(row.expiresAt) };
    },
    async confirm(tokenHash, at) {
      const entryId = tokens.get(tokenHash)?.entryId ?? null;
      const e = entryId === null ? undefined : entries.get(entryId);
      if (!e) return false;
      for (const [hash, row] of tokens) if (row.entryId === e.id) tokens.delete(hash);
      if (e.confirmedAt === null) entries.set(e.id, { ...e, confirmedAt: new Date(at) });
      return true;
    },
    async remove(id) {
      return removeWhere((e) => e.id === id) === 1;
    },
    async removeUnconfirmed(createdBefore) {
      return removeWhere((e) => e.confirmedAt === null && e.accountId === null && e.createdAt.getTime() < createdBefore.getTime());
    },
    async forgetTokens(expiredBefore) {
      let n = 0;
      for (const [hash, row] of tokens) {
        if (row.expiresAt.getTime() < expiredBefore.getTime() && tokens.delete(hash)) n++;
      }
      return n;
    },
    async linkAccount(email, accountId) {
      const e = [...entries.values()].find((x) => x.email === email && x.accountId === null);
      if (e) entries.set(e.id, { ...e, accountId });
      return e !== undefined;
    },
    async removeOfAccount(accountId, email) {
      return removeWhere((e) => e.accountId === accountId || (email !== null && e.email === email && e.accountId === null));
    },
  };
}
