export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of a verify when there is no hash to check, so timing never tells whether an account exists. */
  verifyNothing(password: string): Promise<false>;
}
