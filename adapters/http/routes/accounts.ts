import type Koa from 'koa';
import { isoTime } from '../iso-time.js';
import * as v from 'valibot';
import { describeMe, updateMe, type Me } from '../../../core/households/me.js';
import { login } from '../../../core/accounts/login.js';
import { logout } from '../../../core/accounts/logout.js';
import { register } from '../../../core/accounts/register.js';
import { changePassword } from '../../../core/accounts/change-password.js';
import { confirmEmail, resendConfirmation } from '../../../core/accounts/confirmation.js';
import { deleteAccount } from '../../../core/accounts/delete-account.js';
import { checkEmailChange, confirmEmailChange, requestEmailChange } from '../../../core/accounts/email-change.js';
import { forgotPassword, resetPassword } from '../../../core/accounts/recovery.js';
import { TOKEN_LIFETIME_MS } from '../../../core/accounts/account-tokens.js';
import { SESSION_ABSOLUTE_MS, SESSION_LIFETIME_MS } from '../../../core/accounts/sessions.js';
import type { AccountLanguage } from '../../../core/accounts/types.js';
import { DISPLAY_NAME_MAX, EMAIL_MAX, PASSWORD_MAX } from '../../../core/accounts/types.js';
import { ROLES } from '../../../core/households/types.js';
import { answerEmpty, answerJson, mount, noContent, resource, PUBLIC_SIGN_IN } from '../route.js';
import { Uuid, IsoDateTime } from '../schemas.js';
import { clearSessionCookie, optionalCaller, setSessionCookie } from '../session-cookie.js';
import type { RouteSettings, ServiceDeps } from '../deps.js';

const UserResponse = v.object({ id: Uuid, email: v.nullable(v.string()), displayName: v.string() });
export const MembershipResponse = v.object({
  householdId: Uuid,
  householdName: v.string(),
  role: v.picklist(ROLES),
  memberId: v.nullable(Uuid),
});
export const MeResponse = v.object({
  user: UserResponse,
  memberships: v.array(MembershipResponse),
  isPlatformAdmin: v.boolean(),
  emailConfirmed: v.boolean(),
  hasPassword: v.boolean(),
  serverNow: v.nullable(IsoDateTime),
});

const Email = v.pipe(v.string(), v.maxLength(EMAIL_MAX, `at most ${EMAIL_MAX} characters`));
/** Room for a code typed with spaces or hyphens; anything longer is no code. */
const REFERRAL_CODE_INPUT_MAX = 64;
const Password = v.pipe(v.string(), v.maxLength(PASSWORD_MAX, `at most ${PASSWORD_MAX} characters`));
const RegisterRequest = v.object({
  email: Email,
  password: Password,
  displayName: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(DISPLAY_NAME_MAX, `at most ${DISPLAY_NAME_MAX} characters`)),
  referralCode: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(REFERRAL_CODE_INPUT_MAX, `at most ${REFERRAL_CODE_INPUT_MAX} characters`)))),
});
const LoginRequest = v.object({ email: Email, password: Password });
const UpdateMeRequest = v.object({ displayName: v.string() });
const Token = v.pipe(v.string(), v.maxLength(128, 'at most 128 characters'));
const ChangePasswordRequest = v.object({ currentPassword: v.nullable(Password), newPassword: Password });
const ChangeEmailRequest = v.object({ newEmail: Email });
const ConfirmEmailRequest = v.object({ userId: Uuid, token: Token });
const ConfirmEmailChangeRequest = v.object({ userId: Uuid, newEmail: Email, token: Token });
const ForgotPasswordRequest = v.object({ email: Email });
const ResetPasswordRequest = v.object({ email: Email, token: Token, newPassword: Password });

const hours = (ms: number) => `${ms / 3_600_000} hours`;
const days = (ms: number) => `${ms / 86_400_000} days`;

