import { randomInt } from 'node:crypto';
import type { ReadableCodes } from '../../ports/readable-codes.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const randomReadableCodes: ReadableCodes = {
  newCode(length) {
    let code = '';
    for (let i = 0; i < length; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    return code;
  },
};

/** What a person typed, in the form codes are stored in: upper case, without spaces or dashes, O→0, I/L→1. */
export function normalizeReadableCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}
