import type { Clock } from '../../ports/clock.js';

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and move. */
export function fixedClock(start: Date): Clock & { set(d: Date): void; advance(ms: number): void } {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = d.getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
