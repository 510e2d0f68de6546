import type { SessionStore } from '../../ports/account-store.js';
import type { NativeIdentityTokens, Pkce, SocialProvider, SocialSignIn } from '../../ports/identity-provider.js';
import type { SignInCodeStore, SignInFlowStore } from '../../ports/identity-store.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { startSession, type IssuedSession } from './sessions.js';
import { accountForIdentity, displayNameFrom, type IdentityAccountDeps } from './social-accounts.js';
import type { Account, AccountLanguage } from './types.js';

/** A sign-in flow must come back from the provider within ten minutes of its challenge. */
export const SIGN_IN_FLOW_LIFETIME_MS = 10 * 60 * 1000;
/** The code an app receives lives two minutes and works once. */
export const SIGN_IN_CODE_LIFETIME_MS = 2 * 60 * 1000;
/** Where the browser flow ends when no usable answer came back. */
export const SIGN_IN_FAILED_PATH = '/login';

const RETURN_URL_MAX = 2048;
/** An S256 challenge: base64url of 32 bytes, no padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface SocialSignInDeps extends IdentityAccountDeps {
  social: SocialSignIn;
  signInFlows: SignInFlowStore;
  signInCodes: SignInCodeStore;
  sessions: SessionStore;
  /** Redirect URIs an app may ask the flow to end on (config APP_REDIRECT_URIS), compared exactly. */
  appRedirectUris: ReadonlySet<string>;
}

/** The stores of social and native sign-in, wired with the other stores. */
export type SignInStores = Pick<SocialSignInDeps, 'identities' | 'signInFlows' | 'signInCodes'>;

/** The providers and checks of social and native sign-in, made from the configuration. */
export interface SignInProviders {
  social: SocialSignIn;
  /** null when native sign-in is not configured. */
  nativeIdp: NativeIdentityTokens | null;
  pkce: Pkce;
  appRedirectUris: ReadonlySet<string>;
}

export const listSocialProviders = (deps: Pick<SocialSignInDeps, 'social'>): SocialProvider[] =>
  deps.social.providers.map((p) => ({ scheme: p.scheme, displayName: p.displayName }));

/**
 * Only a path on this site: one leading slash, not two (which would name another host), no backslash (which
 * browsers read as a slash) and no control character (which browsers drop). Anything else is replaced by '/'.
 */
export function siteRelativePath(value: string | undefined): string {
  if (value === undefined || value.length > RETURN_URL_MAX) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /\p{Cc}/u.test(value)) return '/';
  return value;
}

export interface ChallengeInput {
  provider: string;
  returnUrl?: string | undefined;
  /** The app flow: both, or neither. */
  redirectUri?: string | undefined;
  codeChallenge?: string | undefined;
}

export interface Challenge {
  /** The provider's authorization endpoint to send the browser to. */
  readonly authorizationUrl: string;
  /** Sent to the provider; the browser flow also binds it to the browser that asked. */
  readonly state: string;
  readonly flow: 'browser' | 'app';
}

const given = (s: string | undefined): string | null => (s === undefined || s === '' ? null : s);

/** Starts a sign-in at a provider: the flow's secrets are kept here, keyed by the hash of its state. */
export async function beginSocialSignIn(
  deps: Pick<SocialSignInDeps, 'social' | 'signInFlows' | 'tokens' | 'clock' | 'appRedirectUris'>,
  input: ChallengeInput,
): Promise<Result<Challenge, ErrorOf<'unknown-login-provider' | 'app-signin-incomplete'>>> {
  const provider = deps.social.providers.find((p) => p.scheme.toLowerCase() === input.provider.toLowerCase());
  if (!provider) return fail({ type: 'unknown-login-provider' });
  const redirectUri = given(input.redirectUri);
  const codeChallenge = given(input.codeChallenge);
  let app: { redirectUri: string; codeChallenge: string } | null = null;
  if (redirectUri !== null || codeChallenge !== null) {
    if (redirectUri === null || codeChallenge === null || !deps.appRedirectUris.has(redirectUri) || !S256_CHALLENGE.test(codeChallenge)) {
      return fail({ type: 'app-signin-incomplete' });
    }
    app = { redirectUri, codeChallenge };
  }

  const secrets = { state: deps.tokens.generate(), nonce: deps.tokens.generate(), codeVerifier: deps.tokens.generate() };
  const authorizationUrl = await deps.social.authorizationUrl(provider.scheme, secrets);
  const now = deps.clock.now();
  // Abandoned flows go as new ones come: the table stays as small as the last ten minutes' challenges.
  await deps.signInFlows.deleteExpired(now);
  await deps.signInFlows.save({
    stateHash: deps.tokens.hash(secrets.state),
    provider: provider.scheme,
    codeVerifier: secrets.codeVerifier,
    nonce: secrets.nonce,
    returnUrl: siteRelativePath(input.returnUrl),
    app,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_FLOW_LIFETIME_MS),
  });
  return ok({ authorizationUrl, state: secrets.state, flow: app ? 'app' : 'browser' });
}

