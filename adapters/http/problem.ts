import type { PhotoRefusal } from '../../ports/image-resizer.js';
import type { RecipePageFailure } from '../../ports/recipe-page-reader.js';
import type { RecipePictureFailure } from '../../ports/recipe-picture-reader.js';
import type { AppError } from '../../core/kernel/errors.js';
import { guessableBuiltFrom } from '../../core/accounts/guessable-passwords.js';

/**
 * An answer that is not a success, rendered as application/problem+json. Only this layer knows status codes
 * and problem codes; core hands it tagged values (AppError) and `problemFor` answers them from one table, through the
 * route kit (adapters/http/route.ts).
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
  unsupportedMediaType: (types = 'application/json') =>
    new HttpProblem(415, 'unsupported_media_type', 'Unsupported media type', `send the body as ${types}`),
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

type Tag = AppError['type'];
type ErrorOf<T extends Tag> = Extract<AppError, { type: T }>;

/** What a client sees of a problem besides its text: the status and the code (what the OpenAPI document lists). */
export interface ProblemAnswer {
  readonly status: number;
  readonly code: string;
}

/** A failure answered always the same way, or with a detail, extensions or headers taken from the failure. */
interface Answer<E> extends ProblemAnswer {
  readonly title: string;
  readonly detail: string | ((error: E) => string);
  readonly extensions?: (error: E) => Record<string, unknown>;
  readonly headers?: (error: E) => Record<string, string>;
}

/** A failure whose reason picks one of several answers (each a status and code of its own). */
interface Varying<E> {
  readonly answers: readonly (ProblemAnswer & { readonly title: string; readonly detail: string })[];
  readonly pick: (error: E) => ProblemAnswer & { readonly title: string; readonly detail: string };
}

type Entry<E> = Answer<E> | Varying<E>;

/** A failure answered always the same way, with the status of its kind. */
const always =
  (status: number) =>
  (code: string, title: string, detail: string): Answer<unknown> => ({ status, code, title, detail });
const badRequest = always(400);
const unauthorized = always(401);
const forbidden = always(403);
const notFound = always(404);
const conflict = always(409);

const SHAPE = 'The request is not of the documented shape';
/** A failure that reads as any other refusal of the request's shape: validation_failed with its own detail. */
const invalid = <E>(detail: string | ((error: E) => string)): Answer<E> => ({ status: 400, code: 'validation_failed', title: SHAPE, detail });
const throttled = { status: 429, code: 'rate_limited', title: 'Too many requests', detail: (e: { retryAfterSec: number }) => `try again in ${e.retryAfterSec} s`, headers: (e: { retryAfterSec: number }) => ({ 'Retry-After': String(e.retryAfterSec) }) };

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
  'no-recipe': { status: 422, code: 'recipe_not_on_page', title: 'No recipe on the page', detail: 'the page holds no schema.org Recipe (JSON-LD or microdata), no ingredients and steps under headings that say so, and no OpenGraph title' },
};

/**
 * A picture or PDF of a recipe that gives no recipe: a file of another kind (422, before the AI is asked), a file the
 * AI says holds none (422), or the AI's failure (502: the service's helper failed, not the request).
 */
export const RECIPE_PICTURE_PROBLEMS: Readonly<Record<RecipePictureFailure | 'not-supported', { status: 422 | 502; code: string; title: string; detail: string }>> = {
  'not-supported': { status: 422, code: 'recipe_picture_not_supported', title: 'Not a photo or a PDF', detail: 'the bytes are not a JPEG, PNG or WebP picture or a PDF, whatever the Content-Type says' },
  'no-recipe': { status: 422, code: 'recipe_not_in_picture', title: 'No recipe in the picture', detail: 'the AI found no recipe it could read in the file' },
  unreadable: { status: 502, code: 'recipe_picture_unreadable', title: 'The AI answer could not be used', detail: 'the AI answered something other than a recipe of the documented shape; nothing of it is used' },
  unreachable: { status: 502, code: 'recipe_reader_unreachable', title: 'The AI did not answer', detail: 'the AI could not be reached, answered an error, or did not answer in time' },
};

