import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateRule } from '../../config/config.js';
import { ALLOWED, refused, type RateDecision } from './decision.js';

/** The part of a shared (database) limiter this module uses: add `points` to `key`'s window, or refuse. */
export interface SharedCounter {
  /** Resolves with the window's consumed points; rejects with a RateLimiterRes once they pass the rule's points. */
  consume(key: string, points: number): Promise<RateLimiterRes>;
}

export interface BatchedOptions {
  /** How many requests a process may admit on its own before it must ask the shared counter (0: ask every time). */
  readonly slack: number;
  /** How long admitted requests wait, at most, before they are added to the shared counter. */
  readonly flushMs: number;
  readonly now?: () => number;
}

/** `min(20, points / 20)`: a 600-a-minute backstop lets a process admit 20 on its own; a rule of 19 or fewer none. */
export const defaultSlack = (rule: RateRule): number => Math.min(20, Math.floor(rule.points / 20));

const settled = (): void => undefined;

/** Once this many keys are held, each request looks at the two held longest and forgets them if their window ended. */
const KEYS_BEFORE_FORGETTING = 10_000;

interface KeyState {
  /** Admitted here and not yet added to the shared counter. */
  pending: number;
  /** The shared counter's points as of the last answer it gave. */
  known: number;
  /** Sent to the shared counter, its answer not back yet: counted in this process's view meanwhile. */
  inFlight: number;
  /** When that window ends (ms since the epoch). */
  windowEnds: number;
  timer: NodeJS.Timeout | null;
  /** The last send's settling, while one is under way: the next waits for it (see `send`); null when none is. */
  sent: Promise<void> | null;
}

/**
 * A shared fixed-window counter that is not asked on every request. Far from the limit, a request is admitted here
 * and counted in the shared row in a batch at most `flushMs` later; once this process's view of the window (the
 * shared count it last saw plus its own requests pending or on their way to it) comes within `slack` of the limit, every request goes to
 * the shared counter at once, with the pending ones added in the same call. Each process may therefore admit at
 * most `slack` requests more than the rule in a window, and sees other processes' requests up to `flushMs` late.
 * Meant for the signed-in backstop: on Postgres, asking on every request made one account's concurrent requests
 * queue on its one counter row (docs/performance.md); the classes that guard sign-in stay exact. Over an in-process
 * counter (SQLite: one process) nobody else counts, so it admits exactly what the rule allows, and a request far from
 * the limit is answered without a promise.
 */
export function batchedShared(
  shared: SharedCounter,
  rule: RateRule,
  options: BatchedOptions,
): { consume(key: string): RateDecision | Promise<RateDecision>; close(): Promise<void>; held(): number } {
  const now = options.now ?? Date.now;
  const states = new Map<string, KeyState>();

  // Answers may come back out of order: within one window the count only grows.
  const learn = (s: KeyState, res: RateLimiterRes) => {
    const t = now();
    s.known = Math.max(s.windowEnds <= t ? 0 : s.known, res.consumedPoints);
    s.windowEnds = t + res.msBeforeNext;
  };
  // Sends `points` to the shared counter; they count in this process's view until its answer is learned, in the same
  // callback (between two callbacks another request could be admitted here on a view holding neither). One send of
  // a key at a time, in order: the counter admits a request by its own count, which must hold the points this
  // process sent before it. Sent side by side, a single request could reach the row before the batch of points
  // admitted here earlier and be admitted beside them (41 of a rule of 40 on Postgres; 49 where answers come back
  // in any order). Only requests near the limit, and the batches, are sent.
  const send = (key: string, s: KeyState, points: number): Promise<RateLimiterRes> => {
    s.inFlight += points;
    // With none under way, asked at once (the common case, and what the answer's callback below relies on).
    const asked = s.sent ? s.sent.then(() => shared.consume(key, points)) : shared.consume(key, points);
    const done: Promise<void> = asked.then(settled, settled).then(() => {
      if (s.sent === done) s.sent = null;
    });
    s.sent = done;
    return asked.then(
      (res) => {
        s.inFlight -= points;
        learn(s, res);
        return res;
      },
      (err: unknown) => {
        s.inFlight -= points;
        if (err instanceof RateLimiterRes) learn(s, err);
        throw err;
      },
    );
  };
  const idle = (s: KeyState, t: number) => s.pending === 0 && s.inFlight === 0 && s.timer === null && s.windowEnds <= t;

  const flush = async (key: string, s: KeyState) => {
    s.timer = null;
    const points = s.pending;
    if (points === 0) return;
    s.pending = 0;
    try {
      await send(key, s, points);
    } catch {
      // Over the limit already (learned): the requests were admitted; the next ones are asked for one by one and
      // refused. A counter out of reach: the next request near the limit asks again.
    }
    if (idle(s, now())) states.delete(key);
  };

  // A little on every request rather than a walk of them all: with more keys in use than the bound (the counts of
  // many client addresses in one window), a walk on every request would cost each of them the whole map.
  const forgetOldest = () => {
    const t = now();
    let looked = 0;
    for (const [key, s] of states) {
      if (looked++ === 2) break;
      states.delete(key);
      // Still in use: to the back of the line.
      if (!idle(s, t)) states.set(key, s);
    }
  };

  return {
    /** How many keys are held (tests). */
    held: () => states.size,
    /** Adds what is pending to the shared counter now (before the database closes), and stops the timers. */
    async close() {
      const flushes: Promise<void>[] = [];
      for (const [key, s] of states) {
        if (s.timer) clearTimeout(s.timer);
        flushes.push(flush(key, s));
      }
      await Promise.all(flushes);
    },
    // Not an async function: a request admitted here is answered at once, with no promise (W1, docs/performance.md).
    consume(key) {
      if (states.size > KEYS_BEFORE_FORGETTING) forgetOldest();
      let s = states.get(key);
      if (!s) states.set(key, (s = { pending: 0, known: 0, inFlight: 0, windowEnds: 0, timer: null, sent: null }));
      if (s.windowEnds <= now()) s.known = 0;
      if (options.slack > 0 && s.known + s.inFlight + s.pending + 1 <= rule.points - options.slack) {
        s.pending++;
        const state = s;
        s.timer ??= setTimeout(() => void flush(key, state), options.flushMs).unref();
        return ALLOWED;
      }
      const points = s.pending + 1;
      s.pending = 0;
      return send(key, s, points).then(
        () => ALLOWED,
        (res: unknown) => {
          if (!(res instanceof RateLimiterRes)) throw res;
          return refused(res);
        },
      );
    },
  };
}
