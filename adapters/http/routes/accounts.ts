import * as v from 'valibot';
import { describeMe, updateMe, type Me } from '../../../core/accounts/me.js';
import { login } from '../../../core/accounts/login.js';
import { logout } from '../../../core/accounts/logout.js';
import { register } from '../../../core/accounts/register.js';
import { DISPLAY_NAME_MAX, EMAIL_MAX, PASSWORD_MAX } from '../../../core/accounts/types.js';
import { ROLES } from '../../../core/households/types.js';
import { problemFor } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { Uuid, IsoDateTime } from '../schemas.js';
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js';
import type { RouteSettings, ServiceDeps } from '../deps.js';

const UserResponse = v.object({ id: Uuid, email: v.nullable(v.string()), displayName: v.string() });
export const MembershipResponse = v.object({
  householdId: Uuid,
  householdName: v.string(),
  role: v.picklist(ROLES),
  memberId: v.nullable(Uuid),
});
const MeResponse = v.object({
  user: UserResponse,
  memberships: v.array(MembershipResponse),
  isPlatformAdmin: v.boolean(),
  emailConfirmed: v.boolean(),
  hasPassword: v.boolean(),
  serverNow: v.nullable(IsoDateTime),
});

const Email = v.pipe(v.string(), v.maxLength(EMAIL_MAX, `at most ${EMAIL_MAX} characters`));
const Password = v.pipe(v.string(), v.maxLength(PASSWORD_MAX, `at most ${PASSWORD_MAX} characters`));
const RegisterRequest = v.object({
  email: Email,
  password: Password,
  displayName: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(DISPLAY_NAME_MAX, `at most ${DISPLAY_NAME_MAX} characters`)),
});
const LoginRequest = v.object({ email: Email, password: Password });
const UpdateMeRequest = v.object({ displayName: v.string() });

export function toMeResponse(me: Me): v.InferOutput<typeof MeResponse> {
  return {
    user: { id: me.account.id, email: me.account.email, displayName: me.account.displayName },
    memberships: me.memberships.map((m) => ({ ...m })),
    isPlatformAdmin: me.isPlatformAdmin,
    emailConfirmed: me.account.emailConfirmed,
    hasPassword: me.account.passwordHash !== null,
    serverNow: me.serverNow.toISOString(),
  };
}

export function accountRoutes(deps: ServiceDeps, settings: RouteSettings): AnyRoute[] {
  const tag = 'Account and sign-in';
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/register',
      operationId: 'register',
      summary: 'Create an account',
      description:
        '200 with no body whether or not the address already has an account, so the answer never tells. A fresh ' +
        'address gets an account and the session cookie; a known address gets no session. Passwords: 8 to 256 characters.',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      body: RegisterRequest,
      responses: { 200: { description: 'Accepted (no body); Set-Cookie app_session for a fresh address' } },
      problems: { signup_rejected: 400 },
      handler: async (ctx, { body }) => {
        const result = await register(deps, body);
        if (!result.ok) throw problemFor(result.error);
        if (result.value.kind === 'created') setSessionCookie(ctx, result.value.issued.token, settings.publicBaseUrl);
        ctx.status = 200;
        ctx.body = '';
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/login',
      operationId: 'login',
      summary: 'Sign in with e-mail and password',
      description: 'Sets the session cookie app_session (HttpOnly, SameSite=Lax, Secure on https, 30 days sliding).',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      body: LoginRequest,
      responses: { 200: { description: 'Signed in', schema: MeResponse } },
      problems: { invalid_credentials: 401 },
      handler: async (ctx, { body }) => {
        const result = await login(deps, body);
        if (!result.ok) throw problemFor(result.error);
        setSessionCookie(ctx, result.value.issued.token, settings.publicBaseUrl);
        ctx.body = toMeResponse(await describeMe(deps, result.value.account));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/logout',
      operationId: 'logout',
      summary: 'Sign out',
      description:
        'Ends this session and rotates the account security stamp, so every other copy of a session minted before ' +
        'fails its next check (the account is signed out everywhere).',
      tag,
      auth: 'session',
      rateLimit: 'auth',
      responses: { 204: { description: 'Signed out; the cookie is cleared' } },
      handler: async (ctx, { caller }) => {
        await logout(deps, caller);
        clearSessionCookie(ctx, settings.publicBaseUrl);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/me',
      operationId: 'getMe',
      summary: 'The signed-in account and its households',
      description: '401 also when the cookie belongs to an account that no longer exists.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      responses: { 200: { description: 'The caller', schema: MeResponse } },
      handler: async (ctx, { caller }) => {
        ctx.body = toMeResponse(await describeMe(deps, caller.account));
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/me',
      operationId: 'updateMe',
      summary: 'Change the display name',
      description: 'Only the display name changes; it is trimmed and must then be 1 to 80 characters.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      body: UpdateMeRequest,
      responses: { 200: { description: 'The caller after the change', schema: MeResponse } },
      problems: { account_name_length: 400 },
      handler: async (ctx, { caller, body }) => {
        const result = await updateMe(deps, caller.account, body);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = toMeResponse(result.value);
      },
    }),
  ];
}
