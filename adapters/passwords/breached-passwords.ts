import { createHash } from 'node:crypto';
import type { BreachedPasswords } from '../../ports/breached-passwords.js';
import type { Logger } from '../../ports/logger.js';

/**
 * The offline default: the ~49,000 most common passwords of public breach corpora, as shipped in zxcvbn-ts's
 * common dictionary, compared case-insensitively. The dictionary (several MB in memory) is loaded at the first
 * password checked, not at start: most of a server's life no password is set.
 */
export function offlineBreachedPasswords(): BreachedPasswords {
  let common: Promise<ReadonlySet<string>> | null = null;
  const load = async () => new Set((await import('@zxcvbn-ts/language-common')).dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return { isBreached: async (password) => (await (common ??= load())).has(password.toLowerCase()) };
}

/**
 * The k-anonymity range API (Have I Been Pwned's shape): only the first five hex characters of the password's
 * SHA-1 leave the machine; the answer lists suffixes as `SUFFIX:COUNT` lines. Off unless PWNED_RANGE_API_URL is
 * set. A failing or slow API never blocks a password change: the offline list still applies.
 */
export function rangeApiBreachedPasswords(baseUrl: string, logger: Logger, timeoutMs = 3000): BreachedPasswords {
  return {
    async isBreached(password) {
      const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
      const prefix = sha1.slice(0, 5);
      const suffix = sha1.slice(5);
      try {
        const res = await fetch(`${baseUrl}${prefix}`, { headers: { 'Add-Padding': 'true' }, signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`range API answered ${res.status}`);
        return (await res.text()).split('\n').some((line) => {
          const [s, count] = line.trim().split(':');
          return s === suffix && Number(count) > 0;
        });
      } catch (err) {
        logger.warn('breached-password range API unavailable; offline list only', { err });
        return false;
      }
    },
  };
}

/** Breached when any source says so. */
export function anyOf(...sources: BreachedPasswords[]): BreachedPasswords {
  return {
    async isBreached(password) {
      for (const s of sources) if (await s.isBreached(password)) return true;
      return false;
    },
  };
}
