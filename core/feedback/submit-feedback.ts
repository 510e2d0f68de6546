import type { Clock } from '../../ports/clock.js';
import type { FeedbackStore } from '../../ports/feedback-store.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Mailer } from '../../ports/mailer.js';
import type { Account } from '../accounts/types.js';
import type { HouseholdId } from '../kernel/ids.js';
import { feedbackAlert } from './alert-mail.js';
import { FAILED_CALLS_KEPT, type FailedCall, type FeedbackReport, type Screenshot } from './types.js';

export interface FeedbackDeps {
  feedback: FeedbackStore;
  households: HouseholdStore;
  mailer: Mailer;
  ids: IdGenerator;
  clock: Clock;
  /** Who is alerted about every report (config ADMIN_EMAILS). */
  platformAdmins: ReadonlySet<string>;
}

export interface FeedbackInput {
  message: string;
  screen: string | null;
  build: string | null;
  householdId: HouseholdId | null;
  failedCalls: readonly FailedCall[];
  screenshot: Screenshot | null;
}

export interface SubmittedFeedback {
  readonly report: FeedbackReport;
  /** Alerts that could not be handed to the mailer; the report stands regardless (the caller logs them). */
  readonly alertFailures: readonly { to: string; error: unknown }[];
}

/**
 * Stores a report and alerts the owners. The household is recorded only when the reporter belongs to it (any
 * other id is dropped, without telling the reporter anything about that household). Only the newest failed
 * calls are kept. The alert is best effort: a mailer failure never fails the report.
 */
export async function submitFeedback(deps: FeedbackDeps, caller: Account, input: FeedbackInput): Promise<SubmittedFeedback> {
  const member = input.householdId === null ? null : await deps.households.memberByAccount(input.householdId, caller.id);
  const report: FeedbackReport = {
    id: deps.ids.newId(),
    accountId: caller.id,
    householdId: member ? input.householdId : null,
    message: input.message,
    screen: input.screen,
    build: input.build,
    failedCalls: [...input.failedCalls].sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, FAILED_CALLS_KEPT),
    screenshot: input.screenshot,
    receivedAt: deps.clock.now(),
  };
  await deps.feedback.add(report);
  const alertFailures: { to: string; error: unknown }[] = [];
  await Promise.all(
    [...deps.platformAdmins].map(async (to) => {
      try {
        await deps.mailer.send(feedbackAlert(to, caller, report));
      } catch (error) {
        alertFailures.push({ to, error });
      }
    }),
  );
  return { report, alertFailures };
}
