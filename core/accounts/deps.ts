import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { AccountTokenStore } from '../../ports/account-token-store.js';
import type { BreachedPasswords } from '../../ports/breached-passwords.js';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import type { Mailer } from '../../ports/mailer.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';

/** The ports the account use cases share; each use case names the subset it needs. */
export interface AccountDeps {
  accounts: AccountStore;
  sessions: SessionStore;
  accountTokens: AccountTokenStore;
  loginThrottle: LoginThrottle;
  hasher: PasswordHasher;
  breached: BreachedPasswords;
  mailer: Mailer;
  ids: IdGenerator;
  tokens: SecretTokens;
  clock: Clock;
  /** Base of the links in mails. */
  publicBaseUrl: string;
  /** Wrong passwords before a lock, within a window; then locked for lockMs (config LOCKOUT). */
  lockout: { attempts: number; windowMs: number; lockMs: number };
}
