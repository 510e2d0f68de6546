import type Koa from 'koa';
import type { SessionStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import { authenticate, SESSION_LIFETIME_MS, type Authenticated } from '../../core/accounts/sessions.js';
import { problems } from './problem.js';

export const SESSION_COOKIE = 'app_session';

export interface SessionDeps {
  sessions: SessionStore;
  tokens: SecretTokens;
  clock: Clock;
}

/** HttpOnly, SameSite=Lax, Path=/, Secure when the public base URL is https; Max-Age is the session lifetime. */
export function setSessionCookie(ctx: Koa.Context, token: string, publicBaseUrl: string): void {
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${Math.floor(SESSION_LIFETIME_MS / 1000)}; HttpOnly; SameSite=Lax${secure}`);
}

export function clearSessionCookie(ctx: Koa.Context, publicBaseUrl: string): void {
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
}

/** The session cookie as the `cookies` package reads it (its first occurrence, quotes taken off), without a Cookies object a request. */
const SESSION_IN_HEADER = new RegExp(`(?:^|;) *${SESSION_COOKIE}=([^;]*)`);
const sessionCookie = (ctx: Koa.Context): string | undefined => {
  const header = ctx.req.headers.cookie;
  const value = header ? SESSION_IN_HEADER.exec(header)?.[1] : undefined;
  return value !== undefined && value[0] === '"' ? value.slice(1, -1) : value;
};

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const sessionToken = (ctx: Koa.Context): string | undefined => {
  const t = sessionCookie(ctx);
  return t && TOKEN.test(t) ? t : undefined;
};

/** The signed-in caller when a valid session cookie came along, else null (for public routes that care). */
export async function optionalCaller(ctx: Koa.Context, deps: SessionDeps): Promise<Authenticated | null> {
  const token = sessionToken(ctx);
  if (!token) return null;
  const result = await authenticate(deps, token);
  return result.ok ? result.value : null;
}

/** Puts the signed-in caller on ctx.state.caller, or answers 401 (and clears a dead cookie). */
export function authenticateRequest(deps: SessionDeps, publicBaseUrl: string): (ctx: Koa.Context) => Promise<void> {
  return async (ctx) => {
    const token = sessionToken(ctx);
    const result = token ? await authenticate(deps, token) : null;
    if (!result?.ok) {
      if (sessionCookie(ctx) !== undefined) clearSessionCookie(ctx, publicBaseUrl);
      throw problems.unauthenticated();
    }
    if (result.value.renewed) setSessionCookie(ctx, token!, publicBaseUrl);
    ctx.state['caller'] = result.value;
    // A signed-in answer is the caller's own: no shared cache may keep it. Routes with a caching rule of their own
    // (time-zones, the shopping list) set Cache-Control again in their handler.
    ctx.res.setHeader('Cache-Control', 'no-store');
  };
}

/**
 * A state-changing request that carries the session cookie and comes from another site is refused
 * with 403 cross_site_request. The phone apps send no Origin and pass.
 */
export function crossSiteGuard(publicBaseUrl: string): (ctx: Koa.Context) => void {
  const ownOrigin = new URL(publicBaseUrl).origin;
  return (ctx) => {
    if (sessionCookie(ctx) !== undefined) {
      const origin = ctx.get('Origin');
      const crossOrigin = origin !== '' && origin !== ownOrigin && origin !== `${ctx.protocol}://${ctx.host}`;
      if (ctx.get('Sec-Fetch-Site') === 'cross-site' || crossOrigin) throw problems.crossSite();
    }
  };
}
