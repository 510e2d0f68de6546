/** Whether a password is known from breaches (offline list, or a k-anonymity range API). */
export interface BreachedPasswords {
  isBreached(password: string): Promise<boolean>;
}
