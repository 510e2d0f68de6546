import type { IdempotencyStore, KeptAnswer } from '../../ports/idempotency-store.js';
import type { MemoryTables } from './stores.js';

interface Row {
  login: string;
  request: string;
  fingerprint: string;
  createdAt: Date;
  answer: KeptAnswer | null;
}

export function memoryIdempotencyStore(t: MemoryTables): IdempotencyStore {
  const rows = new Map<string, Row>();
  const id = (login: string, key: string) => `${login}\n${key}`;
  // A login's keys go with it, as the foreign key's cascade does.
  const alive = (login: string) => t.sessions.has(login);
  return {
    async claim(login, key, { request, fingerprint }, { now, since, abandonedBefore }) {
      const row = rows.get(id(login, key));
      const stale = !row || !alive(login) || row.createdAt < since || (row.answer === null && row.createdAt < abandonedBefore);
      if (stale) {
        if (!alive(login)) throw new Error('no such login');
        rows.set(id(login, key), { login, request, fingerprint, createdAt: new Date(now), answer: null });
        return { kind: 'claimed' };
      }
      if (row.request !== request || row.fingerprint !== fingerprint) return { kind: 'other-request' };
      return row.answer ? { kind: 'answered', answer: { ...row.answer } } : { kind: 'in-progress' };
    },
    async keep(login, key, answer) {
      const row = rows.get(id(login, key));
      if (row) row.answer = { ...answer };
    },
    async release(login, key) {
      const row = rows.get(id(login, key));
      if (row && row.answer === null) rows.delete(id(login, key));
    },
    async forgetBefore(before) {
      let n = 0;
      for (const [k, row] of rows) {
        // Gone with its login already, as the cascade would have taken it.
        if (!alive(row.login)) rows.delete(k);
        else if (row.createdAt < before) {
          rows.delete(k);
          n++;
        }
      }
      return n;
    },
  };
}