/** A household's own photo that is not taken: what the bytes are decides, never the Content-Type; each is 422. */
export const RECIPE_PHOTO_PROBLEMS: Readonly<Record<PhotoRefusal, { status: 422; code: string; title: string; detail: string }>> = {
  'not-an-image': { status: 422, code: 'recipe_photo_not_an_image', title: 'Not a photo', detail: 'the bytes are not a JPEG, PNG or WebP picture (SVG and other kinds are never taken), whatever the Content-Type says' },
  'too-many-pixels': { status: 422, code: 'recipe_photo_too_many_pixels', title: 'Too many pixels', detail: 'the picture declares more than 40 megapixels' },
  unreadable: { status: 422, code: 'recipe_photo_unreadable', title: 'Photo cannot be read', detail: 'the picture does not decode: it is cut off or damaged' },
};

/** Why leftovers may not be eaten on a day (core/plans/leftovers.ts): each its own code, all 409 (nothing is written). */
export const LEFTOVERS_PROBLEMS: Readonly<Record<ErrorOf<'leftovers-refused'>['reason'], { status: 409; code: string; title: string; detail: string }>> = {
  'not-later': { status: 409, code: 'leftovers_not_later', title: 'Leftovers come after the cooking', detail: 'leftoversOf must be an earlier day than the day that eats the leftovers' },
  'kept-too-long': { status: 409, code: 'leftovers_kept_too_long', title: 'Leftovers kept too long', detail: "the day is more than the household's leftoversKeepDays after the cooking day" },
  'no-dish': { status: 409, code: 'leftovers_no_dish', title: 'Nothing cooked to leave over', detail: 'the cooking day has no dish of its own, or nobody eats at home that day' },
  'day-closed': { status: 409, code: 'leftovers_day_closed', title: 'Nobody eats at home', detail: 'the day that would eat the leftovers is closed (EatingOut or Travel)' },
};

/**
 * The one place where core's expected failures become HTTP answers: every tag of AppError has its entry (the
 * compiler names a tag nobody maps), a function only where the answer depends on the failure.
 */
