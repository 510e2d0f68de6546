import type Koa from 'koa';
import * as v from 'valibot';
import { describeMe } from '../../../core/households/me.js';
import { signInWithNativeToken } from '../../../core/accounts/social-native.js';
import {
  beginSocialSignIn,
  completeSocialSignIn,
  exchangeSignInCode,
  listSocialProviders,
  SIGN_IN_CODE_LIFETIME_MS,
  SIGN_IN_FAILED_PATH,
  SIGN_IN_FLOW_LIFETIME_MS,
  type SignInProviders,
} from '../../../core/accounts/social.js';
import { EMAIL_MAX } from '../../../core/accounts/types.js';
import { mount, resource, PUBLIC_SIGN_IN } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import { setSessionCookie } from '../session-cookie.js';
import type { RouteSettings, ServiceDeps } from '../deps.js';
import { languageOf, MeResponse, toMeResponse } from './accounts.js';

/** The redirect URI registered with every provider. */
export const EXTERNAL_CALLBACK_PATH = '/api/v1/auth/external-callback';
/**
 * Binds a browser flow to the browser that started it: holds the flow's state, is sent only to the callback, and
 * lives as long as the flow. SameSite=Lax still sends it on the provider's top-level redirect back here.
 */
const FLOW_COOKIE = 'app_signin_state';

const minutes = (ms: number) => `${ms / 60_000} minutes`;

const AuthProviderResponse = v.object({ scheme: v.string(), displayName: v.string() });

const ChallengeParams = v.object({ provider: v.string() });
const ChallengeQuery = v.object({
  returnUrl: v.optional(v.string()),
  redirectUri: v.optional(v.string()),
  codeChallenge: v.optional(v.string()),
});
const CallbackQuery = v.looseObject({
  code: v.optional(v.string()),
  state: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
  iss: v.optional(v.string()),
});
const bounded = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`));
const ExchangeAuthCodeRequest = v.object({ code: bounded(128), codeVerifier: bounded(128) });
const IdpNativeSignInRequest = v.object({
  identityToken: bounded(16_384),
  rawNonce: v.optional(v.nullable(bounded(512))),
  givenName: v.optional(v.nullable(bounded(200))),
  familyName: v.optional(v.nullable(bounded(200))),
  email: v.optional(v.nullable(bounded(EMAIL_MAX))),
});

/** A 302 that no cache keeps: the Location may carry a one-time code. */
function redirect(ctx: Koa.Context, location: string): void {
  ctx.status = 302;
  ctx.set('Location', location);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = '';
}

function withQuery(uri: string, name: string, value: string): string {
  const url = new URL(uri);
  url.searchParams.set(name, value);
  return url.toString();
}

function flowCookie(ctx: Koa.Context, value: string, maxAgeSec: number, publicBaseUrl: string): void {
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  ctx.append('Set-Cookie', `${FLOW_COOKIE}=${value}; Path=${EXTERNAL_CALLBACK_PATH}; Max-Age=${maxAgeSec}; HttpOnly; SameSite=Lax${secure}`);
}

const { handledRoute } = resource<ServiceDeps & SignInProviders & { readonly settings: RouteSettings }>('Account and sign-in');

const CHALLENGE_AUTH_PROVIDER_DOC =
  'Answers 302 to the provider\'s authorization endpoint (OpenID Connect discovery from the configured issuer; ' +
  'authorization code flow with PKCE S256, state and nonce between this server and the provider). The flow is kept ' +
  `on the server for ${minutes(SIGN_IN_FLOW_LIFETIME_MS)} and completes once, at ${EXTERNAL_CALLBACK_PATH}. ` +
  'Browser flow: no redirectUri and no codeChallenge; returnUrl is a site-relative path (e.g. /plans), anything ' +
  `else counts as /; the answer also sets the short-lived cookie ${FLOW_COOKIE} that binds the flow to this browser. ` +
  'App flow: both codeChallenge (S256, base64url, 43 characters) and a redirectUri from the allow-list ' +
  '(APP_REDIRECT_URIS); only one of them, a malformed challenge or a URI not on the list gives 400 ' +
  'app_signin_incomplete. The provider name is matched case-insensitively; an unknown one gives 404 unknown_login_provider.';
const EXTERNAL_SIGN_IN_CALLBACK_DOC =
  'The redirect URI registered with every provider. Takes the flow named by state (once; it must be at most ' +
  `${minutes(SIGN_IN_FLOW_LIFETIME_MS)} old), trades the code at the provider and checks its ID token, then signs in ` +
  'the account linked to the provider\'s subject, else the account with the same address when the provider ' +
  'verified it (linking the identity), else a new account without a password. ' +
  `Browser flow: sets the session cookie and answers 302 to returnUrl; when nothing usable came back (an error from the provider, an unknown, used or expired state, a flow started in another browser) 302 to ${SIGN_IN_FAILED_PATH}. ` +
  `App flow: no cookie; 302 to the app's redirectUri with ?code= (single use, valid ${minutes(SIGN_IN_CODE_LIFETIME_MS)}, ` +
  'for POST /api/v1/auth/exchange) or with ?error=account when the sign-in failed.';
const EXCHANGE_AUTH_CODE_DOC =
  `The code from the app flow's redirect lives ${minutes(SIGN_IN_CODE_LIFETIME_MS)} and works once; the proof is ` +
  'the PKCE code verifier whose S256 hash is the codeChallenge given at the challenge. Any try uses the code up. ' +
  'Sets the session cookie. 401 signin_code_spent when the code expired, was used, was never issued, or the ' +
  'verifier does not match.';
