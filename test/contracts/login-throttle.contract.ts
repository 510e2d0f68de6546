import { expect } from 'chai';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at } from './fixtures.js';

const RULE = { attempts: 3, windowMs: 60_000, lockMs: 300_000 };

export function loginThrottleContract(backend: Backend): void {
  storeSuite(backend, 'LoginThrottle', (s) => {
    it('locks a key when the failures within the window reach the limit, until the lock runs out', async () => {
      const t0 = at('2026-07-01T12:00:00.000Z');
      expect(await s.loginThrottle.lockedUntil('k', t0)).to.equal(null);
      expect(await s.loginThrottle.recordFailure('k', t0, RULE)).to.equal(false);
      expect(await s.loginThrottle.recordFailure('k', at('2026-07-01T12:00:10.000Z'), RULE)).to.equal(false);
      expect(await s.loginThrottle.recordFailure('k', at('2026-07-01T12:00:20.000Z'), RULE)).to.equal(true);
      expect(await s.loginThrottle.lockedUntil('k', at('2026-07-01T12:00:21.000Z'))).to.deep.equal(at('2026-07-01T12:05:20.000Z'));
      expect(await s.loginThrottle.lockedUntil('k', at('2026-07-01T12:05:20.000Z'))).to.equal(null);
      expect(await s.loginThrottle.lockedUntil('other', at('2026-07-01T12:00:21.000Z'))).to.equal(null);
    });

    it('starts a new count when the window has passed', async () => {
      await s.loginThrottle.recordFailure('k', at('2026-07-01T12:00:00.000Z'), RULE);
      await s.loginThrottle.recordFailure('k', at('2026-07-01T12:00:30.000Z'), RULE);
      expect(await s.loginThrottle.recordFailure('k', at('2026-07-01T12:01:00.000Z'), RULE)).to.equal(false);
      expect(await s.loginThrottle.lockedUntil('k', at('2026-07-01T12:01:00.000Z'))).to.equal(null);
    });

    it('forgets failures and the lock on clear', async () => {
      for (const sec of [0, 1, 2]) await s.loginThrottle.recordFailure('k', at(`2026-07-01T12:00:0${sec}.000Z`), RULE);
      await s.loginThrottle.clear('k');
      expect(await s.loginThrottle.lockedUntil('k', at('2026-07-01T12:00:03.000Z'))).to.equal(null);
      expect(await s.loginThrottle.recordFailure('k', at('2026-07-01T12:00:04.000Z'), RULE)).to.equal(false);
    });

    it('purges stale unlocked keys and keeps locked and recent ones', async () => {
      const t0 = at('2026-07-01T12:00:00.000Z');
      await s.loginThrottle.recordFailure('stale', t0, RULE);
      for (const sec of [0, 1, 2]) await s.loginThrottle.recordFailure('locked', at(`2026-07-01T12:00:0${sec}.000Z`), RULE);
      await s.loginThrottle.recordFailure('recent', at('2026-07-01T12:01:30.000Z'), RULE);
      expect(await s.loginThrottle.purge(at('2026-07-01T12:02:00.000Z'), RULE.windowMs)).to.equal(1);
      expect(await s.loginThrottle.lockedUntil('locked', at('2026-07-01T12:02:00.000Z'))).to.not.equal(null);
      expect(await s.loginThrottle.recordFailure('recent', at('2026-07-01T12:02:00.000Z'), RULE)).to.equal(false);
      expect(await s.loginThrottle.recordFailure('recent', at('2026-07-01T12:02:01.000Z'), RULE)).to.equal(true);
    });

    it('counts every one of simultaneous failures', async () => {
      const now = at('2026-07-01T12:00:00.000Z');
      const locked = await Promise.all(Array.from({ length: 3 }, () => s.loginThrottle.recordFailure('k', now, RULE)));
      expect(locked.filter(Boolean)).to.have.length(1);
      expect(await s.loginThrottle.lockedUntil('k', now)).to.deep.equal(at('2026-07-01T12:05:00.000Z'));
    });
  });
}