const PROBLEMS = {
  // accounts
  'signup-rejected': { status: 400, code: 'signup_rejected', title: 'Sign-up rejected', detail: (e) => (e.reason === 'email' ? 'the e-mail address is not usable' : 'the password must be at least 8 characters') },
  'invalid-credentials': unauthorized('invalid_credentials', 'Wrong e-mail or password', 'the e-mail or the password is wrong'),
  'account-name-length': badRequest('account_name_length', 'Display name length', 'displayName must be 1 to 80 characters'),
  unauthenticated: unauthorized('unauthenticated', 'Sign in first', 'no session, or the session is no longer valid'),
  'account-locked': { status: 423, code: 'account_locked', title: 'Account locked', detail: 'too many wrong passwords; try again in a few minutes or reset the password' },
  'wrong-current-password': badRequest('wrong_current_password', 'Wrong current password', 'currentPassword is missing or wrong'),
  'password-rejected': badRequest('password_rejected', 'Password rejected', 'the password must be 8 to 256 characters'),
  'password-guessable': {
    status: 400,
    code: 'password_guessable',
    title: 'Password too easy to guess',
    detail: (e) => `the password is built only from ${guessableBuiltFrom(e.reason)} (digits and signs left out); choose one with words of your own`,
    extensions: (e) => ({ reason: e.reason }),
  },
  'password-pwned': badRequest('password_pwned', 'Password seen in a breach', 'this password appears in lists of breached passwords; choose another'),
  'email-not-an-address': badRequest('email_not_an_address', 'Not an e-mail address', 'newEmail is not an e-mail address'),
  'invalid-token': badRequest('invalid_token', 'Invalid link', 'the link has expired, was used already, or its address is taken'),
  'resend-cooldown': { status: 429, code: 'resend_cooldown', title: 'Wait before resending', detail: 'a confirmation mail went out less than five minutes ago', headers: (e) => ({ 'Retry-After': String(e.retryAfterSec) }) },
  'owner-required': badRequest('owner_required', 'A household needs its owner', 'the caller owns a household others still use; hand it over or remove them first'),
  // social and native sign-in
  'app-signin-incomplete': badRequest('app_signin_incomplete', 'App sign-in incomplete', 'the app flow needs both codeChallenge and an allowed redirectUri'),
  'unknown-login-provider': notFound('unknown_login_provider', 'Unknown sign-in provider', 'no sign-in provider of that name is configured'),
  'signin-code-spent': unauthorized('signin_code_spent', 'Sign-in code spent', 'the code expired, was used, or the verifier does not match'),
  'idp-signin-rejected': unauthorized('idp_signin_rejected', 'Sign-in rejected', 'the identity provider did not vouch for the token'),
  'idp-signin-unavailable': notFound('idp_signin_unavailable', 'Native sign-in unavailable', 'native sign-in is not configured on this server'),
  'account-not-created': { status: 500, code: 'account_not_created', title: 'Account not created', detail: 'the account could not be created' },
  'sign-in-not-found': notFound('sign_in_not_found', 'Sign-in not found', 'no such provider sign-in is linked to this account'),
  'last-sign-in': conflict('last_sign_in', 'The only way to sign in', "this is the account's only way to sign in: set a password (or link another provider) first"),
  // paged lists
  'page-cursor-invalid': invalid((e) => `the cursor was not handed out by this list for ${e.boundTo}; start again without one`),
  // recipes and their import
  'recipe-not-found': notFound('recipe_not_found', 'Recipe not found', 'no recipe with this id in the household'),
  'recipe-image-not-found': notFound('recipe_image_not_found', 'No picture', "the recipe is not the household's, or no picture is kept for it"),
  'recipe-photo-refused': { answers: Object.values(RECIPE_PHOTO_PROBLEMS), pick: (e) => RECIPE_PHOTO_PROBLEMS[e.reason] },
  'recipe-cycle': badRequest('recipe_cycle', 'Base recipes form a cycle', 'a baseRecipeId would make the recipe part of its own base (directly or through other bases)'),
  'base-recipe-unknown': { status: 400, code: 'base_recipe_unknown', title: 'Unknown base recipe', detail: (e) => `baseRecipeId ${e.baseRecipeId} is not a recipe of this household` },
  'recipe-page-failed': { answers: Object.values(RECIPE_PAGE_PROBLEMS), pick: (e) => RECIPE_PAGE_PROBLEMS[e.reason] },
  'recipe-import-throttled': throttled,
  'recipe-reader-unavailable': notFound('recipe_reader_unavailable', 'Pictures are not read here', 'this service has no AI configured to read recipes from pictures or PDFs'),
  'recipe-picture-failed': { answers: Object.values(RECIPE_PICTURE_PROBLEMS), pick: (e) => RECIPE_PICTURE_PROBLEMS[e.reason] },
  // households
  'household-not-found': notFound('household_not_found', 'Household not found', 'no household with this id has the caller as a member'),
  'adults-only': forbidden('adults_only', 'Adults only', 'only an Owner or Adult of the household may do this'),
  'member-not-found': notFound('member_not_found', 'Member not found', 'no member with this id in the household'),
  'owner-only': forbidden('owner_only', 'Owners only', 'only an Owner may grant, change or remove the Owner role'),
  'export-owner-only': forbidden('owner_only', 'Owners only', 'only an Owner may export the household'),
  'household-document-invalid': {
    status: 400,
    code: 'household_document_invalid',
    title: 'The file cannot make a household',
    detail: (e) => `${e.path}: ${e.detail}`,
    extensions: (e) => ({ errors: [{ path: `body.${e.path}`, message: e.detail }] }),
  },
  'invite-not-found': notFound('invite_not_found', 'Invite not found', 'no open invite with this code in the household'),
  'invite-not-usable': badRequest('invite_not_usable', 'Invite not usable', 'the invite code is unknown, expired or used'),
  // personal access tokens: the 401s and 403s say, as RFC 6750 asks, what a Bearer token lacked
  'access-token-not-found': notFound('access_token_not_found', 'Access token not found', 'the account has no access token with this id: it was revoked already, or never made'),
  'access-token-limit': {
    status: 409,
    code: 'access_token_limit',
    title: 'Too many access tokens',
    detail: (e) => `an account holds at most ${e.max} unexpired access tokens; revoke one first`,
    extensions: (e) => ({ max: e.max }),
  },
  'token-missing': { ...unauthorized('unauthenticated', 'Sign in first', 'no session cookie, and no Authorization: Bearer token'), headers: () => ({ 'WWW-Authenticate': 'Bearer' }) },
  'token-invalid': {
    ...unauthorized('token_invalid', 'Access token not valid', 'the Bearer token is unknown or was revoked, or its person is no longer a member of its household'),
    headers: () => ({ 'WWW-Authenticate': 'Bearer error="invalid_token"' }),
  },
  'token-expired': {
    ...unauthorized('token_expired', 'Access token expired', 'the Bearer token has expired; its person can make a new one in the settings'),
    headers: () => ({ 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The access token expired"' }),
  },
  'token-not-for-route': forbidden(
    'token_not_for_route',
    'Not with an access token',
    "a personal access token reaches only its household's data: this operation (account, security, sign-in, tokens, or not a household's data) takes the session cookie",
  ),
  'token-read-only': {
    ...forbidden('token_read_only', 'Read-only access token', "this access token may only read (GET); a read-write token may change the household's data"),
    headers: () => ({ 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="read-write"' }),
  },
  'invite-not-open': notFound('invite_not_open', 'Invite not open', 'no open invite has this code: it is unknown, used, expired or withdrawn'),
  'loyalty-programs-unavailable': { status: 404, code: 'loyalty_programs_unavailable', title: 'No loyalty programmes', detail: (e) => `no loyalty programme reference data for country ${e.country}` },
  'time-zone-unknown': { status: 400, code: 'time_zone_unknown', title: 'Unknown time zone', detail: (e) => `"${e.timeZoneId}" is not in /api/v1/time-zones` },
  // plans and the planner
  'plan-not-found': notFound('plan_not_found', 'Plan not found', 'no plan with this id in the household'),
  'plan-range-invalid': badRequest('validation_failed', 'Invalid range', 'to must not be before from, and the range may span at most 366 days'),
  'date-outside-week': badRequest('date_outside_week', 'Date outside the week', 'the date is not one of the seven days of this plan'),
  'ai-quota-used': {
    status: 429,
    code: 'ai_quota_used',
    title: "The month's AI calls are used",
    detail: "the household has used this month's AI calls; wait for the next month (the planner can be asked without AI: { \"ai\": false })",
    headers: (e) => ({ 'Retry-After': String(e.retryAfterSec) }),
  },
  'ai-paused': {
    status: 429,
    code: 'ai_paused',
    title: 'AI paused',
    detail: "the operator has paused this household's AI until the time given (the planner can be asked without AI: { \"ai\": false })",
    extensions: (e) => ({ until: e.until.toISOString() }),
    headers: (e) => ({ 'Retry-After': e.until.toUTCString() }),
  },
  'platform-admin-only': forbidden('platform_admin_only', 'Platform admins only', 'only a login with a confirmed address listed in ADMIN_EMAILS may do this'),
  'planner-throttled': throttled,
  'avoid-conflict': {
    status: 409,
    code: 'avoid_conflict',
    title: "The dish breaks an avoid of the day's guests",
    detail: (e) => `"${e.recipeTitle}" on ${e.date} has "${e.ingredient}", and the day's guests avoid "${e.avoid}"`,
    extensions: (e) => ({ date: e.date, recipeId: e.recipeId, recipeTitle: e.recipeTitle, avoid: e.avoid, ingredient: e.ingredient }),
  },
  'no-dish-to-move': conflict('no_dish_to_move', 'No dish to move', 'the day has no dish; choose one for it instead'),
  'leftovers-refused': { answers: Object.values(LEFTOVERS_PROBLEMS), pick: (e) => LEFTOVERS_PROBLEMS[e.reason] },
  // dinner rules
  'dinner-rule-not-found': notFound('dinner_rule_not_found', 'Dinner rule not found', 'no dinner rule with this id in the household'),
  'dinner-rule-recipe-unknown': {
    status: 422,
    code: 'dinner_rule_recipe_unknown',
    title: 'Unknown recipe',
    detail: (e) => `recipeId ${e.recipeId} is not a recipe of this household`,
    extensions: (e) => ({ recipeId: e.recipeId }),
  },
  'dinner-rule-tag-unknown': {
    status: 422,
    code: 'dinner_rule_tag_unknown',
    title: 'Unknown tag',
    detail: (e) => `no recipe of the household has the tag "${e.tag}"`,
    extensions: (e) => ({ tag: e.tag }),
  },
  'dinner-rule-weekday-taken': conflict('dinner_rule_weekday_taken', 'The weekday has a fixed dish', 'another rule puts a fixed dish on this weekday already; change or remove that rule first'),
  'dinner-rule-limit': {
    status: 409,
    code: 'dinner_rule_limit',
    title: 'Too many dinner rules',
    detail: (e) => `a household keeps at most ${e.max} dinner rules; remove one first`,
    extensions: (e) => ({ max: e.max }),
  },
  // meal events
  'event-not-found': notFound('event_not_found', 'Event not found', 'no meal event with this id in the household'),
  'event-invalid': invalid((e) => e.detail),
  'junior-forbidden': forbidden('junior_forbidden', 'Not allowed for a Junior', 'a Junior may only write or remove her own presence (PersonAbsent or PersonPresent) from today through 14 days ahead'),
  'run-not-found': notFound('run_not_found', 'Run not found', 'no run of that type lies wholly inside the span'),
  'run-not-unique': { status: 409, code: 'run_not_unique', title: 'More than one run', detail: (e) => `the span holds ${e.runs} runs of that type; name the rows by ids, or narrow the span` },
  // calendar feeds
  'calendar-window-invalid': badRequest('calendar_window_invalid', 'Invalid calendar window', 'to must not be before from'),
  'calendar-url-forbidden': {
    status: 400,
    code: 'calendar_url_forbidden',
    title: 'Calendar address not allowed',
    detail: (e) => `the address must be http or https on the standard port, and its host must not be or resolve to a loopback, private or link-local address (${e.reason})`,
  },
  'calendar-feed-not-found': notFound('calendar_feed_not_found', 'Calendar feed not found', 'no calendar feed with this id (or, for a device, of the caller with this key) in the household'),
  'calendar-feed-not-yours': forbidden('calendar_feed_not_yours', 'Not your device feed', 'a device calendar feed can be removed only by the login that pushed it'),
  // push devices
  'push-device-not-found': notFound('push_device_not_found', 'Push device not found', 'no device with this token is registered to the caller'),
  'push-provider-unknown': { status: 400, code: 'push_provider_unknown', title: 'Unknown push provider', detail: (e) => `provider "${e.provider}" is not configured here; known: ${e.known.join(', ')} (or null for the default)` },
  // pantry
  'food-key-empty': invalid('the food key (foodKey, or displayName when foodKey is left out) needs a letter or a digit'),
  'observation-not-found': notFound('observation_not_found', 'Observation not found', 'no observation with this id in the household (already removed: the pantry is as asked)'),
  'same-food': badRequest('same_food', 'Same food', 'both keys name the same food (after normalization)'),
  'mutual-merge': conflict('mutual_merge', 'Mutual merge', 'the target is merged into the source already; split that merge first'),
  'pantry-food-not-found': notFound('pantry_food_not_found', 'Food not in the pantry', 'neither key has a row in the pantry: there is nothing to merge'),
  'merge-not-found': notFound('merge_not_found', 'Merge not found', 'no merge stands on this key'),
  'merge-rejection-not-found': notFound('merge_rejection_not_found', 'Rejection not found', 'no different-foods answer is stored for this pair'),
  'unit-empty': invalid('the unit needs a letter or a digit'),
  'unit-weight-not-found': notFound('unit_weight_not_found', 'Unit weight not found', 'no weight is stored for this food and unit'),
  'unit-weight-out-of-bounds': invalid('grams must be greater than 0 and at most 10000'),
  // One answer for every signature failure (which check failed is logged, not told); a signed body that is not an
  // event is named, as only the provider could have sent it.
  'billing-webhook-rejected': {
    status: 400,
    code: 'billing_webhook_rejected',
    title: 'Billing webhook rejected',
    detail: (e) =>
      e.reason === 'event-malformed'
        ? 'the signed body is not a billing event of the documented shape'
        : 'the Provider-Signature header is missing or malformed, more than 300 s from now, or matches no signature of this body',
  },
  // shopping list
  'shopping-item-not-found': notFound('shopping_item_not_found', 'Shopping item not found', 'no shopping-list line with this id in the household'),
  'shopping-line-not-removable': conflict('shopping_line_not_removable', 'Shopping line not removable', "the week's dishes need this line: only lines put on the list by hand can be removed"),
  'shopping-item-name-empty': invalid('displayName names no food'),
  'shopping-quantity-out-of-bounds': invalid('a quantity must be greater than 0 and at most 100000'),
  'shopping-line-changed': {
    status: 409,
    code: 'shopping_line_changed',
    title: 'Changed since by someone else',
    detail: (e) => `${e.changedBy ?? 'another member'} changed "${e.displayName}" (${e.change}) at ${e.changedAt.toISOString()}, after this change was made; the later change stands`,
    extensions: (e) => ({ change: e.change, changedBy: e.changedBy, changedAt: e.changedAt.toISOString(), displayName: e.displayName }),
  },
  // the two mailing lists
  'email-invalid': badRequest('email_invalid', 'Not an e-mail address', 'email is not an e-mail address'),
  'dinner-price-token-unknown': notFound('dinner_price_token_unknown', 'Unknown link', 'no address on the dinner-price list carries this token'),
  'dinner-price-token-expired': { status: 410, code: 'dinner_price_token_expired', title: 'Link expired', detail: 'the address stayed unconfirmed for over seven days and was removed; subscribe again' },
  'waitlist-token-unknown': notFound('waitlist_token_unknown', 'Unknown link', 'no address on the waitlist carries this token, or its link was used already'),
  'waitlist-token-expired': {
    status: 410,
    code: 'waitlist_token_expired',
    title: 'Link expired',
    detail: 'the address stayed unconfirmed for over seven days: the link no longer works (an address of no account is removed); join the waitlist again',
  },
  // One answer for an unknown, replaced, turned-off or malformed token: it says nothing about which.
  'dinner-calendar-not-found': notFound('calendar_not_found', 'Calendar not found', 'no dinner calendar answers at this address'),
  // public data downloads
  'food-db-not-built': notFound('food_db_not_built', 'Food data not built yet', 'the food table has not been synced yet; the file is built by the first sync'),
  'library-file-not-built': {
    status: 503,
    code: 'library_not_built',
    title: 'Library file not built',
    detail: 'the library file is built at start and failed to build; try again later',
    headers: () => ({ 'Retry-After': '60' }),
  },
} satisfies { readonly [T in Tag]: Entry<ErrorOf<T>> };

// One entry per tag, typed by its tag above; read through the union, each entry takes the failure of its own tag.
const entryOf = (type: Tag): Entry<AppError> => PROBLEMS[type] as Entry<AppError>;

/** A failure of core as the problem a client gets. */
export function problemFor(error: AppError): HttpProblem {
  const entry = entryOf(error.type);
  if ('pick' in entry) {
    const p = entry.pick(error);
    return new HttpProblem(p.status, p.code, p.title, p.detail);
  }
  const detail = typeof entry.detail === 'string' ? entry.detail : entry.detail(error);
  return new HttpProblem(entry.status, entry.code, entry.title, detail, entry.extensions?.(error) ?? {}, entry.headers?.(error) ?? {});
}

/** The statuses and codes a failure of this tag can be answered with (what a route's OpenAPI entry lists). */
export function answersOf(type: Tag): readonly ProblemAnswer[] {
  const entry = entryOf(type);
  return 'answers' in entry ? entry.answers : [entry];
}

/** The problem type URL: `{problem_base}/{code}`; the 426 uses `app-version-unsupported`, with hyphens. */
export function problemType(base: string, code: string): string {
  return `${base}/${code === 'app_version_unsupported' ? 'app-version-unsupported' : code}`;
}
