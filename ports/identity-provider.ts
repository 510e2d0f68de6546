/**
 * The identity providers this server trusts, seen from core: OpenID Connect providers for the browser and app
 * flows, the verifier of identity tokens that phone apps got natively (Sign in with Apple and the like), and
 * the PKCE hash. Adapters do the protocol and the cryptography; core decides which account signs in.
 */

/** What a provider vouched for about a person, after every protocol check passed. */
export interface ExternalIdentity {
  /** The token's `iss`: the key, with `subject`, of the linked identity. */
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  /** Only a verified address may join an existing account. */
  readonly emailVerified: boolean;
  /** The `name` claim, when the provider gave one. */
  readonly name: string | null;
}

export interface SocialProvider {
  /** As configured (AUTH_PROVIDERS); what the challenge route names. */
  readonly scheme: string;
  readonly displayName: string;
}

/** The secrets of one authorization request, made by core and kept in the sign-in flow. */
export interface AuthorizationSecrets {
  readonly state: string;
  readonly nonce: string;
  /** PKCE verifier; the adapter sends its S256 challenge. */
  readonly codeVerifier: string;
}

export interface SocialSignIn {
  readonly providers: readonly SocialProvider[];
  /** The provider's authorization endpoint with this request's parameters (authorization code flow). */
  authorizationUrl(scheme: string, secrets: AuthorizationSecrets): Promise<string>;
  /**
   * Checks the provider's answer at the callback (its query parameters) against the secrets, trades the code
   * at the token endpoint and checks the ID token; null when the provider refused or anything did not check out.
   */
  completeSignIn(scheme: string, callbackParams: Readonly<Record<string, string>>, secrets: AuthorizationSecrets): Promise<ExternalIdentity | null>;
}

/** Identity tokens a phone app obtained from the platform's provider. */
export interface NativeIdentityTokens {
  /**
   * Signature against the provider's keys, issuer, audience, expiry, and, when `rawNonce` is given, the
   * token's nonce; null when anything fails.
   */
  verify(identityToken: string, rawNonce: string | null): Promise<ExternalIdentity | null>;
}

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export interface Pkce {
  challengeOf(codeVerifier: string): string;
}
