import type { AppError } from '../../core/shared/errors.js';

/**
 * An answer that is not a success, rendered as application/problem+json. Only this layer knows status codes
 * and problem codes; core hands it tagged values (AppError) and `problemFor` maps them in one switch.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

export const problems = {
  validation: (detail: string, errors?: { path: string; message: string }[]) =>
    new HttpProblem(400, 'validation_failed', 'The request is not of the documented shape', detail, errors ? { errors } : {}),
  tooLong: (detail: string, errors?: { path: string; message: string }[]) =>
    new HttpProblem(400, 'value_too_long', 'A value is longer than allowed', detail, errors ? { errors } : {}),
  unauthenticated: () => new HttpProblem(401, 'unauthenticated', 'Sign in first', 'no session, or the session is no longer valid'),
  notFound: (detail = 'no such resource') => new HttpProblem(404, 'not_found', 'Not found', detail),
  methodNotAllowed: (allow: string) =>
    new HttpProblem(405, 'method_not_allowed', 'Method not allowed', `this path answers ${allow}`, {}, { Allow: allow }),
  unsupportedMediaType: () =>
    new HttpProblem(415, 'unsupported_media_type', 'Unsupported media type', 'send the body as application/json'),
  tooLarge: (limit: string) => new HttpProblem(413, 'payload_too_large', 'Request body too large', `bodies are limited to ${limit}`),
  crossSite: () =>
    new HttpProblem(403, 'cross_site_request', 'Cross-site request refused', 'a state-changing request with the session cookie came from another site'),
  appVersion: (platform: string, floor: string) =>
    new HttpProblem(426, 'app_version_unsupported', 'Update the app', `${platform} versions below ${floor} are no longer supported`, {}, {}),
  rateLimited: (retryAfterSec: number) =>
    new HttpProblem(429, 'rate_limited', 'Too many requests', `try again in ${retryAfterSec} s`, {}, { 'Retry-After': String(retryAfterSec) }),
  busy: () => new HttpProblem(503, 'store_busy', 'Busy', 'the database is busy; try again shortly', {}, { 'Retry-After': '1' }),
  notReady: (reason: string) => new HttpProblem(503, 'not_ready', 'Not ready', reason),
  internal: () => new HttpProblem(500, 'internal_error', 'Internal error', 'the server failed to answer; the trace id identifies the failure in the logs'),
};

/** The one place where core's expected failures become HTTP answers. */
export function problemFor(error: AppError): HttpProblem {
  switch (error.type) {
    case 'signup-rejected':
      return new HttpProblem(
        400,
        'signup_rejected',
        'Sign-up rejected',
        error.reason === 'email' ? 'the e-mail address is not usable' : 'the password must be at least 8 characters',
      );
    case 'invalid-credentials':
      return new HttpProblem(401, 'invalid_credentials', 'Wrong e-mail or password', 'the e-mail or the password is wrong');
    case 'account-name-length':
      return new HttpProblem(400, 'account_name_length', 'Display name length', 'displayName must be 1 to 80 characters');
    case 'unauthenticated':
      return problems.unauthenticated();
    case 'household-not-found':
      return new HttpProblem(404, 'household_not_found', 'Household not found', 'no household with this id has the caller as a member');
    case 'adults-only':
      return new HttpProblem(403, 'adults_only', 'Adults only', 'only an Owner or Adult of the household may do this');
    case 'time-zone-unknown':
      return new HttpProblem(400, 'time_zone_unknown', 'Unknown time zone', `"${error.timeZoneId}" is not in /api/v1/time-zones`);
    default: {
      const unreachable: never = error;
      throw new Error(`unmapped error ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The problem type URL: `{problem_base}/{code}`; the 426 uses `app-version-unsupported` (extensions.md). */
export function problemType(base: string, code: string): string {
  return `${base}/${code === 'app_version_unsupported' ? 'app-version-unsupported' : code}`;
}
