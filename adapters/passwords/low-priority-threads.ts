import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Argon2Engine } from '../crypto/argon2-hasher.js';

/**
 * The worker's code, plain CommonJS evaluated as a string so the same code runs from source (tsx) and from dist/.
 * On Linux a thread has its own nice value (setpriority on its thread id, found through /proc/thread-self), so
 * these threads hash only with the CPU the event loop leaves over. Elsewhere the call fails and they run at normal
 * priority.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
const argon2 = require(workerData.argon2);
const rest = new Int32Array(new SharedArrayBuffer(4));
parentPort.on('message', ({ id, op, args }) => {
  const started = performance.now();
  try {
    parentPort.postMessage({ id, value: op === 'hash' ? argon2.hashSync(...args) : argon2.verifySync(...args) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
  // The answer has gone; the thread rests before its next job, so it works at most cpuShare of the time.
  const worked = performance.now() - started;
  if (workerData.cpuShare < 1) Atomics.wait(rest, 0, 0, (worked * (1 - workerData.cpuShare)) / workerData.cpuShare);
});
`;

/**
 * The nice value of the hashing threads: well below the event loop (weight 110 against 1024 under Linux's
 * scheduler), yet not the bottom (19), where any busy neighbour would stall sign-ins for seconds.
 */
export const HASH_THREAD_NICE = 10;

type Reply = { id: number; value: string | boolean } | { id: number; error: string };
type Slot = { worker: Worker; jobs: Map<number, { resolve(v: unknown): void; reject(e: Error): void }> };

/**
 * Argon2 on `threads` worker threads of their own at nice `nice` (0-19), started on first use. Each thread hashes
 * one password at a time; more calls wait in its queue. A thread holds the process open only while it has work.
 *
 * `cpuShare` (0 < share ≤ 1, default 1) caps the time a thread works: after each hash it answers, then rests
 * worked × (1 − share) / share before taking the next. A lower nice value alone does not keep a busy hashing thread
 * from slowing the event loop on a small machine (/me's p99 while many clients sign in at full share, against a
 * tenth: docs/performance.md, W7 and the figures from code comments). A single sign-in is not slowed: the rest
 * comes after its answer; a burst waits its turn in the queue.
 */
export function lowPriorityThreads(options: { threads: number; nice: number; cpuShare?: number }): Argon2Engine {
  const cpuShare = options.cpuShare ?? 1;
  if (!(cpuShare > 0 && cpuShare <= 1)) throw new Error(`a hashing thread's CPU share is above 0 and at most 1, not ${cpuShare}`);
  const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const slots: (Slot | null)[] = Array.from({ length: options.threads }, () => null);
  let nextId = 0;
  const start = (index: number): Slot => {
    const worker = new Worker(WORKER, { eval: true, workerData: { argon2, nice: options.nice, cpuShare } });
    const slot: Slot = { worker, jobs: new Map() };
    worker.on('message', (reply: Reply) => {
      const job = slot.jobs.get(reply.id);
      slot.jobs.delete(reply.id);
      if (slot.jobs.size === 0) worker.unref();
      if ('error' in reply) job?.reject(new Error(reply.error));
      else job?.resolve(reply.value);
    });
    // A thread that dies fails its calls under way; the next call starts a new one in its place.
    const fail = (err: Error) => {
      if (slots[index] === slot) slots[index] = null;
      for (const job of slot.jobs.values()) job.reject(err);
      slot.jobs.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`argon2 thread exited with ${code}`)));
    return slot;
  };
  const run = <T>(op: 'hash' | 'verify', args: unknown[]): Promise<T> => {
    let index = 0;
    for (let i = 0; i < slots.length; i++) if ((slots[i]?.jobs.size ?? 0) < (slots[index]?.jobs.size ?? 0)) index = i;
    const slot = (slots[index] ??= start(index));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (slot.jobs.size === 0) slot.worker.ref();
      slot.jobs.set(id, { resolve: resolve as (v: unknown) => void, reject });
      slot.worker.postMessage({ id, op, args });
    });
  };
  return {
    hash: (password, params) => run<string>('hash', [password, params]),
    verify: (phc, password) => run<boolean>('verify', [phc, password]),
  };
}
