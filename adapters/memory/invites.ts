import type { Member } from '../../core/households/types.js';
import type { Invite, InviteStore } from '../../ports/invite-store.js';
import type { OutboxEntry, PushOutbox } from '../../ports/push-outbox.js';
import { bumpRevision, memberOf, type MemoryTables } from './stores.js';

/**
 * The invite store writes a join's push through the memory outbox's synchronous insert, so that the code's use,
 * the member row and the push happen with no await between them: atomic in this process.
 */
const newestFirst = (a: Invite, b: Invite) => b.createdAt.getTime() - a.createdAt.getTime() || a.code.localeCompare(b.code);

export function memoryInviteStore(t: MemoryTables, outbox: MemoryPushOutbox): InviteStore {
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
        .sort(newestFirst)
        .map(view);
    },
    async listSince(householdId, since) {
      const after = (d: Date | null) => d !== null && d.getTime() > since.getTime();
      return [...invites.values()]
        .filter((i) => i.householdId === householdId && alive(i) && (i.usedAt === null ? after(i.expiresAt) : after(i.usedAt)))
        .sort(newestFirst)
        .map(view);
    },
    async delete(householdId, code) {
      const i = invites.get(code);
      if (!i || i.householdId !== householdId) return false;
      return invites.delete(code);
    },
    async accept(use) {
      const i = invites.get(use.code);
      if (!i || !alive(i)) return 'code-used';
      if ([...t.members.values()].some((m) => m.householdId === i.householdId && m.accountId === use.accountId)) return 'member-already';
      if (i.usedAt !== null) return 'code-used';
      const person = i.memberId === null ? undefined : t.members.get(i.memberId);
      const member: Member =
        person && person.householdId === i.householdId && person.accountId === null
          ? { ...person, accountId: use.accountId, role: i.role }
          : memberOf(i.householdId, use.newMember);
      // The push first: one the outbox refuses (an id taken) leaves everything as it was.
      outbox.insert(use.joined(structuredClone(member)));
      invites.set(use.code, { ...i, usedAt: use.at, usedBy: use.accountId });
      t.members.set(member.id, member);
      bumpRevision(t, i.householdId);
      return structuredClone(member);
    },
    async unlinkMember(householdId, memberId) {
      for (const [code, i] of invites) if (i.householdId === householdId && i.memberId === memberId) invites.set(code, { ...i, memberId: null });
    },
  };
}

/** The memory outbox, with what the other memory stores of this process write and take synchronously. */
export interface MemoryPushOutbox extends PushOutbox {
  /** Records an entry at once; throws, recording nothing, when its id is taken (as the primary key does). */
  insert(entry: OutboxEntry): void;
  /** Marks the entries handed over, only if every one is still pending and its household alive; false: none marked. */
  handOver(ids: readonly string[], at: Date): boolean;
  /** Forgets entries handed over before `before`; answers how many. */
  purgeHandedOver(before: Date): number;
}

export function memoryPushOutbox(t: MemoryTables): MemoryPushOutbox {
  const entries = new Map<string, OutboxEntry & { sentAt: Date | null }>();
  const insert = (e: OutboxEntry) => {
    if (entries.has(e.id)) throw new Error(`push_outbox: id ${e.id} exists`);
    entries.set(e.id, { ...structuredClone(e), sentAt: null });
  };
  const live = () => [...entries.values()].filter((e) => t.households.has(e.householdId));
  return {
    insert,
    async record(e) {
      insert(e);
    },
    async pending(limit) {
      return live()
        .filter((e) => e.sentAt === null)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map(({ sentAt: _s, ...e }) => structuredClone(e));
    },
    async markSent(ids, at) {
      for (const id of ids) {
        const e = entries.get(id);
        if (e) e.sentAt = at;
      }
    },
    handOver(ids, at) {
      const taken = ids.map((id) => entries.get(id));
      if (taken.some((e) => !e || e.sentAt !== null || !t.households.has(e.householdId))) return false;
      for (const e of taken) e!.sentAt = at;
      return true;
    },
    purgeHandedOver(before) {
      let n = 0;
      for (const [id, e] of entries) {
        if (e.sentAt !== null && e.sentAt.getTime() < before.getTime()) {
          entries.delete(id);
          n++;
        }
      }
      return n;
    },
  };
}
