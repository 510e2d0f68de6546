export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** True when the hash was made with other parameters than the current ones (upgrade it at the next sign-in). */
  needsRehash(hash: string): boolean;
  /** Spends the time of a verify when there is no hash to check, so timing never tells whether an account exists. */
  verifyNothing(password: string): Promise<false>;
}
