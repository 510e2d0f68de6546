import { hash, randomUUID, getRandomValues } from 'node:crypto';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import type { IdGenerator } from '../../ports/ids.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';

export const uuidIds: IdGenerator = { newId: () => randomUUID() };

/** 32 random bytes (256 bits), base64url; stored as lower-case hex SHA-256. */
export const randomTokens: SecretTokens = {
  generate() {
    const bytes = new Uint8Array(32);
    getRandomValues(bytes);
    return encodeBase64urlNoPadding(bytes);
  },
  // Node's own one-shot SHA-256: it runs on every signed-in request, where the JavaScript one, and a Hash object
  // (createHash, update, digest), cost GET /me measurably more (docs/performance.md, figures from code comments).
  hash(token) {
    return hash('sha256', token, 'hex');
  },
};