export interface CallbackInput {
  /** The `state` query parameter. */
  state: string | undefined;
  /** The state the browser was given at a browser-flow challenge (its cookie); undefined when none came. */
  browserState: string | undefined;
  /** Every query parameter of the callback, for the provider adapter. */
  callbackParams: Readonly<Record<string, string>>;
  /** The language of a new account's mails. */
  language?: AccountLanguage | undefined;
}

/** How a callback ends; each is a redirect. */
export type CallbackOutcome =
  | { kind: 'signed-in'; account: Account; issued: IssuedSession; returnUrl: string }
  | { kind: 'app-code'; redirectUri: string; code: string }
  | { kind: 'app-failed'; redirectUri: string }
  | { kind: 'failed' };

/**
 * The provider's answer: the flow is taken (single use), the provider's code traded and its ID token checked by
 * the adapter, and the identity's account found or made. The browser flow signs in; the app flow gets a code.
 */
export async function completeSocialSignIn(deps: SocialSignInDeps, input: CallbackInput): Promise<CallbackOutcome> {
  if (!input.state) return { kind: 'failed' };
  const flow = await deps.signInFlows.take(deps.tokens.hash(input.state));
  if (!flow || flow.expiresAt.getTime() <= deps.clock.now().getTime()) return { kind: 'failed' };
  // A browser flow ends only in the browser that started it: a callback link made by someone else (login CSRF,
  // RFC 6749 10.12) does not sign this browser in to their account. The app flow has its PKCE proof instead.
  if (flow.app === null && input.browserState !== input.state) return { kind: 'failed' };
  const failed: CallbackOutcome = flow.app ? { kind: 'app-failed', redirectUri: flow.app.redirectUri } : { kind: 'failed' };
  if (!deps.social.providers.some((p) => p.scheme === flow.provider)) return failed;

  const identity = await deps.social.completeSignIn(flow.provider, input.callbackParams, {
    state: input.state,
    nonce: flow.nonce,
    codeVerifier: flow.codeVerifier,
  });
  if (!identity) return failed;
  const account = await accountForIdentity(deps, identity, displayNameFrom(identity.name, identity.email), input.language);
  if (!account.ok) return failed;

  if (flow.app) {
    const code = deps.tokens.generate();
    const now = deps.clock.now();
    await deps.signInCodes.deleteExpired(now);
    await deps.signInCodes.save({
      codeHash: deps.tokens.hash(code),
      accountId: account.value.id,
      codeChallenge: flow.app.codeChallenge,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_IN_CODE_LIFETIME_MS),
    });
    return { kind: 'app-code', redirectUri: flow.app.redirectUri, code };
  }
  const issued = await startSession(deps, account.value);
  // The account was deleted at this very moment: a fault of that instant, answered as one.
  if (!issued) throw new Error('the account was deleted while it signed in');
  return { kind: 'signed-in', account: account.value, issued, returnUrl: flow.returnUrl };
}

/**
 * The app trades its code and the verifier of the challenge it sent at the start. The code goes at the first
 * try, right or wrong, so it cannot be guessed at; an unknown, expired or used code answers the same.
 */
export async function exchangeSignInCode(
  deps: Pick<SocialSignInDeps, 'signInCodes' | 'accounts' | 'sessions' | 'tokens' | 'clock'> & { pkce: Pkce },
  input: { code: string; codeVerifier: string },
): Promise<Result<{ account: Account; issued: IssuedSession }, ErrorOf<'signin-code-spent'>>> {
  const found = await deps.signInCodes.take(deps.tokens.hash(input.code));
  if (!found || found.expiresAt.getTime() <= deps.clock.now().getTime()) return fail({ type: 'signin-code-spent' });
  if (deps.pkce.challengeOf(input.codeVerifier) !== found.codeChallenge) return fail({ type: 'signin-code-spent' });
  const account = await deps.accounts.byId(found.accountId);
  if (!account) return fail({ type: 'signin-code-spent' });
  const issued = await startSession(deps, account);
  if (!issued) return fail({ type: 'signin-code-spent' });
  return ok({ account, issued });
}
