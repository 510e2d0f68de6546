import type { RecipeImage } from '../../ports/recipe-image.js';
import type { HouseholdRevisions } from '../../ports/household-revisions.js';
import type { HouseholdChange } from '../../ports/household-changes.js';
import type { Account, Session } from '../../core/accounts/types.js';
import { LEFTOVERS_KEEP_DAYS_DEFAULT, type HouseholdWithMembers, type Member, type Household } from '../../core/households/types.js';
import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { HouseholdStore, NewMember } from '../../ports/household-store.js';

/** In-memory stores sharing one set of tables, for fast domain tests and the in-memory composition root. */
export interface MemoryTables {
  accounts: Map<string, Account>;
  sessions: Map<string, Session>;
  households: Map<string, Household>;
  members: Map<string, Member>;
  /** What other memory stores drop when an account goes (the foreign-key cascades of the database). */
  onAccountDeleted: ((accountId: string) => void)[];
  /** What other memory stores do when a recipe goes (plan days lose the dish, as ON DELETE SET NULL does). */
  onRecipeDeleted: ((householdId: string, recipeId: string) => void)[];
  /** Each household's revision of its list inputs (ports/household-revisions.ts): what the database's triggers keep. */
  revisions: Map<string, number>;
  /** recipe id → its household, kept by the recipe store: what the image store's foreign key checks. */
  recipeHouseholds: Map<string, string>;
  /** recipe id → its kept picture (the recipe_images table). */
  recipeImages: Map<string, { householdId: string; image: RecipeImage }>;
  /** Each household's count of list writes (what migration 0028's trigger tells of), for its live state. */
  listWrites: Map<string, number>;
  /** Who hears of changes (adapters/memory/household-changes.ts), as the database's commits would tell them. */
  watchers: Set<(change: HouseholdChange) => void>;
}

/** Tells the watchers of a change once the write under way has ended, as a commit would. */
export function tell(t: MemoryTables, change: HouseholdChange): void {
  if (t.watchers.size === 0) return;
  queueMicrotask(() => {
    for (const w of t.watchers) w(change);
  });
}

/** Moves a household's revision: every memory store calls it where a database trigger of migration 0016 would fire. */
export function bumpRevision(t: MemoryTables, householdId: string): void {
  const r = t.revisions.get(householdId);
  if (r !== undefined) t.revisions.set(householdId, r + 1);
  // Members are among the inputs: who may see the household may have changed too.
  tell(t, { kind: 'household', householdId });
  tell(t, { kind: 'access' });
}

export function memoryHouseholdRevisions(t: MemoryTables): HouseholdRevisions {
  return {
    async of(householdId) {
      const r = t.revisions.get(householdId);
      return r === undefined ? null : String(r);
    },
  };
}

/** A table of rows that each belong to an account and go with it, as the foreign key's cascade does. */
export function accountRows<T extends { readonly accountId: string }>(t: MemoryTables): Map<string, T> {
  const rows = new Map<string, T>();
  t.onAccountDeleted.push((accountId) => {
    for (const [k, r] of rows) if (r.accountId === accountId) rows.delete(k);
  });
  return rows;
}

export const emptyTables = (): MemoryTables => ({
  accounts: new Map(),
  sessions: new Map(),
  households: new Map(),
  members: new Map(),
  onAccountDeleted: [],
  onRecipeDeleted: [],
  revisions: new Map(),
  recipeHouseholds: new Map(),
  recipeImages: new Map(),
  listWrites: new Map(),
  watchers: new Set(),
});

const lower = (s: string | null) => (s === null ? null : s.toLowerCase());
// Stores hand out copies, as a database would: a caller mutating an answer never changes the stored row.
const copy = <T>(v: T): T => structuredClone(v);

export function memoryAccountStore(t: MemoryTables): AccountStore {
  return {
    async create(a) {
      const email = lower(a.email);
      if (email !== null && [...t.accounts.values()].some((x) => lower(x.email) === email)) return 'email-taken';
      const account: Account = { ...a, updatedAt: a.createdAt };
      t.accounts.set(a.id, account);
      return copy(account);
    },
    async byId(id) {
      const a = t.accounts.get(id);
      return a ? copy(a) : null;
    },
    async byEmail(email) {
      const e = email.toLowerCase();
      const a = [...t.accounts.values()].find((x) => lower(x.email) === e);
      return a ? copy(a) : null;
    },
    async setDisplayName(id, displayName, at) {
      const a = t.accounts.get(id);
      if (!a) return null;
      const next = { ...a, displayName, updatedAt: at };
      t.accounts.set(id, next);
      return copy(next);
    },
    async setSecurityStamp(id, securityStamp, at) {
      tell(t, { kind: 'access' });
      const a = t.accounts.get(id);
      if (a) t.accounts.set(id, { ...a, securityStamp, updatedAt: at });
    },
    async markEmailConfirmed(id, at) {
      const a = t.accounts.get(id);
      if (a) t.accounts.set(id, { ...a, emailConfirmed: true, updatedAt: at });
    },
    async setPassword(id, passwordHash, securityStamp, at) {
      tell(t, { kind: 'access' });
      const a = t.accounts.get(id);
      if (a) t.accounts.set(id, { ...a, passwordHash, securityStamp: securityStamp ?? a.securityStamp, updatedAt: at });
    },
    async setEmail(id, email, securityStamp, at) {
      tell(t, { kind: 'access' });
      const a = t.accounts.get(id);
      if (!a) return null;
      const e = email.toLowerCase();
      if ([...t.accounts.values()].some((x) => x.id !== id && lower(x.email) === e)) return 'email-taken';
      const next = { ...a, email, emailConfirmed: true, securityStamp, updatedAt: at };
      t.accounts.set(id, next);
      return copy(next);
    },
    async delete(id) {
      tell(t, { kind: 'access' });
      t.accounts.delete(id);
      for (const [k, s] of t.sessions) if (s.accountId === id) t.sessions.delete(k);
      for (const [k, m] of t.members) {
        if (m.accountId !== id) continue;
        t.members.set(k, { ...m, accountId: null });
        bumpRevision(t, m.householdId);
      }
      for (const hook of t.onAccountDeleted) hook(id);
    },
  };
}

