import type { BreachedPasswords } from '../../ports/breached-passwords.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { PASSWORD_MIN } from './types.js';

/** Counted in characters (code points), never truncated; the 256 ceiling is checked before any hashing. */
export const passwordLength = (password: string): number => [...password].length;

/** The rules a new password meets: at least 8 characters, and not known from breaches. */
export async function acceptablePassword(
  deps: { breached: BreachedPasswords },
  password: string,
): Promise<Result<void, ErrorOf<'password-rejected' | 'password-pwned'>>> {
  if (passwordLength(password) < PASSWORD_MIN) return fail({ type: 'password-rejected' });
  if (await deps.breached.isBreached(password)) return fail({ type: 'password-pwned' });
  return ok(undefined);
}
