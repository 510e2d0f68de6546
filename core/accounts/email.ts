import { EMAIL_MAX } from './types.js';

/** The form every address is compared in: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// One @, a non-empty local part, a dotted domain of letters, digits and hyphens; no spaces or control characters.
const ADDRESS = /^[^\s@\p{Cc}]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,63}$/u;

export function isEmailAddress(email: string): boolean {
  const e = email.trim();
  if (e.length === 0 || e.length > EMAIL_MAX) return false;
  const at = e.lastIndexOf('@');
  if (at < 1 || at > 64) return false;
  return ADDRESS.test(e);
}
