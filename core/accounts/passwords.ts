import type { BreachedPasswords } from '../../ports/breached-passwords.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { PASSWORD_MIN } from './types.js';
import { guessableReason } from './guessable-passwords.js';

/** Counted in characters (code points), never truncated; the 256 ceiling is checked before any hashing. */
export const passwordLength = (password: string): number => [...password].length;

/**
 * The rules a new password meets: at least 8 characters, not built only from the service's name, the person's
 * address or name and common words (core/accounts/guessable-passwords.ts), and not known from breaches (checked
 * first).
 */
export async function acceptablePassword(
  deps: { breached: BreachedPasswords },
  password: string,
  person: { readonly email: string; readonly displayName?: string | null },
): Promise<Result<void, ErrorOf<'password-rejected' | 'password-guessable' | 'password-pwned'>>> {
  if (passwordLength(password) < PASSWORD_MIN) return fail({ type: 'password-rejected' });
  // A password seen in a breach says so first (password_pwned), as the API has always answered it.
  if (await deps.breached.isBreached(password)) return fail({ type: 'password-pwned' });
  const guessable = guessableReason(password, person);
  if (guessable !== null) return fail({ type: 'password-guessable', reason: guessable });
  return ok(undefined);
}
