import type { FeedbackReport } from '../core/feedback/types.js';

/** Feedback reports with their screenshots; a report goes when its account is deleted. */
export interface FeedbackStore {
  add(report: FeedbackReport): Promise<void>;
  byId(id: string): Promise<FeedbackReport | null>;
}
