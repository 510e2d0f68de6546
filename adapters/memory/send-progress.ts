import type { OutboxClaim, SendProgress, Settlement } from '../../ports/outbox-claims.js';

/** A memory row sent with retries under claims (push deliveries, mails). */
type ClaimedRow = SendProgress & { readonly id: string; readonly createdAt: Date; claimId: string | null; claimedUntil: Date | null };

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Claims the pending rows due at `now` that no live claim holds, oldest due first (then oldest, then by id), up to the limit. */
export function claimRows<R extends ClaimedRow>(rows: readonly R[], { claimId, now, until, limit }: OutboxClaim): R[] {
  const claimed = rows
    .filter((r) => r.state === 'pending' && r.nextAttemptAt.getTime() <= now.getTime() && (r.claimedUntil === null || r.claimedUntil.getTime() <= now.getTime()))
    .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime() || byText(a.id, b.id))
    .slice(0, limit);
  for (const r of claimed) {
    r.claimId = claimId;
    r.claimedUntil = until;
  }
  return claimed;
}

/** What a settlement changes of a row: its progress, its claim released. */
export function settledProgress(s: Settlement): Partial<SendProgress> & { claimId: null; claimedUntil: null } {
  const common = { attempts: s.attempts, claimId: null, claimedUntil: null };
  return s.state === 'pending'
    ? { ...common, nextAttemptAt: s.nextAttemptAt, lastError: s.error }
    : { ...common, state: s.state, finishedAt: s.at, lastError: s.state === 'sent' ? null : s.error };
}
