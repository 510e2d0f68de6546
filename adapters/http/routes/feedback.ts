import * as v from 'valibot';
import { submitFeedback } from '../../../core/feedback/submit-feedback.js';
import { FAILED_CALLS_KEPT, FEEDBACK_MESSAGE_MAX, SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES, type ScreenshotType } from '../../../core/feedback/types.js';
import { mount, resource } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import type { RouteSettings, ServiceDeps } from '../deps.js';

/** The most the whole multipart body may hold: 6 MiB (413 payload_too_large above). */
export const FEEDBACK_BODY_MAX_BYTES = 6 * 1024 * 1024;

/** How many failed calls a report may list (the newest FAILED_CALLS_KEPT are kept): a client need not trim its log. */
const FAILED_CALLS_SENT_MAX = 200;

const maxLength = (n: number) => v.maxLength<string, number, string>(n, `at most ${n} characters`);
const FailedCall = v.object({
  method: v.pipe(v.string(), maxLength(16)),
  path: v.pipe(v.string(), maxLength(2000)),
  status: v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, '0 to 999'), v.maxValue(999, '0 to 999')),
  traceId: v.optional(v.nullable(v.pipe(v.string(), maxLength(64))), null),
  at: IsoDateTime,
});
const FeedbackReport = v.object({
  message: v.pipe(
    v.string(),
    v.minLength(1, 'must not be blank'),
    v.check((s) => s.trim().length > 0, 'must not be blank'),
    maxLength(FEEDBACK_MESSAGE_MAX),
  ),
  screen: v.optional(v.nullable(v.pipe(v.string(), maxLength(200))), null),
  build: v.optional(v.nullable(v.pipe(v.string(), maxLength(100))), null),
  householdId: v.optional(v.nullable(Uuid), null),
  failedCalls: v.optional(v.pipe(v.array(FailedCall), v.maxLength(FAILED_CALLS_SENT_MAX, `at most ${FAILED_CALLS_SENT_MAX} failed calls`)), []),
});
const SubmitFeedbackRequest = v.object({ report: FeedbackReport });
const FeedbackSubmittedResponse = v.object({ id: Uuid, receivedAt: IsoDateTime });

const { handledRoute } = resource<ServiceDeps & { readonly settings: Pick<RouteSettings, 'logger'> }>('?');

const SUBMIT_FEEDBACK_DOC =
  [
  'Any signed-in person; no household needed. The body is multipart/form-data: a `report` field holding JSON',
  `text { message (1 to ${FEEDBACK_MESSAGE_MAX} characters, not blank), screen, build (string or null), householdId`,
  '(uuid or null), failedCalls: [{ method, path, status (0 when no answer came), traceId (string or null), at',
  `(date-time) }], at most ${FAILED_CALLS_SENT_MAX} } and an optional \`screenshot\` file part. Only the newest ${FAILED_CALLS_KEPT} failed calls (by at)`,
  `are kept. The screenshot's bytes must be PNG, JPEG or WebP, whatever its declared type, and at most`,
  `${SCREENSHOT_MAX_BYTES} bytes (5 MiB), else 400 (validation_failed for the kind, value_too_long for the size).`,
  `The whole body may be ${FEEDBACK_BODY_MAX_BYTES} bytes (6 MiB), else 413 payload_too_large. A missing report,`,
  'one that is not JSON or not of this shape answers 400. The NUL rule covers the report, not the screenshot.',
  'householdId is recorded only when the caller belongs to that household; any other id is stored as null',
  'without an error. The report and its screenshot are deleted with the account. Every address of',
  'ADMIN_EMAILS gets an alert mail, best effort: a failed alert never fails the report.',
      ].join(' ');

const submitFeedbackRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/feedback',
  operationId: 'submitFeedback',
  summary: 'Send feedback, optionally with a screenshot',
  description: SUBMIT_FEEDBACK_DOC,
  tag: 'Feedback',
  multipart: {
    fields: SubmitFeedbackRequest,
    jsonFields: ['report'],
    files: { screenshot: { description: 'A screenshot of the app.', maxBytes: SCREENSHOT_MAX_BYTES, mediaTypes: SCREENSHOT_TYPES } },
    maxTotalBytes: FEEDBACK_BODY_MAX_BYTES,
  },
  responses: { 200: { description: 'Received', schema: FeedbackSubmittedResponse } },
  handle: async (ctx, { deps, caller, body, files }) => {
    const shot = files['screenshot'];
    const { report } = body;
    const { report: stored, alertFailures } = await submitFeedback(deps, caller.account, {
      message: report.message,
      screen: report.screen,
      build: report.build,
      householdId: report.householdId,
      failedCalls: report.failedCalls.map((c) => ({ ...c, at: new Date(c.at) })),
      // readMultipart let only SCREENSHOT_TYPES through, judged by the bytes.
      screenshot: shot ? { mediaType: shot.mediaType as ScreenshotType, bytes: shot.bytes } : null,
    });
    for (const f of alertFailures) deps.settings.logger.warn('feedback alert not handed to the mailer', { reportId: stored.id, to: f.to, err: f.error });
    ctx.body = { id: stored.id, receivedAt: stored.receivedAt.toISOString() };
  },
});

export const feedbackRoutes = (deps: ServiceDeps, settings: Pick<RouteSettings, 'logger'>) =>
  mount({ ...deps, settings }, [
    submitFeedbackRoute,
  ]);

