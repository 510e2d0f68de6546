/**
 * npm run bench:login [-- --n 40]
 * Does the time of a failed sign-in tell whether the address has an account? Sequential logins over loopback
 * against a fresh SQLite service, in four kinds: a known address with a wrong password, an unknown address,
 * a locked known address and a locked unknown address. Prints the median and p90 per kind and the largest
 * difference between medians.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.js';
import { createRuntime } from '../../bootstrap/runtime.js';
import { listen } from '../../bootstrap/server.js';
import { throttleKey } from '../../core/accounts/login.js';

const i = process.argv.indexOf('--n');
const n = i >= 0 ? Number(process.argv[i + 1]) : 40;

const dir = mkdtempSync(join(tmpdir(), 'dinner-bench-login-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  LOG_LEVEL: 'silent',
  OUTBOX_DIR: join(dir, 'outbox'),
  RATE_LIMITS: 'auth=1000000/60,anonymous-per-ip=1000000/60,backstop=1000000/60',
  LOCKOUT: '3/900/300',
});
const runtime = await createRuntime(config);
const server = await listen(runtime, 0, '127.0.0.1');
const post = (path: string, body: unknown) =>
  fetch(server.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

const known = Array.from({ length: n }, (_, k) => `known${k}@example.com`);
const lockedKnown = Array.from({ length: n }, (_, k) => `locked${k}@example.com`);
for (const email of [...known, ...lockedKnown]) await post('/api/v1/auth/register', { email, password: 'the right password', displayName: 'B' });
const unknown = Array.from({ length: n }, (_, k) => `nobody${k}@example.com`);
const lockedUnknown = Array.from({ length: n }, (_, k) => `ghost${k}@example.com`);
const now = runtime.deps.clock.now();
for (const email of [...lockedKnown, ...lockedUnknown]) {
  for (let a = 0; a < 3; a++) await runtime.deps.loginThrottle.recordFailure(throttleKey(runtime.deps, email), now, runtime.deps.lockout);
}

async function timeLogins(emails: string[]): Promise<{ ms: number[]; statuses: Set<number> }> {
  const ms: number[] = [];
  const statuses = new Set<number>();
  for (const email of emails) {
    const t0 = process.hrtime.bigint();
    const res = await post('/api/v1/auth/login', { email, password: 'a wrong password' });
    await res.arrayBuffer();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    statuses.add(res.status);
  }
  return { ms: ms.sort((a, b) => a - b), statuses };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
await timeLogins(unknown.slice(0, 5).map((e) => `warm-${e}`)); // warm-up
const kinds = {
  'known, wrong password': await timeLogins(known),
  'unknown address': await timeLogins(unknown),
  'known, locked': await timeLogins(lockedKnown),
  'unknown, locked': await timeLogins(lockedUnknown),
};
console.log(`${n} sequential logins per kind, loopback, SQLite, argon2id m=19456 t=2`);
for (const [name, r] of Object.entries(kinds)) {
  console.log(`${name.padEnd(24)} status ${[...r.statuses].join(',')}   median ${pct(r.ms, 50).toFixed(1).padStart(6)} ms   p90 ${pct(r.ms, 90).toFixed(1).padStart(6)} ms`);
}
const medians = Object.values(kinds).map((r) => pct(r.ms, 50));
console.log(`largest difference between medians: ${(Math.max(...medians) - Math.min(...medians)).toFixed(1)} ms`);
await server.stop();
