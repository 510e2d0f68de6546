import type { SendProgress, SendState, Settlement } from '../../ports/outbox-claims.js';
import { iso, toDate } from './rows.js';

/** The columns of a row sent with retries under claims (push_deliveries, mail_outbox). */
export interface SendColumns {
  state: string;
  attempts: number | string;
  next_attempt_at: Date | string;
  claim_id: string | null;
  claimed_until: Date | string | null;
  last_error: string | null;
  finished_at: Date | string | null;
}

export const sendProgressOf = (r: SendColumns): SendProgress => ({
  state: r.state as SendState,
  attempts: Number(r.attempts),
  nextAttemptAt: toDate(r.next_attempt_at),
  lastError: r.last_error,
  finishedAt: r.finished_at === null ? null : toDate(r.finished_at),
});

/** A new row's columns: pending, due at `at`, unclaimed. */
export const dueAt = (at: Date): SendColumns => ({ state: 'pending', attempts: 0, next_attempt_at: iso(at), claim_id: null, claimed_until: null, last_error: null, finished_at: null });

/** The update that records a settlement and releases the claim. */
export const settlementColumns = (s: Settlement): Partial<SendColumns> => {
  const common = { attempts: s.attempts, claim_id: null, claimed_until: null };
  return s.state === 'pending'
    ? { ...common, state: 'pending', next_attempt_at: iso(s.nextAttemptAt), last_error: s.error }
    : { ...common, state: s.state, finished_at: iso(s.at), last_error: s.state === 'sent' ? null : s.error };
};
