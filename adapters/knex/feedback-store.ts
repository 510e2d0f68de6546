import type { Knex } from 'knex';
import type { FailedCall, FeedbackReport, ScreenshotType } from '../../core/feedback/types.js';
import type { FeedbackStore } from '../../ports/feedback-store.js';
import { translated } from './errors.js';
import { fromJsonText, iso, toDate, toJsonText } from './rows.js';

interface FeedbackRow {
  id: string;
  account_id: string;
  household_id: string | null;
  message: string;
  screen: string | null;
  build: string | null;
  failed_calls: string;
  screenshot_type: string | null;
  screenshot: Buffer | null;
  received_at: Date | string;
}

type StoredCall = Omit<FailedCall, 'at'> & { at: string };

const toReport = (r: FeedbackRow): FeedbackReport => ({
  id: r.id,
  accountId: r.account_id,
  householdId: r.household_id,
  message: r.message,
  screen: r.screen,
  build: r.build,
  failedCalls: fromJsonText<StoredCall[]>(r.failed_calls).map((c) => ({ ...c, at: toDate(c.at) })),
  screenshot: r.screenshot_type !== null && r.screenshot !== null ? { mediaType: r.screenshot_type as ScreenshotType, bytes: Buffer.from(r.screenshot) } : null,
  receivedAt: toDate(r.received_at),
});

export function knexFeedbackStore(knex: Knex): FeedbackStore {
  return translated<FeedbackStore>(knex, {
    async add(report) {
      const calls: StoredCall[] = report.failedCalls.map((c) => ({ method: c.method, path: c.path, status: c.status, traceId: c.traceId, at: iso(c.at) }));
      await knex('feedback_reports').insert({
        id: report.id,
        account_id: report.accountId,
        household_id: report.householdId,
        message: report.message,
        screen: report.screen,
        build: report.build,
        failed_calls: toJsonText(calls),
        screenshot_type: report.screenshot?.mediaType ?? null,
        screenshot: report.screenshot ? Buffer.from(report.screenshot.bytes) : null,
        received_at: iso(report.receivedAt),
      });
    },
    async byId(id) {
      const row = await knex<FeedbackRow>('feedback_reports').where({ id }).first();
      return row ? toReport(row as FeedbackRow) : null;
    },
  });
}
