import { createHash } from 'node:crypto';
import { atFirstUse, joseLibrary } from '../first-use.js';
import type { Clock } from '../../ports/clock.js';
import type { NativeIdentityTokens } from '../../ports/identity-provider.js';
import { identityOf } from './social-sign-in.js';

export interface NativeSettings {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly jwksUrl: string;
}

/** Signatures by the provider's published keys only: no symmetric algorithm, no `none`. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Identity tokens checked with jose against the provider's JWKS (fetched on demand and cached by jose): signature,
 * issuer, one of the audiences, expiry, and the nonce. The app hashes its raw nonce into the request (Apple's
 * convention), so the token's `nonce` must be the SHA-256 (hex) of the raw nonce the app sends here.
 */
export function joseNativeIdentityTokens(settings: NativeSettings, clock: Clock): NativeIdentityTokens {
  const keys = atFirstUse(async () => (await joseLibrary()).createRemoteJWKSet(new URL(settings.jwksUrl)));
  return {
    async verify(identityToken, rawNonce) {
      const { jwtVerify, errors } = await joseLibrary();
      try {
        const { payload } = await jwtVerify(identityToken, await keys(), {
          issuer: settings.issuer,
          audience: [...settings.audiences],
          algorithms: ALGORITHMS,
          requiredClaims: ['sub', 'exp'],
          currentDate: clock.now(),
          clockTolerance: 30,
        });
        if (rawNonce !== null && payload['nonce'] !== createHash('sha256').update(rawNonce, 'utf8').digest('hex')) return null;
        return identityOf(payload.iss!, payload.sub!, payload);
      } catch (err) {
        // The token did not check out. A provider that cannot be reached is a fault of ours to log, not a refusal.
        if (err instanceof errors.JOSEError && !(err instanceof errors.JWKSTimeout)) return null;
        throw err;
      }
    },
  };
}
