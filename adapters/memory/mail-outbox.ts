import type { MailOutbox, OutboxMail } from '../../ports/mail-outbox.js';
import { claimRows, settledProgress } from './send-progress.js';

type Row = OutboxMail & { claimId: string | null; claimedUntil: Date | null };

const copy = ({ claimId: _c, claimedUntil: _u, ...m }: Row): OutboxMail => structuredClone(m);

/** The mail outbox in memory (domain tests): each call is whole before another starts, as one statement is. */
export function memoryMailOutbox(): MailOutbox {
  const rows = new Map<string, Row>();
  const held = (id: string, claimId: string) => {
    const r = rows.get(id);
    return r && r.claimId === claimId && r.state === 'pending' ? r : null;
  };
  return {
    async enqueue(m) {
      if (rows.has(m.id)) throw new Error(`mail_outbox: id ${m.id} exists`);
      rows.set(m.id, { ...structuredClone(m), state: 'pending', attempts: 0, nextAttemptAt: m.createdAt, lastError: null, finishedAt: null, claimId: null, claimedUntil: null });
    },
    async claimDue(claim) {
      return claimRows([...rows.values()], claim).map(copy);
    },
    async renew(id, claimId, until) {
      const r = held(id, claimId);
      if (r) r.claimedUntil = until;
      return r !== null;
    },
    async settle(id, claimId, s) {
      const r = held(id, claimId);
      if (!r) return false;
      // A final mail's bodies go: they may carry single-use links.
      Object.assign(r, settledProgress(s), s.state === 'pending' ? {} : { text: '', html: '' });
      return true;
    },
    async release(claimId) {
      let n = 0;
      for (const r of rows.values()) {
        if (r.claimId === claimId && r.state === 'pending') {
          Object.assign(r, { claimId: null, claimedUntil: null });
          n++;
        }
      }
      return n;
    },
    async dropPendingTo(to, at, reason) {
      let n = 0;
      for (const r of rows.values()) {
        if (r.state === 'pending' && r.to.toLowerCase() === to.toLowerCase()) {
          Object.assign(r, { state: 'dropped', finishedAt: at, lastError: reason, claimId: null, claimedUntil: null, text: '', html: '' });
          n++;
        }
      }
      return n;
    },
    async byId(id) {
      const r = rows.get(id);
      return r ? copy(r) : null;
    },
    async purge(before) {
      let n = 0;
      for (const [id, r] of rows) {
        if (r.state !== 'pending' && r.finishedAt !== null && r.finishedAt < before) {
          rows.delete(id);
          n++;
        }
      }
      return n;
    },
  };
}
