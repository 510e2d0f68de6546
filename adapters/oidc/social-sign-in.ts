import type * as client from 'openid-client';
import { atFirstUse } from '../first-use.js';
import type { AuthProviderConfig } from '../../config/config.js';
import type { ExternalIdentity, SocialSignIn } from '../../ports/identity-provider.js';
import type { Logger } from '../../ports/logger.js';

export interface OpenIdSettings {
  readonly providers: readonly AuthProviderConfig[];
  /** The one redirect URI registered with every provider: `${publicBaseUrl}/api/v1/auth/external-callback`. */
  readonly redirectUri: string;
  readonly logger: Logger;
  /** Seconds each request to a provider may take. */
  readonly timeoutSec?: number;
}

const SCOPE = 'openid email profile';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * OpenID Connect providers through openid-client: discovery from the configured issuer (on first use, kept
 * while it works and tried again after a failure), authorization code flow with PKCE (S256), state and nonce;
 * openid-client checks the ID token's signature, issuer, audience, expiry and nonce.
 */
/** openid-client, loaded at the first sign-in through a provider. */
const openIdClient = atFirstUse(() => import('openid-client'));

export function openIdSocialSignIn(settings: OpenIdSettings): SocialSignIn {
  const timeout = settings.timeoutSec ?? 10;
  const discovered = new Map<string, Promise<client.Configuration>>();

  const configOf = (scheme: string): Promise<client.Configuration> => {
    const provider = settings.providers.find((p) => p.scheme === scheme);
    if (!provider) return Promise.reject(new Error(`no sign-in provider ${scheme}`));
    let config = discovered.get(scheme);
    if (!config) {
      config = discover(provider, timeout);
      discovered.set(scheme, config);
      config.catch(() => discovered.delete(scheme));
    }
    return config;
  };

  return {
    providers: settings.providers.map((p) => ({ scheme: p.scheme, displayName: p.displayName })),

    async authorizationUrl(scheme, secrets) {
      const config = await configOf(scheme);
      const lib = await openIdClient();
      return lib
        .buildAuthorizationUrl(config, {
          redirect_uri: settings.redirectUri,
          scope: SCOPE,
          code_challenge: await lib.calculatePKCECodeChallenge(secrets.codeVerifier),
          code_challenge_method: 'S256',
          state: secrets.state,
          nonce: secrets.nonce,
        })
        .toString();
    },

    async completeSignIn(scheme, callbackParams, secrets) {
      try {
        const config = await configOf(scheme);
        const lib = await openIdClient();
        const current = new URL(settings.redirectUri);
        for (const [k, v] of Object.entries(callbackParams)) current.searchParams.append(k, v);
        const tokens = await lib.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: secrets.codeVerifier,
          expectedState: secrets.state,
          expectedNonce: secrets.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) return null;
        let profile: Record<string, unknown> = claims;
        // Some providers keep the address and the name for the UserInfo endpoint (the code flow's ID token need
        // not carry scope claims); the ID token's own claims win where both speak.
        if ((claims['email'] === undefined || claims['name'] === undefined) && config.serverMetadata().userinfo_endpoint) {
          const info = await lib.fetchUserInfo(config, tokens.access_token, claims.sub);
          profile = { ...info, ...claims };
          if (claims['email'] === undefined) profile = { ...profile, email: info['email'], email_verified: info['email_verified'] };
        }
        return identityOf(claims.iss, claims.sub, profile);
      } catch (err) {
        // The person declined at the provider, or something did not check out: either way no sign-in.
        const lib = openIdClient.made();
        const declined = lib !== null && err instanceof lib.AuthorizationResponseError;
        settings.logger[declined ? 'info' : 'warn']('social sign-in not completed', { provider: scheme, reason: reasonOf(err) });
        return null;
      }
    },
  };
}

async function discover(p: AuthProviderConfig, timeout: number): Promise<client.Configuration> {
  const issuer = new URL(p.issuer);
  // Plain http only towards this machine (a provider run locally, or in tests); anywhere else TLS is required.
  const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
  const lib = await openIdClient();
  const found = await lib.discovery(issuer, p.clientId, p.clientSecret, undefined, {
    timeout,
    ...(insecure ? { execute: [lib.allowInsecureRequests] } : {}),
  });
  const metadata = found.serverMetadata();
  // client_secret_basic is the default of RFC 7591 and what most providers register; post only when it is all they take.
  const methods = metadata.token_endpoint_auth_methods_supported;
  const auth = !methods || methods.includes('client_secret_basic') ? lib.ClientSecretBasic(p.clientSecret) : lib.ClientSecretPost(p.clientSecret);
  const config = new lib.Configuration(metadata, p.clientId, { client_secret: p.clientSecret }, auth);
  if (insecure) lib.allowInsecureRequests(config);
  config.timeout = timeout;
  return config;
}

export function identityOf(issuer: string, subject: string, claims: Record<string, unknown>): ExternalIdentity {
  const email = typeof claims['email'] === 'string' && claims['email'] !== '' ? claims['email'] : null;
  const name = typeof claims['name'] === 'string' && claims['name'].trim() !== '' ? claims['name'] : null;
  // Some providers (Apple) send the boolean as a string.
  const verified = claims['email_verified'] === true || claims['email_verified'] === 'true';
  return { issuer, subject, email, emailVerified: email !== null && verified, name };
}

const reasonOf = (err: unknown): string => {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${err.name}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message}`;
  }
  return String(err);
};
