/** Unguessable codes people type or read aloud: Crockford base32 (no I, L, O or U), upper case. */
export interface ReadableCodes {
  /** `length` characters, 5 bits of randomness each. */
  newCode(length: number): string;
}
