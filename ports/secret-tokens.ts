/** Unguessable tokens (sessions, security stamps, mail links) and the hash they are stored under. */
export interface SecretTokens {
  /** At least 128 bits of randomness, URL-safe. */
  generate(): string;
  /** Deterministic, one-way: what a store keeps instead of the token. */
  hash(token: string): string;
}
