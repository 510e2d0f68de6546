import { createHash } from 'node:crypto';
import type { Pkce } from '../../ports/identity-provider.js';

/** RFC 7636 S256: the unpadded base64url of the verifier's SHA-256. */
export const s256Pkce: Pkce = {
  challengeOf: (codeVerifier) => createHash('sha256').update(codeVerifier, 'utf8').digest('base64url'),
};
