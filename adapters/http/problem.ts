import type { RecipePageFailure } from '../../ports/recipe-page-reader.js';
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
  /** A NUL character anywhere in a request: path, query, header or body. */
  nul: () => new HttpProblem(400, 'validation_failed', 'The request is not of the documented shape', 'a NUL character is not allowed anywhere in a request'),
  tooLong: (detail: string, errors?: { path: string; message: string }[]) =>
    new HttpProblem(400, 'value_too_long', 'A value is longer than allowed', detail, errors ? { errors } : {}),
  /** Text the service reads (a body, the request line, a header) that is not well-formed UTF-8. */
  notUtf8: (where: 'body' | 'url' | 'header', name?: string) =>
    new HttpProblem(
      400,
      `${where}_not_utf8`,
      where === 'body' ? 'The body is not UTF-8 text' : where === 'url' ? 'The address is not UTF-8 text' : 'A header is not UTF-8 text',
      where === 'body'
        ? 'the body holds bytes that are not well-formed UTF-8; send text encoded as UTF-8'
        : where === 'url'
          ? 'the path or query holds bytes (raw or percent-encoded) that are not well-formed UTF-8; encode text as UTF-8 before percent-encoding it'
          : `the ${name ?? ''} header holds bytes that are not well-formed UTF-8`.replace('the  header', 'a header'),
    ),
  unauthenticated: () => new HttpProblem(401, 'unauthenticated', 'Sign in first', 'no session, or the session is no longer valid'),
  notFound: (detail = 'no such resource') => new HttpProblem(404, 'not_found', 'Not found', detail),
  methodNotAllowed: (allow: string) =>
    new HttpProblem(405, 'method_not_allowed', 'Method not allowed', `this path answers ${allow}`, {}, { Allow: allow }),
  unsupportedMediaType: () =>
    new HttpProblem(415, 'unsupported_media_type', 'Unsupported media type', 'send the body as application/json'),
  /** The body did not all arrive in time; the connection is closed after the answer (its rest is not read). */
  requestTimeout: (seconds: number) =>
    new HttpProblem(408, 'request_timeout', 'The body came too slowly', `the request's body did not arrive within ${seconds} s`, {}, { Connection: 'close' }),
  tooLarge: (limit: string) => new HttpProblem(413, 'payload_too_large', 'Request body too large', `bodies are limited to ${limit}`),
  crossSite: () =>
    new HttpProblem(403, 'cross_site_request', 'Cross-site request refused', 'a state-changing request with the session cookie came from another site'),
  appVersion: (platform: string, floor: string) =>
    new HttpProblem(426, 'app_version_unsupported', 'Update the app', `${platform} versions below ${floor} are no longer supported`, {}, {}),
  rateLimited: (retryAfterSec: number) =>
    new HttpProblem(429, 'rate_limited', 'Too many requests', `try again in ${retryAfterSec} s`, {}, { 'Retry-After': String(retryAfterSec) }),
  busy: () => new HttpProblem(503, 'store_busy', 'Busy', 'the database is busy; try again shortly', {}, { 'Retry-After': '1' }),
  storeUnavailable: () =>
    new HttpProblem(503, 'store_unavailable', 'Database unavailable', 'the database cannot be reached right now; try again shortly', {}, { 'Retry-After': '5' }),
  idempotencyInProgress: () =>
    new HttpProblem(409, 'idempotency_key_in_progress', 'Still being answered', 'a request with this Idempotency-Key is being answered right now; try again shortly', {}, { 'Retry-After': '1' }),
  idempotencyReused: () =>
    new HttpProblem(422, 'idempotency_key_reused', 'Idempotency-Key used for another request', 'this Idempotency-Key was first used for another request (another route or another body); send a new key'),
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
    case 'account-locked':
      return new HttpProblem(423, 'account_locked', 'Account locked', 'too many wrong passwords; try again in a few minutes or reset the password');
    case 'wrong-current-password':
      return new HttpProblem(400, 'wrong_current_password', 'Wrong current password', 'currentPassword is missing or wrong');
    case 'password-rejected':
      return new HttpProblem(400, 'password_rejected', 'Password rejected', 'the password must be 8 to 256 characters');
    case 'password-pwned':
      return new HttpProblem(400, 'password_pwned', 'Password seen in a breach', 'this password appears in lists of breached passwords; choose another');
    case 'email-not-an-address':
      return new HttpProblem(400, 'email_not_an_address', 'Not an e-mail address', 'newEmail is not an e-mail address');
    case 'invalid-token':
      return new HttpProblem(400, 'invalid_token', 'Invalid link', 'the link has expired, was used already, or its address is taken');
    case 'resend-cooldown':
      return new HttpProblem(429, 'resend_cooldown', 'Wait before resending', `a confirmation mail went out less than five minutes ago`, {}, { 'Retry-After': String(error.retryAfterSec) });
    case 'owner-required':
      return new HttpProblem(400, 'owner_required', 'A household needs its owner', 'the caller owns a household others still use; hand it over or remove them first');
    case 'app-signin-incomplete':
      return new HttpProblem(400, 'app_signin_incomplete', 'App sign-in incomplete', 'the app flow needs both codeChallenge and an allowed redirectUri');
    case 'unknown-login-provider':
      return new HttpProblem(404, 'unknown_login_provider', 'Unknown sign-in provider', 'no sign-in provider of that name is configured');
    case 'signin-code-spent':
      return new HttpProblem(401, 'signin_code_spent', 'Sign-in code spent', 'the code expired, was used, or the verifier does not match');
    case 'idp-signin-rejected':
      return new HttpProblem(401, 'idp_signin_rejected', 'Sign-in rejected', 'the identity provider did not vouch for the token');
    case 'idp-signin-unavailable':
      return new HttpProblem(404, 'idp_signin_unavailable', 'Native sign-in unavailable', 'native sign-in is not configured on this server');
    case 'account-not-created':
      return new HttpProblem(500, 'account_not_created', 'Account not created', 'the account could not be created');
    case 'sign-in-not-found':
      return new HttpProblem(404, 'sign_in_not_found', 'Sign-in not found', 'no such provider sign-in is linked to this account');
    case 'last-sign-in':
      return new HttpProblem(409, 'last_sign_in', 'The only way to sign in', 'this is the account\'s only way to sign in: set a password (or link another provider) first');
    case 'recipe-not-found':
      return new HttpProblem(404, 'recipe_not_found', 'Recipe not found', 'no recipe with this id in the household');
    case 'recipe-image-not-found':
      return new HttpProblem(404, 'recipe_image_not_found', 'No picture', 'the recipe is not the household\'s, or no picture is kept for it');
    case 'recipe-cycle':
      return new HttpProblem(400, 'recipe_cycle', 'Base recipes form a cycle', 'a baseRecipeId would make the recipe part of its own base (directly or through other bases)');
    case 'base-recipe-unknown':
      return new HttpProblem(400, 'base_recipe_unknown', 'Unknown base recipe', `baseRecipeId ${error.baseRecipeId} is not a recipe of this household`);
    case 'recipe-page-failed':
      return recipePageProblem(error.reason);
    case 'recipe-import-throttled':
    case 'planner-throttled':
      return problems.rateLimited(error.retryAfterSec);
    case 'household-not-found':
      return new HttpProblem(404, 'household_not_found', 'Household not found', 'no household with this id has the caller as a member');
    case 'adults-only':
      return new HttpProblem(403, 'adults_only', 'Adults only', 'only an Owner or Adult of the household may do this');
    case 'plan-not-found':
      return new HttpProblem(404, 'plan_not_found', 'Plan not found', 'no plan with this id in the household');
    case 'plan-range-invalid':
      return new HttpProblem(400, 'validation_failed', 'Invalid range', 'to must not be before from, and the range may span at most 366 days');
    case 'date-outside-week':
      return new HttpProblem(400, 'date_outside_week', 'Date outside the week', 'the date is not one of the seven days of this plan');
    case 'ai-quota-used':
      return new HttpProblem(429, 'ai_quota_used', "The month's AI calls are used", "the household has used this month's AI calls; ask without AI ({ \"ai\": false }) or wait for the next month", {}, { 'Retry-After': String(error.retryAfterSec) });
    case 'platform-admin-only':
      return new HttpProblem(403, 'platform_admin_only', 'Platform admins only', 'only a login with a confirmed address listed in ADMIN_EMAILS may do this');
    case 'ai-paused':
      return new HttpProblem(429, 'ai_paused', 'AI paused', "the operator has paused this household's AI; ask without AI ({ \"ai\": false })", { until: error.until.toISOString() }, { 'Retry-After': error.until.toUTCString() });
    case 'avoid-conflict':
      return new HttpProblem(
        409,
        'avoid_conflict',
        "The dish breaks an avoid of the day's guests",
        `"${error.recipeTitle}" on ${error.date} has "${error.ingredient}", and the day's guests avoid "${error.avoid}"`,
        { date: error.date, recipeId: error.recipeId, recipeTitle: error.recipeTitle, avoid: error.avoid, ingredient: error.ingredient },
      );
    case 'owner-only':
      return new HttpProblem(403, 'owner_only', 'Owners only', 'only an Owner may grant, change or remove the Owner role');
    case 'export-owner-only':
      return new HttpProblem(403, 'owner_only', 'Owners only', 'only an Owner may export the household');
    case 'household-document-invalid':
      return new HttpProblem(400, 'household_document_invalid', 'The file cannot make a household', `${error.path}: ${error.detail}`, {
        errors: [{ path: `body.${error.path}`, message: error.detail }],
      });
    case 'member-not-found':
      return new HttpProblem(404, 'member_not_found', 'Member not found', 'no member with this id in the household');
    case 'invite-not-found':
      return new HttpProblem(404, 'invite_not_found', 'Invite not found', 'no open invite with this code in the household');
    case 'invite-not-usable':
      return new HttpProblem(400, 'invite_not_usable', 'Invite not usable', 'the invite code is unknown, expired or used');
    case 'loyalty-programs-unavailable':
      return new HttpProblem(404, 'loyalty_programs_unavailable', 'No loyalty programmes', `no loyalty programme reference data for country ${error.country}`);
    case 'time-zone-unknown':
      return new HttpProblem(400, 'time_zone_unknown', 'Unknown time zone', `"${error.timeZoneId}" is not in /api/v1/time-zones`);
    case 'event-not-found':
      return new HttpProblem(404, 'event_not_found', 'Event not found', 'no meal event with this id in the household');
    case 'event-invalid':
      return problems.validation(error.detail);
    case 'page-cursor-invalid':
      return problems.validation(`the cursor was not handed out by this list for ${error.boundTo}; start again without one`);
    case 'junior-forbidden':
      return new HttpProblem(403, 'junior_forbidden', 'Not allowed for a Junior', 'a Junior may only write or remove her own presence (PersonAbsent or PersonPresent) from today through 14 days ahead');
    case 'run-not-found':
      return new HttpProblem(404, 'run_not_found', 'Run not found', 'no run of that type lies wholly inside the span');
    case 'run-not-unique':
      return new HttpProblem(409, 'run_not_unique', 'More than one run', `the span holds ${error.runs} runs of that type; name the rows by ids, or narrow the span`);
    case 'calendar-window-invalid':
      return new HttpProblem(400, 'calendar_window_invalid', 'Invalid calendar window', 'to must not be before from');
    case 'calendar-url-forbidden':
      return new HttpProblem(
        400,
        'calendar_url_forbidden',
        'Calendar address not allowed',
        `the address must be http or https on the standard port, and its host must not be or resolve to a loopback, private or link-local address (${error.reason})`,
      );
    case 'calendar-feed-not-found':
      return new HttpProblem(404, 'calendar_feed_not_found', 'Calendar feed not found', 'no calendar feed with this id (or, for a device, of the caller with this key) in the household');
    case 'calendar-feed-not-yours':
      return new HttpProblem(403, 'calendar_feed_not_yours', 'Not your device feed', 'a device calendar feed can be removed only by the login that pushed it');
    case 'push-device-not-found':
      return new HttpProblem(404, 'push_device_not_found', 'Push device not found', 'no device with this token is registered to the caller');
    case 'push-provider-unknown':
      return new HttpProblem(400, 'push_provider_unknown', 'Unknown push provider', `provider "${error.provider}" is not configured here; known: ${error.known.join(', ')} (or null for the default)`);
    case 'food-key-empty':
      return problems.validation('the food key (foodKey, or displayName when foodKey is left out) needs a letter or a digit');
    case 'observation-not-found':
      return new HttpProblem(404, 'observation_not_found', 'Observation not found', 'no observation with this id in the household (already removed: the pantry is as asked)');
    case 'same-food':
      return new HttpProblem(400, 'same_food', 'Same food', 'both keys name the same food (after normalization)');
    case 'mutual-merge':
      return new HttpProblem(409, 'mutual_merge', 'Mutual merge', 'the target is merged into the source already; split that merge first');
    case 'pantry-food-not-found':
      return new HttpProblem(404, 'pantry_food_not_found', 'Food not in the pantry', 'neither key has a row in the pantry: there is nothing to merge');
    case 'merge-not-found':
      return new HttpProblem(404, 'merge_not_found', 'Merge not found', 'no merge stands on this key');
    case 'merge-rejection-not-found':
      return new HttpProblem(404, 'merge_rejection_not_found', 'Rejection not found', 'no different-foods answer is stored for this pair');
    case 'unit-empty':
      return problems.validation('the unit needs a letter or a digit');
    case 'unit-weight-not-found':
      return new HttpProblem(404, 'unit_weight_not_found', 'Unit weight not found', 'no weight is stored for this food and unit');
    case 'unit-weight-out-of-bounds':
      return problems.validation('grams must be greater than 0 and at most 10000');
    case 'billing-webhook-rejected':
      // One answer for every signature failure (which check failed is logged, not told); a signed body that is
      // not an event is named, as only the provider could have sent it.
      return new HttpProblem(
        400,
        'billing_webhook_rejected',
        'Billing webhook rejected',
        error.reason === 'event-malformed'
          ? 'the signed body is not a billing event of the documented shape'
          : 'the Provider-Signature header is missing or malformed, more than 300 s from now, or matches no signature of this body',
      );
    case 'shopping-item-not-found':
      return new HttpProblem(404, 'shopping_item_not_found', 'Shopping item not found', 'no shopping-list line with this id in the household');
    case 'shopping-line-not-removable':
      return new HttpProblem(409, 'shopping_line_not_removable', 'Shopping line not removable', "the week's dishes need this line: only lines put on the list by hand can be removed");
    case 'shopping-item-name-empty':
      return problems.validation('displayName names no food');
    case 'shopping-quantity-out-of-bounds':
      return problems.validation('a quantity must be greater than 0 and at most 100000');
    case 'email-invalid':
      return new HttpProblem(400, 'email_invalid', 'Not an e-mail address', 'email is not an e-mail address');
    case 'dinner-price-token-unknown':
      return new HttpProblem(404, 'dinner_price_token_unknown', 'Unknown link', 'no address on the dinner-price list carries this token');
    case 'dinner-price-token-expired':
      return new HttpProblem(410, 'dinner_price_token_expired', 'Link expired', 'the address stayed unconfirmed for over seven days and was removed; subscribe again');
    case 'waitlist-token-unknown':
      return new HttpProblem(404, 'waitlist_token_unknown', 'Unknown link', 'no address on the waitlist carries this token, or its link was used already');
    case 'waitlist-token-expired':
      return new HttpProblem(410, 'waitlist_token_expired', 'Link expired', 'the address stayed unconfirmed for over seven days: the link no longer works (an address of no account is removed); join the waitlist again');
    case 'dinner-calendar-not-found':
      // One answer for an unknown, replaced, turned-off or malformed token: it says nothing about which.
      return new HttpProblem(404, 'calendar_not_found', 'Calendar not found', 'no dinner calendar answers at this address');
    case 'food-db-not-built':
      return new HttpProblem(404, 'food_db_not_built', 'Food data not built yet', 'the food table has not been synced yet; the file is built by the first sync');
    case 'library-file-not-built':
      return new HttpProblem(503, 'library_not_built', 'Library file not built', 'the library file is built at start and failed to build; try again later', {}, { 'Retry-After': '60' });
    default: {
      const unreachable: never = error;
      throw new Error(`unmapped error ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The problem type URL: `{problem_base}/{code}`; the 426 uses `app-version-unsupported`, with hyphens. */
export function problemType(base: string, code: string): string {
  return `${base}/${code === 'app_version_unsupported' ? 'app-version-unsupported' : code}`;
}

/**
 * A recipe page that gives no recipe is the page's doing, never the service's: every reason is a 4xx of its own.
 * The guard's refusal is 400 (the address itself is wrong, as for calendar feeds); the rest are 422, the address
 * was fine but what is behind it could not be used.
 */
export const RECIPE_PAGE_PROBLEMS: Readonly<Record<RecipePageFailure, { status: 400 | 422; code: string; title: string; detail: string }>> = {
  'forbidden-address': { status: 400, code: 'recipe_url_forbidden', title: 'Address not allowed', detail: 'the address, or a redirect from it, points to a loopback, private or otherwise refused place, or uses a port or scheme other than http/https on their standard ports' },
  unreachable: { status: 422, code: 'recipe_page_unreachable', title: 'Page not reachable', detail: 'the page could not be fetched: its name does not resolve, the connection failed, it answered an error status, or it redirected too often' },
  timeout: { status: 422, code: 'recipe_page_timeout', title: 'Page too slow', detail: 'the page did not arrive whole within the time allowed' },
  'too-large': { status: 422, code: 'recipe_page_too_large', title: 'Page too large', detail: 'the page is over the size allowed (counted after decompression)' },
  'not-html': { status: 422, code: 'recipe_page_not_html', title: 'Not a web page', detail: 'the address answers something other than an HTML page' },
  'no-recipe': { status: 422, code: 'recipe_not_on_page', title: 'No recipe on the page', detail: 'the page holds no schema.org Recipe (JSON-LD or microdata) and no OpenGraph title' },
};

function recipePageProblem(reason: RecipePageFailure): HttpProblem {
  const p = RECIPE_PAGE_PROBLEMS[reason];
  return new HttpProblem(p.status, p.code, p.title, p.detail);
}