const IDP_NATIVE_SIGN_IN_DOC =
  'The identity token (a JWT) is checked against the identity provider\'s keys (IDP_NATIVE_JWKS_URL): signature, ' +
  'issuer, audience (one of IDP_NATIVE_AUDIENCE), expiry; with rawNonce, its nonce claim must be the SHA-256 ' +
  '(lower-case hex) of rawNonce. Signs in the account linked to the token\'s subject, else the account with the ' +
  'token\'s address when the token says it is verified (linking it), else a new account without a password, named ' +
  'from givenName and familyName, else the address\'s local part, else "Dinner user". Sets the session cookie. ' +
  '401 idp_signin_rejected when the token does not check out; 404 idp_signin_unavailable when native sign-in is ' +
  'not configured; 500 account_not_created when no account could be made.';

const listAuthProvidersRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/auth/providers',
  operationId: 'listAuthProviders',
  summary: 'Social sign-in providers configured on this server',
  description: 'The providers the challenge route accepts (AUTH_PROVIDERS); an empty list when none is configured.',
  ...PUBLIC_SIGN_IN,
  responses: { 200: { description: 'The configured providers', schema: v.array(AuthProviderResponse) } },
  handle: (ctx, { deps }) => {
    ctx.body = listSocialProviders(deps);
  },
});

const challengeAuthProviderRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/auth/challenge/{provider}',
  operationId: 'challengeAuthProvider',
  summary: 'Start a social sign-in at a provider',
  description: CHALLENGE_AUTH_PROVIDER_DOC,
  ...PUBLIC_SIGN_IN,
  params: ChallengeParams,
  query: ChallengeQuery,
  responses: { 302: { description: 'To the provider', headers: { Location: 'the provider\'s authorization endpoint' } } },
  errors: ['app-signin-incomplete', 'unknown-login-provider'],
  handle: async (ctx, { deps, params, query, refuse }) => {
    const result = await beginSocialSignIn(deps, { provider: params.provider, ...query });
    if (!result.ok) throw refuse(result.error);
    if (result.value.flow === 'browser') flowCookie(ctx, result.value.state, SIGN_IN_FLOW_LIFETIME_MS / 1000, deps.settings.publicBaseUrl);
    redirect(ctx, result.value.authorizationUrl);
  },
});

const externalSignInCallbackRoute = handledRoute({
  method: 'GET',
  path: EXTERNAL_CALLBACK_PATH,
  operationId: 'externalSignInCallback',
  summary: 'Where the provider sends the browser back',
  description: EXTERNAL_SIGN_IN_CALLBACK_DOC,
  ...PUBLIC_SIGN_IN,
  query: CallbackQuery,
  responses: { 302: { description: 'To returnUrl, /login, or the app\'s redirectUri', headers: { Location: 'where the flow ends' } } },
  handle: async (ctx, { deps, query }) => {
    const browserState = ctx.cookies.get(FLOW_COOKIE);
    if (browserState !== undefined) flowCookie(ctx, '', 0, deps.settings.publicBaseUrl);
    const outcome = await completeSocialSignIn(deps, {
      state: query.state,
      browserState,
      callbackParams: Object.fromEntries(new URLSearchParams(ctx.querystring)),
      language: languageOf(ctx.get('Accept-Language')),
    });
    switch (outcome.kind) {
      case 'signed-in':
        setSessionCookie(ctx, outcome.issued.token, deps.settings.publicBaseUrl);
        return redirect(ctx, outcome.returnUrl);
      case 'app-code':
        return redirect(ctx, withQuery(outcome.redirectUri, 'code', outcome.code));
      case 'app-failed':
        return redirect(ctx, withQuery(outcome.redirectUri, 'error', 'account'));
      case 'failed':
        return redirect(ctx, SIGN_IN_FAILED_PATH);
      default: {
        const unreachable: never = outcome;
        throw new Error(`unhandled outcome ${JSON.stringify(unreachable)}`);
      }
    }
  },
});

const exchangeAuthCodeRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/exchange',
  operationId: 'exchangeAuthCode',
  summary: 'Trade the app flow\'s code for a session',
  description: EXCHANGE_AUTH_CODE_DOC,
  ...PUBLIC_SIGN_IN,
  body: ExchangeAuthCodeRequest,
  responses: { 200: { description: 'Signed in', schema: MeResponse } },
  errors: ['signin-code-spent'],
  handle: async (ctx, { deps, body, refuse }) => {
    const result = await exchangeSignInCode(deps, body);
    if (!result.ok) throw refuse(result.error);
    setSessionCookie(ctx, result.value.issued.token, deps.settings.publicBaseUrl);
    ctx.body = toMeResponse(await describeMe(deps, result.value.account));
  },
});

const idpNativeSignInRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/auth/idp/native',
  operationId: 'idpNativeSignIn',
  summary: 'Sign in with an identity token the app got natively',
  description: IDP_NATIVE_SIGN_IN_DOC,
  ...PUBLIC_SIGN_IN,
  body: IdpNativeSignInRequest,
  responses: { 200: { description: 'Signed in', schema: MeResponse } },
  errors: ['idp-signin-rejected', 'idp-signin-unavailable', 'account-not-created'],
  handle: async (ctx, { deps, body, refuse }) => {
    const result = await signInWithNativeToken(deps, { ...body, language: languageOf(ctx.get('Accept-Language')) });
    if (!result.ok) throw refuse(result.error);
    setSessionCookie(ctx, result.value.issued.token, deps.settings.publicBaseUrl);
    ctx.body = toMeResponse(await describeMe(deps, result.value.account));
  },
});

export const socialRoutes = (deps: ServiceDeps & SignInProviders, settings: RouteSettings) =>
  mount({ ...deps, settings }, [
    listAuthProvidersRoute,
    challengeAuthProviderRoute,
    externalSignInCallbackRoute,
    exchangeAuthCodeRoute,
    idpNativeSignInRoute,
  ]);

