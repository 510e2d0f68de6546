/**
 * Wrong-password counters per address. The key is a hash of the normalized address, known or not, so the
 * store neither reveals nor needs to know which addresses have accounts.
 */
export interface LoginThrottle {
  /** Until when the key is locked, if it is locked at `now`. */
  lockedUntil(key: string, now: Date): Promise<Date | null>;
  /**
   * Counts one wrong password. Failures older than `windowMs` start a new count; when the count reaches
   * `attempts` the key is locked for `lockMs`. Answers whether this failure locked it.
   */
  recordFailure(key: string, now: Date, rule: { attempts: number; windowMs: number; lockMs: number }): Promise<boolean>;
  /** Forgets the key's failures and lock (a successful sign-in or a password reset). */
  clear(key: string): Promise<void>;
  /** Removes keys that are not locked at `now` and whose count is older than `windowMs`; answers how many went. */
  purge(now: Date, windowMs: number): Promise<number>;
}
