import type { FeedbackReport } from '../../core/feedback/types.js';
import type { FeedbackStore } from '../../ports/feedback-store.js';
import { accountRows, type MemoryTables } from './stores.js';

/** Reports go with their account, like the SQL cascade; a deleted household is forgotten on read (SET NULL). */
export function memoryFeedbackStore(t: MemoryTables): FeedbackStore {
  const reports = accountRows<FeedbackReport>(t);
  // Copies, as a database hands out: Buffers for the bytes, fresh Dates.
  const copy = (r: FeedbackReport): FeedbackReport => ({
    ...r,
    failedCalls: r.failedCalls.map((c) => ({ ...c, at: new Date(c.at.getTime()) })),
    screenshot: r.screenshot ? { mediaType: r.screenshot.mediaType, bytes: Buffer.from(r.screenshot.bytes) } : null,
    receivedAt: new Date(r.receivedAt.getTime()),
  });
  return {
    async add(report) {
      reports.set(report.id, copy(report));
    },
    async byId(id) {
      const r = reports.get(id);
      if (!r) return null;
      return copy({ ...r, householdId: r.householdId !== null && t.households.has(r.householdId) ? r.householdId : null });
    },
  };
}
