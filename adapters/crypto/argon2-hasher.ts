import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax). */
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id floor: 19 MiB of memory, 2 iterations, 1 lane. */
export const OWASP_ARGON2ID = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

type Argon2Options = { algorithm: Algorithm; outputLen: number; memoryCost: number; timeCost: number; parallelism: number };

/** Where the argon2 work runs. */
export interface Argon2Engine {
  hash(password: string, options: Argon2Options): Promise<string>;
  verify(phc: string, password: string): Promise<boolean>;
}

/** @node-rs/argon2's own async calls, on libuv's threadpool. */
export const threadpoolArgon2: Argon2Engine = { hash, verify: (phc, password) => verify(phc, password) };

export function argon2Hasher(
  params: { memoryCost: number; timeCost: number; parallelism: number } = OWASP_ARGON2ID,
  engine: Argon2Engine = threadpoolArgon2,
): PasswordHasher {
  const options = { algorithm: ARGON2ID, outputLen: 32, ...params };
  // A real hash of a password nobody has, so verifyNothing costs what verify costs.
  let decoy: Promise<string> | undefined;
  return {
    hash: (password) => engine.hash(password, options),
    async verify(phc, password) {
      try {
        return await engine.verify(phc, password);
      } catch {
        return false;
      }
    },
    needsRehash(phc) {
      const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(phc);
      return !m || Number(m[1]) !== options.memoryCost || Number(m[2]) !== options.timeCost || Number(m[3]) !== options.parallelism;
    },
    async verifyNothing(password) {
      decoy ??= engine.hash('decoy password that matches no account', options);
      await engine.verify(await decoy, password).catch(() => false);
      return false;
    },
  };
}
