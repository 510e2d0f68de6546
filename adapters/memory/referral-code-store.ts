import type { ReferralCode } from '../../core/reference/types.js';
import type { ReferralCodeStore } from '../../ports/referral-code-store.js';
import type { MemoryTables } from './stores.js';

/**
 * Codes of a household that is gone are gone too (the SQL cascade), checked on every access; so is the redeemer of
 * a code whose account is gone (SET NULL). `redeem` runs without an await, so concurrent redemptions never both win.
 */
export function memoryReferralCodeStore(t: MemoryTables): ReferralCodeStore {
  const codes = new Map<string, ReferralCode>();
  const alive = (c: ReferralCode) => t.households.has(c.householdId);
  const copy = (c: ReferralCode): ReferralCode => structuredClone(c);
  return {
    async listOf(householdId) {
      return [...codes.values()]
        .map((c) => (c.usedBy !== null && !t.accounts.has(c.usedBy) ? { ...c, usedBy: null } : c))
        .filter((c) => c.householdId === householdId && alive(c))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
        .map(copy);
    },
    async addToFreeSlots(householdId, fresh) {
      const added: ReferralCode[] = [];
      // No await between the check and the write: concurrent callers cannot both see a slot free.
      for (const c of fresh) {
        const existing = codes.get(c.code);
        if (existing && alive(existing)) continue;
        const slotTaken = [...codes.values()].some((x) => x.householdId === householdId && x.slot === c.slot && alive(x));
        if (slotTaken) continue;
        const code: ReferralCode = { code: c.code, householdId, slot: c.slot, usedAt: null, usedBy: null, createdAt: new Date(c.createdAt.getTime()) };
        codes.set(c.code, code);
        added.push(copy(code));
      }
      return added;
    },
    async redeem(code, accountId, at) {
      const c = codes.get(code);
      if (!c || !alive(c) || c.usedAt !== null) return null;
      const spent: ReferralCode = { ...c, slot: null, usedAt: new Date(at.getTime()), usedBy: accountId };
      codes.set(code, spent);
      return copy(spent);
    },
  };
}
