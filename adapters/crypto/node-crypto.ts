import { randomUUID, getRandomValues } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase64urlNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
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
  hash(token) {
    return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
  },
};