export function memorySessionStore(t: MemoryTables): SessionStore {
  return {
    async create(s) {
      if (!t.accounts.has(s.accountId)) return false;
      t.sessions.set(s.tokenHash, copy(s));
      return true;
    },
    async lookup(tokenHash) {
      const session = t.sessions.get(tokenHash);
      const account = session && t.accounts.get(session.accountId);
      return session && account ? { session: copy(session), account: copy(account) } : null;
    },
    async extend(tokenHash, expiresAt) {
      const s = t.sessions.get(tokenHash);
      if (s) t.sessions.set(tokenHash, { ...s, expiresAt });
    },
    async setSecurityStamp(tokenHash, securityStamp) {
      tell(t, { kind: 'access' });
      const s = t.sessions.get(tokenHash);
      if (s) t.sessions.set(tokenHash, { ...s, securityStamp });
    },
    async delete(tokenHash) {
      tell(t, { kind: 'access' });
      t.sessions.delete(tokenHash);
    },
    async deleteExpired(now) {
      tell(t, { kind: 'access' });
      let n = 0;
      for (const [k, s] of t.sessions) {
        if (s.expiresAt.getTime() < now.getTime()) {
          t.sessions.delete(k);
          n++;
        }
      }
      return n;
    },
  };
}

/** The row of a member added to a household: Adult unless an age group is given (as the SQL column's default). */
export const memberOf = (householdId: string, m: NewMember): Member => ({ ...m, ageGroup: m.ageGroup ?? 'Adult', householdId });

export function memoryHouseholdStore(t: MemoryTables): HouseholdStore {
  const membersOf = (householdId: string) =>
    [...t.members.values()]
      .filter((m) => m.householdId === householdId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const withMembers = (h: Household): HouseholdWithMembers => copy({ ...h, members: membersOf(h.id) });
  return {
    async create(h, first) {
      const household: Household = { ...h, chains: [...h.chains], sharingOff: h.sharingOff ?? false, priceCatalogueOn: h.priceCatalogueOn ?? true, dislikes: [...(h.dislikes ?? [])], libraryRecipesOn: h.libraryRecipesOn ?? false, leftoversKeepDays: h.leftoversKeepDays ?? LEFTOVERS_KEEP_DAYS_DEFAULT, updatedAt: h.createdAt };
      t.households.set(h.id, household);
      t.members.set(first.id, memberOf(h.id, first));
      t.revisions.set(h.id, 0);
      tell(t, { kind: 'access' });
      return withMembers(household);
    },
    async byId(householdId) {
      const h = t.households.get(householdId);
      return h ? withMembers(h) : null;
    },
    async memberByAccount(householdId, accountId) {
      const m = membersOf(householdId).find((x) => x.accountId === accountId);
      return m ? copy(m) : null;
    },
    async memberById(householdId, memberId) {
      const m = t.members.get(memberId);
      return m && m.householdId === householdId ? copy(m) : null;
    },
    async updateMember(householdId, memberId, changes) {
      const m = t.members.get(memberId);
      if (!m || m.householdId !== householdId) return null;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const next: Member = { ...m, ...defined };
      t.members.set(memberId, next);
      bumpRevision(t, householdId);
      return copy(next);
    },
    async claimMember(householdId, memberId, accountId, role) {
      const m = t.members.get(memberId);
      if (!m || m.householdId !== householdId || m.accountId !== null) return null;
      if ([...t.members.values()].some((x) => x.householdId === householdId && x.accountId === accountId)) return null;
      const next = { ...m, accountId, role };
      t.members.set(memberId, next);
      bumpRevision(t, householdId);
      return copy(next);
    },
    async addMember(householdId, member) {
      const m = memberOf(householdId, member);
      t.members.set(m.id, m);
      bumpRevision(t, householdId);
      return copy(m);
    },
    async update(householdId, changes, at) {
      const h = t.households.get(householdId);
      if (!h) return null;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const next: Household = { ...h, ...defined, updatedAt: at };
      t.households.set(householdId, next);
      bumpRevision(t, householdId);
      return withMembers(next);
    },
    async page(after, limit) {
      return [...t.households.values()]
        .filter((h) => after === null || h.createdAt > after.createdAt || (h.createdAt.getTime() === after.createdAt.getTime() && h.id > after.id))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit)
        .map(withMembers);
    },
    async delete(householdId) {
      tell(t, { kind: 'household', householdId });
      tell(t, { kind: 'access' });
      t.households.delete(householdId);
      t.revisions.delete(householdId);
      for (const [k, m] of t.members) if (m.householdId === householdId) t.members.delete(k);
    },
    async removeMember(householdId, memberId) {
      const m = t.members.get(memberId);
      if (!m || m.householdId !== householdId) return false;
      t.members.delete(memberId);
      bumpRevision(t, householdId);
      return true;
    },
    async membershipsOf(accountId) {
      return [...t.members.values()]
        .filter((m) => m.accountId === accountId && t.households.has(m.householdId))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.householdId.localeCompare(b.householdId))
        .map((m) => ({
          householdId: m.householdId,
          householdName: t.households.get(m.householdId)!.name,
          role: m.role,
          memberId: m.id,
        }));
    },
  };
}
