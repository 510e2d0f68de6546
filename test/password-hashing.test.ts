import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { expect } from 'chai';
import { argon2Hasher, threadpoolArgon2 } from '../adapters/crypto/argon2-hasher.js';
import { boundedHasher } from '../adapters/passwords/bounded-hasher.js';
import { lowPriorityThreads } from '../adapters/passwords/low-priority-threads.js';
import type { PasswordHasher } from '../ports/password-hasher.js';

/** A hasher whose every call waits until the test settles it, recording how many run at once. */
function heldHasher() {
  const started: { what: string; settle(ok: boolean): void }[] = [];
  let running = 0;
  let most = 0;
  const held = <T>(what: string, value: T) =>
    new Promise<T>((resolve, reject) => {
      running++;
      most = Math.max(most, running);
      started.push({
        what,
        settle: (ok) => {
          running--;
          if (ok) resolve(value);
          else reject(new Error(`${what} failed`));
        },
      });
    });
  const inner: PasswordHasher = {
    hash: (p) => held(`hash ${p}`, `phc of ${p}`),
    verify: (phc, p) => held(`verify ${p}`, phc === `phc of ${p}`),
    needsRehash: (phc) => phc.startsWith('old'),
    verifyNothing: (p) => held(`nothing ${p}`, false as const),
  };
  return { inner, started, most: () => most };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('password hashing', () => {
  describe('boundedHasher', () => {
    it('runs at most `limit` hashes at once and starts the waiting ones in arrival order', async () => {
      const { inner, started, most } = heldHasher();
      const hasher = boundedHasher(inner, 2);
      const calls = [hasher.hash('a'), hasher.verify('phc of b', 'b'), hasher.verifyNothing('c'), hasher.verify('phc of x', 'd'), hasher.hash('e')];
      await settled();
      expect(started.map((s) => s.what)).to.deep.equal(['hash a', 'verify b']);
      for (let i = 0; i < calls.length; i++) {
        started[i]!.settle(true);
        await settled();
        expect(started.length, `after ${i + 1} answered`).to.equal(Math.min(calls.length, i + 3));
      }
      expect(started.map((s) => s.what)).to.deep.equal(['hash a', 'verify b', 'nothing c', 'verify d', 'hash e']);
      expect(await Promise.all(calls)).to.deep.equal(['phc of a', true, false, false, 'phc of e']);
      expect(most()).to.equal(2);
    });

    it('treats sign-ins of unknown addresses (verifyNothing) like any other: they wait their turn too', async () => {
      const { inner, started } = heldHasher();
      const hasher = boundedHasher(inner, 1);
      const known = hasher.verify('phc of p', 'p');
      const unknown = hasher.verifyNothing('p');
      await settled();
      expect(started.map((s) => s.what)).to.deep.equal(['verify p']);
      started[0]!.settle(true);
      await settled();
      expect(started.map((s) => s.what)).to.deep.equal(['verify p', 'nothing p']);
      started[1]!.settle(true);
      expect([await known, await unknown]).to.deep.equal([true, false]);
    });

    it('gives the slot of a failed call to the next one', async () => {
      const { inner, started, most } = heldHasher();
      const hasher = boundedHasher(inner, 1);
      const failing = hasher.hash('a');
      const next = hasher.hash('b');
      await settled();
      started[0]!.settle(false);
      expect(await failing.then(() => 'answered', (err: Error) => err.message)).to.equal('hash a failed');
      await settled();
      expect(started).to.have.length(2);
      started[1]!.settle(true);
      expect(await next).to.equal('phc of b');
      // A new call after the queue ran dry starts at once: the count of running calls came back to zero.
      const later = hasher.hash('c');
      await settled();
      expect(started).to.have.length(3);
      started[2]!.settle(true);
      expect(await later).to.equal('phc of c');
      expect(most()).to.equal(1);
    });

    it('answers needsRehash at once, outside the bound, and refuses a limit below 1', () => {
      const { inner, started } = heldHasher();
      expect(boundedHasher(inner, 1).needsRehash('old hash')).to.equal(true);
      expect(started).to.have.length(0);
      expect(() => boundedHasher(inner, 0)).to.throw(/≥ 1/);
      expect(() => boundedHasher(inner, 1.5)).to.throw(/≥ 1/);
    });
  });

  describe('argon2 on low-priority threads', () => {
    const params = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
    // The runner may itself have been started under nice (`nice npm test`): the process's own niceness is the
    // baseline, read before any hashing thread exists, and the threads are asked for a value below it in priority.
    const own = getPriority();
    const hashNice = Math.max(15, Math.min(19, own + 1));
    const threads = lowPriorityThreads({ threads: 2, nice: hashNice });
    const onThreads = argon2Hasher(params, threads);
    const onPool = argon2Hasher(params, threadpoolArgon2);

    it('makes and checks the same argon2id hashes as the threadpool', async () => {
      const fromThreads = await onThreads.hash('a passphrase');
      expect(fromThreads).to.match(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      expect(await onPool.verify(fromThreads, 'a passphrase')).to.equal(true);
      const fromPool = await onPool.hash('another passphrase');
      expect(await onThreads.verify(fromPool, 'another passphrase')).to.equal(true);
      expect(await onThreads.verify(fromPool, 'a wrong passphrase')).to.equal(false);
      expect(await onThreads.verify('not a hash at all', 'x')).to.equal(false);
      expect(await onThreads.verifyNothing('x')).to.equal(false);
      expect(await Promise.all(['p1', 'p2', 'p3', 'p4', 'p5'].map(async (p) => onThreads.verify(await onThreads.hash(p), p)))).to.deep.equal([true, true, true, true, true]);
    });

    it('still makes and checks hashes when each thread may work only part of the time, and refuses a share outside (0, 1]', async () => {
      const rested = argon2Hasher(params, lowPriorityThreads({ threads: 1, nice: 12, cpuShare: 0.5 }));
      const hashes = await Promise.all(['r1', 'r2', 'r3'].map((p) => rested.hash(p)));
      expect(await Promise.all(hashes.map((h, i) => rested.verify(h, `r${i + 1}`)))).to.deep.equal([true, true, true]);
      expect(await rested.verify(hashes[0]!, 'r2')).to.equal(false);
      for (const cpuShare of [0, -0.5, 1.5, Number.NaN]) expect(() => lowPriorityThreads({ threads: 1, nice: 12, cpuShare }), String(cpuShare)).to.throw(/CPU share/);
    });

    it('runs its threads at the nice value asked for (Linux)', async function () {
      // At nice 19 already, no thread can be put below the process.
      if (process.platform !== 'linux' || hashNice === own) this.skip();
      await onThreads.hash('start the threads');
      // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value; fields are counted after the (comm).
      const niceOf = (tid: string) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[16]);
      };
      const nices = readdirSync('/proc/self/task').map(niceOf);
      expect(nices.filter((n) => n === hashNice)).to.have.length(2);
      // Only the hashing threads moved: the main thread keeps the niceness the process had.
      expect(niceOf(String(process.pid))).to.equal(own);
    });
  });
});
