import type Koa from 'koa';
import type { Logger } from '../../ports/logger.js';

/** Work a route hands on so that its answer, and the answer's timing, cannot depend on it. */
export interface AfterAnswer {
  /** Runs `task` once the answer to `ctx` has gone out (or its connection closed); tasks run one at a time, in order. */
  run(ctx: Koa.Context, name: string, task: () => Promise<unknown>): void;
  /** Waits for the tasks handed on so far (tests), or at most `timeoutMs` (graceful shutdown). */
  drain(timeoutMs?: number): Promise<void>;
}

/**
 * One queue per process. A task is queued when the route hands it on, before the answer is written, so a caller
 * that has the answer and then drains finds it; it starts only after the answer is finished, so neither the
 * answer's bytes, its Server-Timing query count nor its duration says what the task found. In order, one at a
 * time: a second request for the same thing sees what the first one's task did.
 */
export function afterAnswerQueue(logger: Logger): AfterAnswer {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  return {
    run(ctx, name, task) {
      const res = ctx.res;
      const answered = new Promise<void>((resolve) => {
        if (res.writableFinished || res.destroyed) return resolve();
        res.once('finish', () => resolve());
        res.once('close', () => resolve());
      });
      pending++;
      tail = tail
        .then(() => answered)
        .then(task)
        .then(
          () => undefined,
          (err: unknown) => logger.error('work after the answer failed', { task: name, err }),
        )
        .finally(() => void pending--);
    },
    async drain(timeoutMs = Infinity) {
      if (pending === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        tail.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.min(timeoutMs, 2 ** 31 - 1)))),
      ]);
      clearTimeout(timer);
      if (!waited) logger.error('work after the answer not finished before shutdown', { count: pending });
    },
  };
}
