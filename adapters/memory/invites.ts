import type { Invite, InviteStore } from '../../ports/invite-store.js';
import type { OutboxEntry, PushOutbox } from '../../ports/push-outbox.js';
import type { MemoryTables } from './stores.js';

export function memoryInviteStore(t: MemoryTables): InviteStore {
  const invites = new Map<string, Invite>();
  t.onAccountDeleted.push((accountId) => {
    for (const [code, i] of invites) {
      if (i.createdBy === accountId) invites.delete(code);
      else if (i.usedBy === accountId) invites.set(code, { ...i, usedBy: null });
    }
  });
  // Household and member rows may go without this store being told (as the SQL cascades do).
  const alive = (i: Invite) => t.households.has(i.householdId);
  const view = (i: Invite): Invite => ({ ...i, memberId: i.memberId !== null && t.members.has(i.memberId) ? i.memberId : null });
  return {
    async create(i) {
      invites.set(i.code, { ...i, usedAt: null, usedBy: null });
    },
    async byCode(code) {
      const i = invites.get(code);
      return i && alive(i) ? view(i) : null;
    },
    async listOpen(householdId, now) {
      return [...invites.values()]
        .filter((i) => i.householdId === householdId && alive(i) && i.usedAt === null && i.expiresAt.getTime() > now.getTime())
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.code.localeCompare(b.code))
        .map(view);
    },
    async delete(householdId, code) {
      const i = invites.get(code);
      if (!i || i.householdId !== householdId) return false;
      return invites.delete(code);
    },
    async markUsed(code, accountId, at) {
      const i = invites.get(code);
      if (!i || i.usedAt !== null) return false;
      invites.set(code, { ...i, usedAt: at, usedBy: accountId });
      return true;
    },
    async unlinkMember(householdId, memberId) {
      for (const [code, i] of invites) if (i.householdId === householdId && i.memberId === memberId) invites.set(code, { ...i, memberId: null });
    },
  };
}

export function memoryPushOutbox(t: MemoryTables): PushOutbox {
  const entries: (OutboxEntry & { sentAt: Date | null })[] = [];
  return {
    async record(e) {
      entries.push({ ...e, sentAt: null });
    },
    async pending(limit) {
      return entries
        .filter((e) => e.sentAt === null && t.households.has(e.householdId))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map(({ sentAt: _s, ...e }) => structuredClone(e));
    },
    async markSent(ids, at) {
      for (const e of entries) if (ids.includes(e.id)) e.sentAt = at;
    },
  };
}