/** Mails go out in English when the browser or app prefers English over Norwegian, else in bokmål. */
export function languageOf(acceptLanguage: string): AccountLanguage {
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { primary: (tag ?? '').split('-')[0]!, q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => ['en', 'nb', 'nn', 'no'].includes(x.primary) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.primary === 'en' ? 'en' : 'nb';
}

export function toMeResponse(me: Me): v.InferOutput<typeof MeResponse> {
  return {
    user: { id: me.account.id, email: me.account.email, displayName: me.account.displayName },
    // The answer's fields by name (a kept membership is frozen, and a spread of a frozen object is a slow copy).
    memberships: me.memberships.map(({ householdId, householdName, role, memberId }) => ({ householdId, householdName, role, memberId })),
    isPlatformAdmin: me.isPlatformAdmin,
    emailConfirmed: me.account.emailConfirmed,
    hasPassword: me.account.passwordHash !== null,
    serverNow: isoTime(me.serverNow),
  };
}

const { route, handledRoute } = resource<ServiceDeps & { readonly settings: RouteSettings }>('Account and sign-in');

type AccountRouteDeps = { readonly settings: RouteSettings };

/** Ends the answer of a route that signed the caller out: the session cookie cleared, 204. */
function signedOut(ctx: Koa.Context, deps: AccountRouteDeps): void {
  clearSessionCookie(ctx, deps.settings.publicBaseUrl);
  ctx.status = 204;
}

/** Answers 204 at once and does the work after the answer has gone out, so that nothing of what it finds is told. */
function acceptedThen(ctx: Koa.Context, deps: AccountRouteDeps, name: string, work: () => Promise<unknown>): void {
  deps.settings.afterAnswer.run(ctx, name, work);
  ctx.status = 204;
}

const REGISTER_DOC =
  '200 with no body whether or not the address already has an account, so the answer never tells. A fresh ' +
  'address gets an account, the session cookie and a confirmation mail (link valid ' +
  hours(TOKEN_LIFETIME_MS['confirm-email']) +
  '); a known address gets an already-have-an-account mail and no session. The mail waits in an outbox in the ' +
  'database, not in the answer: while the mail server is down it is retried for a day, and once its link has ' +
  'expired it is dropped, never sent. Confirmation never gates the app. ' +
  'Passwords: 8 to 256 characters, not built only from the service\'s name, the address, the display name and common words (Norwegian and English; digits and signs left out, also read as the letters they look like: "Passord1", "Sommer2024!", "kari.hansen"), which answers 400 password_guessable with `reason` (service-name, email, name, common-word), the same rule for a new password on /me/password and reset-password; and not in the breached-password list. Mails are in English when Accept-Language ' +
  'prefers English, else Norwegian (bokmål). referralCode (optional, null or at most ' + String(REFERRAL_CODE_INPUT_MAX) + ' characters; ' +
  'case, spaces and hyphens ignored): an unused referral code of any household is spent by the new account (usedAt set ' +
  'in that household\'s list), once, also when several registrations send it at once; an unknown or spent code is ' +
  'ignored and registration goes on. A known address spends nothing. A fresh address on the waitlist turns its row into ' +
  'the new account\'s.';
const LOGIN_DOC =
  `Sets a new session cookie app_session on every sign-in (HttpOnly, SameSite=Lax, Secure on https; ${days(SESSION_LIFETIME_MS)} ` +
  `from last use, at most ${days(SESSION_ABSOLUTE_MS)} from sign-in). Wrong passwords are counted per address (known or not): ` +
  'a run of them (config LOCKOUT, default 10 within 15 minutes) locks the address for a few minutes (default 5), answering ' +
  '423 account_locked; forgot-password and reset-password keep working while locked.';
const DELETE_ME_DOC =
  'Households nobody else uses go with it; shared ones lose this member. The waitlist row it registered with, and ' +
  'the one of its address, are deleted, and mail still waiting to be sent to its address is not sent. Signs out everywhere. 400 owner_required ' +
  'while the caller is the only Owner of a household other accounts still use.';
const CHANGE_EMAIL_DOC =
  '204 for any well-formed address, without saying whether it is taken (the lookup happens after the answer, so ' +
  'neither its duration nor its Server-Timing query count tells either). Nothing changes until the link mailed to the ' +
  `new address (valid ${hours(TOKEN_LIFETIME_MS['change-email'])}) is confirmed; the old address gets a notice with a reset link.`;
const CONFIRM_EMAIL_CHANGE_DOC =
  `The token is single-use, valid ${hours(TOKEN_LIFETIME_MS['change-email'])} and bound to the new address. Every other ` +
  'session is revoked; a browser signed in as this account keeps its own session. 400 invalid_token when expired, used, ' +
  'or the address was taken meanwhile.';
const FORGOT_PASSWORD_DOC =
  `Always 204, known address or not. A known address gets a single-use link valid ${hours(TOKEN_LIFETIME_MS['reset-password'])} ` +
  '(a mail the mail server has not taken by then is dropped, not sent); ' +
  'a second request for the same account within five minutes is dropped silently. Works while the login is locked. ' +
  'The address is looked up after the answer has gone out, so neither the answer, its duration nor the query ' +
  'count in its Server-Timing tells whether the address has an account.';

const registerRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/register',
  operationId: 'register',
  summary: 'Create an account',
  description: REGISTER_DOC,
  ...PUBLIC_SIGN_IN,
  body: RegisterRequest,
  responses: { 200: { description: 'Accepted (no body); Set-Cookie app_session for a fresh address' } },
  errors: ['signup-rejected', 'password-guessable', 'password-pwned'],
  handle: async (ctx, { deps, body, refuse }) => {
    const result = await register(deps, { ...body, language: languageOf(ctx.get('Accept-Language')) });
    if (!result.ok) throw refuse(result.error);
    if (result.value.kind === 'created') setSessionCookie(ctx, result.value.issued.token, deps.settings.publicBaseUrl);
    answerEmpty(ctx);
  },
});

const loginRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/login',
  operationId: 'login',
  summary: 'Sign in with e-mail and password',
  description: LOGIN_DOC,
  ...PUBLIC_SIGN_IN,
  body: LoginRequest,
  responses: { 200: { description: 'Signed in', schema: MeResponse } },
  errors: ['invalid-credentials', 'account-locked'],
  handle: async (ctx, { deps, body, refuse }) => {
    const result = await login(deps, body);
    if (!result.ok) throw refuse(result.error);
    setSessionCookie(ctx, result.value.issued.token, deps.settings.publicBaseUrl);
    answerJson(ctx, toMeResponse(await describeMe(deps, result.value.account)));
  },
});

const logoutRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/logout',
  operationId: 'logout',
  summary: 'Sign out',
  description:
    'Ends this session and rotates the account security stamp, so every other copy of a session minted before ' +
    'fails its next check (the account is signed out everywhere).',
  rateLimit: 'auth',
  responses: { 204: { description: 'Signed out; the cookie is cleared' } },
  handle: async (ctx, { deps, caller }) => {
    await logout(deps, caller);
    signedOut(ctx, deps);
  },
});

const getMeRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/me',
  operationId: 'getMe',
  summary: 'The signed-in account and its households',
  description: '401 also when the cookie belongs to an account that no longer exists.',
  responses: { 200: { description: 'The caller', schema: MeResponse } },
  handle: async (ctx, { deps, caller }) => {
    answerJson(ctx, toMeResponse(await describeMe(deps, caller.account)));
  },
});

const updateMeRoute = handledRoute({
  method: 'PATCH',
  path: '/api/v1/me',
  operationId: 'updateMe',
  summary: 'Change the display name',
  description: 'Only the display name changes; it is trimmed and must then be 1 to 80 characters.',
  body: UpdateMeRequest,
  responses: { 200: { description: 'The caller after the change', schema: MeResponse } },
  errors: ['account-name-length', 'unauthenticated'],
  handle: async (ctx, { deps, caller, body, refuse }) => {
    const result = await updateMe(deps, caller.account, body);
    if (!result.ok) throw refuse(result.error);
    answerJson(ctx, toMeResponse(result.value));
  },
});

const deleteMeRoute = handledRoute({
  method: 'DELETE',
  path: '/api/v1/me',
  operationId: 'deleteMe',
  summary: 'Delete the account',
  description: DELETE_ME_DOC,
  responses: { 204: { description: 'Deleted; the cookie is cleared' } },
  errors: ['owner-required'],
  handle: async (ctx, { deps, caller, refuse }) => {
    const result = await deleteAccount(deps, caller.account);
    if (!result.ok) throw refuse(result.error);
    signedOut(ctx, deps);
  },
});

const changePasswordRoute = route({
  method: 'POST',
  path: '/api/v1/me/password',
  operationId: 'changePassword',
  summary: 'Change the password, or set a first one',
  description:
    'currentPassword is required when the account has a password; a social-only account may set a first password with ' +
    'currentPassword null. This session stays signed in; every other session must sign in again.',
  body: ChangePasswordRequest,
  ...noContent('Changed'),
  errors: ['wrong-current-password', 'password-rejected', 'password-guessable', 'password-pwned'],
  run: ({ deps, caller, body }) => changePassword(deps, caller, body),
});

const changeEmailRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/me/email',
  operationId: 'changeEmail',
  summary: 'Ask to move the login to a new address',
  description: CHANGE_EMAIL_DOC,
  body: ChangeEmailRequest,
  responses: { 204: { description: 'Accepted' } },
  errors: ['email-not-an-address'],
  handle: async (ctx, { deps, caller, body, refuse }) => {
    // Answered on the address's form alone; whether it is taken is looked up after the answer has gone out.
    const checked = checkEmailChange(body);
    if (!checked.ok) throw refuse(checked.error);
    acceptedThen(ctx, deps, 'email-change', () => requestEmailChange(deps, caller, body));
  },
});

const confirmEmailRoute = route({
  method: 'POST',
  path: '/api/v1/auth/confirm-email',
  operationId: 'confirmEmail',
  summary: 'Confirm the address with the mailed link',
  description: `The token is single-use and valid ${hours(TOKEN_LIFETIME_MS['confirm-email'])}. An address already confirmed answers 204 again.`,
  ...PUBLIC_SIGN_IN,
  body: ConfirmEmailRequest,
  ...noContent('Confirmed'),
  errors: ['invalid-token'],
  run: ({ deps, body }) => confirmEmail(deps, body),
});

const confirmEmailChangeRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/confirm-email-change',
  operationId: 'confirmEmailChange',
  summary: 'Move the login to the new address with the mailed link',
  description: CONFIRM_EMAIL_CHANGE_DOC,
  ...PUBLIC_SIGN_IN,
  body: ConfirmEmailChangeRequest,
  responses: { 204: { description: 'Moved' } },
  errors: ['invalid-token'],
  handle: async (ctx, { deps, body, refuse }) => {
    const result = await confirmEmailChange(deps, { ...body, keepSession: await optionalCaller(ctx, deps) });
    if (!result.ok) throw refuse(result.error);
    ctx.status = 204;
  },
});

const resendConfirmationRoute = route({
  method: 'POST',
  path: '/api/v1/auth/resend-confirmation',
  operationId: 'resendConfirmation',
  summary: 'Send the confirmation mail again',
  description: '204 without mailing when the address is already confirmed; 429 resend_cooldown (with Retry-After) when one went out less than five minutes ago.',
  rateLimit: 'auth',
  ...noContent('Sent, or nothing to send'),
  errors: ['resend-cooldown'],
  run: ({ deps, caller }) => resendConfirmation(deps, caller.account),
});

const forgotPasswordRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/forgot-password',
  operationId: 'forgotPassword',
  summary: 'Mail a password-reset link',
  description: FORGOT_PASSWORD_DOC,
  ...PUBLIC_SIGN_IN,
  body: ForgotPasswordRequest,
  responses: { 204: { description: 'Accepted' } },
  handle: async (ctx, { deps, body }) => {
    acceptedThen(ctx, deps, 'forgot-password', () => forgotPassword(deps, body));
  },
});

const resetPasswordRoute = route({
  method: 'POST',
  path: '/api/v1/auth/reset-password',
  operationId: 'resetPassword',
  summary: 'Set a new password with the mailed link',
  description:
    'Marks the address confirmed, ends every session of the account and lifts a login lock. The link works once; ' +
    'a password that is too short or breached leaves it usable.',
  ...PUBLIC_SIGN_IN,
  body: ResetPasswordRequest,
  ...noContent('Password set'),
  errors: ['invalid-token', 'password-rejected', 'password-guessable', 'password-pwned'],
  run: ({ deps, body }) => resetPassword(deps, body),
});

export const accountRoutes = (deps: ServiceDeps, settings: RouteSettings) =>
  mount({ ...deps, settings }, [
    registerRoute,
    loginRoute,
    logoutRoute,
    getMeRoute,
    updateMeRoute,
    deleteMeRoute,
    changePasswordRoute,
    changeEmailRoute,
    confirmEmailRoute,
    confirmEmailChangeRoute,
    resendConfirmationRoute,
    forgotPasswordRoute,
    resetPasswordRoute,
  ]);

