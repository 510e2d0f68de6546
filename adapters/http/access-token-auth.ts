import type Koa from 'koa';
import { accessTokenCaller, bearerCredentials, tokenMayWrite, type AccessTokenDeps } from '../../core/households/access-tokens.js';
import { problemFor } from './problem.js';
import type { AnyRoute } from './route.js';

export type TokenDeps = Pick<AccessTokenDeps, 'accessTokens' | 'tokens' | 'clock'>;

/** Whether the request came with a personal access token (Authorization: Bearer …) rather than the session cookie. */
export const sentToken = (ctx: Koa.Context): boolean => bearerCredentials(ctx.req.headers.authorization) !== null;

/**
 * Puts the caller of a request made with a personal access token on ctx.state.caller, or refuses it, in this order:
 * a route that does not take tokens 403 token_not_for_route (before the token is looked up: it is not wanted here);
 * a token unknown, revoked or of a former member 401 token_invalid, an expired one 401 token_expired; a read token on
 * a writing route 403 token_read_only; another household than the token's 404 household_not_found, as for anyone
 * not a member. The cookie, if one came too, is not read.
 */
export function authenticateToken(deps: TokenDeps, route: AnyRoute): (ctx: Koa.Context) => Promise<void> {
  // A route only a token may call (auth 'token') is no household's path, and its handler decides what the scope allows.
  const ownDoor = route.auth === 'token';
  const writes = route.method !== 'GET' && !ownDoor;
  return async (ctx) => {
    if (route.auth !== 'session-or-token' && !ownDoor) throw problemFor({ type: 'token-not-for-route' });
    const result = await accessTokenCaller(deps, ctx.req.headers.authorization);
    if (!result.ok) throw problemFor(result.error);
    const { token } = result.value;
    if (writes && !tokenMayWrite(token)) throw problemFor({ type: 'token-read-only' });
    // The path's id as sent (validated later): a UUID in capitals still names the same household.
    if (!ownDoor && String(ctx.params['householdId'] ?? '').toLowerCase() !== token.householdId.toLowerCase()) throw problemFor({ type: 'household-not-found' });
    ctx.state['caller'] = result.value;
    // As for a session: the answer is the caller's own, for no shared cache to keep.
    ctx.res.setHeader('Cache-Control', 'no-store');
  };
}
