import type { IdentityStore, LinkedIdentity, SignInCode, SignInCodeStore, SignInFlow, SignInFlowStore } from '../../ports/identity-store.js';
import { accountRows, type MemoryTables } from './stores.js';

// Copies in and out, as a database would: a caller mutating an answer never changes the stored row.
const copy = <T>(v: T): T => structuredClone(v);
const keyOf = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);

/** Linked identities next to the accounts of `t`; they go with their account, as the foreign key's cascade does. */
export function memoryIdentityStore(t: MemoryTables): IdentityStore {
  const rows = accountRows<LinkedIdentity>(t);
  return {
    async link(i) {
      const k = keyOf(i.issuer, i.subject);
      if (rows.has(k)) return 'taken';
      // The foreign key of the database: an identity links to an account that exists.
      if (!t.accounts.has(i.accountId)) throw new Error(`no account ${i.accountId} to link an identity to`);
      rows.set(k, copy(i));
      return 'linked';
    },
    async find(issuer, subject) {
      const i = rows.get(keyOf(issuer, subject));
      return i ? copy(i) : null;
    },
    async identitiesOf(accountId) {
      return [...rows.values()]
        .filter((i) => i.accountId === accountId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.issuer.localeCompare(b.issuer) || a.subject.localeCompare(b.subject))
        .map(copy);
    },
    async unlink(accountId, issuer, subject, keepOne) {
      const k = keyOf(issuer, subject);
      if (rows.get(k)?.accountId !== accountId) return 'none';
      if (keepOne && [...rows.values()].filter((i) => i.accountId === accountId).length === 1) return 'last';
      rows.delete(k);
      return 'unlinked';
    },
  };
}

/** The delete-returning of the database stores; in one process a synchronous get-and-delete is already atomic. */
function takeFrom<T>(rows: Map<string, T>, key: string): T | null {
  const row = rows.get(key);
  if (row === undefined) return null;
  rows.delete(key);
  return copy(row);
}

function deleteExpiredFrom<T extends { expiresAt: Date }>(rows: Map<string, T>, now: Date): number {
  let n = 0;
  for (const [k, r] of rows) {
    if (r.expiresAt.getTime() < now.getTime()) {
      rows.delete(k);
      n++;
    }
  }
  return n;
}

export function memorySignInFlowStore(): SignInFlowStore {
  const rows = new Map<string, SignInFlow>();
  return {
    async save(f) {
      if (rows.has(f.stateHash)) throw new Error('a sign-in flow with this state exists already');
      rows.set(f.stateHash, copy(f));
    },
    async take(stateHash) {
      return takeFrom(rows, stateHash);
    },
    async deleteExpired(now) {
      return deleteExpiredFrom(rows, now);
    },
  };
}

export function memorySignInCodeStore(t: MemoryTables): SignInCodeStore {
  const rows = accountRows<SignInCode>(t);
  return {
    async save(c) {
      if (rows.has(c.codeHash)) throw new Error('a sign-in code with this hash exists already');
      if (!t.accounts.has(c.accountId)) throw new Error(`no account ${c.accountId} to issue a sign-in code for`);
      rows.set(c.codeHash, copy(c));
    },
    async take(codeHash) {
      return takeFrom(rows, codeHash);
    },
    async deleteExpired(now) {
      return deleteExpiredFrom(rows, now);
    },
  };
}
