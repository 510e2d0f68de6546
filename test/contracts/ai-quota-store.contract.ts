import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

export function aiQuotaStoreContract(backend: Backend): void {
  storeSuite(backend, 'AiQuotaStore', (s) => {
    const now = at('2026-11-20T12:00:00.000Z');

    it('counts calls per household and month up to the limit', async () => {
      const { id: h } = await ownedHousehold(s);
      const { id: other } = await ownedHousehold(s);
      expect(await s.aiQuota.take(h, '2026-11', 2, now)).to.deep.equal({ allowed: true });
      expect(await s.aiQuota.take(h, '2026-11', 2, now)).to.deep.equal({ allowed: true });
      expect(await s.aiQuota.take(h, '2026-11', 2, now)).to.deep.equal({ allowed: false, why: 'quota-used' });
      expect(await s.aiQuota.used(h, '2026-11')).to.equal(2);
      expect(await s.aiQuota.take(h, '2026-12', 2, now)).to.deep.equal({ allowed: true });
      expect(await s.aiQuota.take(other, '2026-11', 2, now)).to.deep.equal({ allowed: true });
      expect(await s.aiQuota.used(other, '2026-11')).to.equal(1);
      expect(await s.aiQuota.take(h, '2027-01', 0, now)).to.deep.equal({ allowed: false, why: 'quota-used' });
      expect(await s.aiQuota.used(randomUUID(), '2026-11')).to.equal(0);
    });

    it('never lets concurrent callers past the limit together', async () => {
      const { id: h } = await ownedHousehold(s);
      const answers = await Promise.all(Array.from({ length: 12 }, () => s.aiQuota.take(h, '2026-11', 5, now)));
      expect(answers.filter((a) => a.allowed)).to.have.length(5);
      expect(await s.aiQuota.used(h, '2026-11')).to.equal(5);
    });

    it('refuses every call while paused, with the end of the pause, and counts none', async () => {
      const { id: h } = await ownedHousehold(s);
      const until = at('2026-11-21T08:30:00.000Z');
      await s.aiQuota.pause(h, until);
      expect(await s.aiQuota.pausedUntil(h, now)).to.deep.equal(until);
      expect(await s.aiQuota.take(h, '2026-11', 5, now)).to.deep.equal({ allowed: false, why: 'paused', until });
      expect(await s.aiQuota.used(h, '2026-11')).to.equal(0);
      // A pause that has ended is none.
      expect(await s.aiQuota.pausedUntil(h, at('2026-11-21T08:30:00.000Z'))).to.equal(null);
      expect(await s.aiQuota.take(h, '2026-11', 5, at('2026-11-21T09:00:00.000Z'))).to.deep.equal({ allowed: true });
      await s.aiQuota.pause(h, at('2026-12-01T00:00:00.000Z'));
      await s.aiQuota.pause(h, null);
      expect(await s.aiQuota.pausedUntil(h, now)).to.equal(null);
    });

    it('forgets a household\'s calls and pause with the household', async () => {
      const { id: h } = await ownedHousehold(s);
      await s.aiQuota.take(h, '2026-11', 5, now);
      await s.aiQuota.pause(h, at('2026-12-01T00:00:00.000Z'));
      await s.households.delete(h);
      expect(await s.aiQuota.used(h, '2026-11')).to.equal(0);
      expect(await s.aiQuota.pausedUntil(h, now)).to.equal(null);
    });
  });
}
