import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

async function household(s: Stores) {
  const { id } = await ownedHousehold(s);
  return id;
}

const token = () => randomUUID().replace(/-/g, '') + 'Ab_-';

export function dinnerCalendarStoreContract(backend: Backend): void {
  storeSuite(backend, 'DinnerCalendarStore', (s) => {
    /** Two households, the first with a link made on 1 March (its token `t`). */
    async function oneLinked() {
      const h = await household(s);
      const other = await household(s);
      const t = token();
      await s.dinnerCalendars.ensure(h, t, at('2026-03-01T10:00:00.000Z'));
      return { h, other, t };
    }

    it('makes a household\'s link once and round-trips it, dates with milliseconds', async () => {
      const h = await household(s);
      expect(await s.dinnerCalendars.linkOf(h)).to.equal(null);
      const t = token();
      const link = await s.dinnerCalendars.ensure(h, t, at('2026-03-01T10:00:00.123Z'));
      expect(link).to.deep.equal({ householdId: h, token: t, createdAt: at('2026-03-01T10:00:00.123Z'), updatedAt: at('2026-03-01T10:00:00.123Z') });
      expect(await s.dinnerCalendars.linkOf(h)).to.deep.equal(link);
      expect(await s.dinnerCalendars.ensure(h, token(), at('2026-03-02T10:00:00.000Z'))).to.deep.equal(link);
      expect(await s.dinnerCalendars.householdOf(t)).to.equal(h);
    });

    it('gives concurrent first calls one link', async () => {
      const h = await household(s);
      const links = await Promise.all(Array.from({ length: 5 }, () => s.dinnerCalendars.ensure(h, token(), at('2026-03-01T10:00:00.000Z'))));
      expect(new Set(links.map((l) => l.token)).size).to.equal(1);
      expect(await s.dinnerCalendars.linkOf(h)).to.deep.equal(links[0]);
    });

    it('replaces the token: the old one finds nothing, created stays, updated moves', async () => {
      const h = await household(s);
      const first = token();
      await s.dinnerCalendars.ensure(h, first, at('2026-03-01T10:00:00.000Z'));
      const second = token();
      const link = await s.dinnerCalendars.replace(h, second, at('2026-03-05T08:30:00.250Z'));
      expect(link).to.deep.equal({ householdId: h, token: second, createdAt: at('2026-03-01T10:00:00.000Z'), updatedAt: at('2026-03-05T08:30:00.250Z') });
      expect(await s.dinnerCalendars.householdOf(first)).to.equal(null);
      expect(await s.dinnerCalendars.householdOf(second)).to.equal(h);
    });

    it('turns a link off (null token), and keeps it off for ensure; several households may be off at once', async () => {
      const { h, other, t } = await oneLinked();
      const off = await s.dinnerCalendars.replace(h, null, at('2026-03-02T10:00:00.000Z'));
      expect(off.token).to.equal(null);
      expect(await s.dinnerCalendars.householdOf(t)).to.equal(null);
      expect((await s.dinnerCalendars.ensure(h, token(), at('2026-03-03T10:00:00.000Z'))).token).to.equal(null);
      // Turning off a household that never had a link writes one that stays off.
      expect(await s.dinnerCalendars.replace(other, null, at('2026-03-02T10:00:00.000Z'))).to.deep.equal({
        householdId: other, token: null, createdAt: at('2026-03-02T10:00:00.000Z'), updatedAt: at('2026-03-02T10:00:00.000Z'),
      });
      expect((await s.dinnerCalendars.ensure(other, token(), at('2026-03-03T10:00:00.000Z'))).token).to.equal(null);
      const back = token();
      expect((await s.dinnerCalendars.replace(h, back, at('2026-03-04T10:00:00.000Z'))).token).to.equal(back);
      expect(await s.dinnerCalendars.householdOf(back)).to.equal(h);
    });

    it('scopes links by household and drops them with the household', async () => {
      const { h, other, t } = await oneLinked();
      expect(await s.dinnerCalendars.linkOf(other)).to.equal(null);
      expect(await s.dinnerCalendars.householdOf(t.toLowerCase() === t ? t.toUpperCase() : t.toLowerCase())).to.equal(null);
      await s.households.delete(h);
      expect(await s.dinnerCalendars.linkOf(h)).to.equal(null);
      expect(await s.dinnerCalendars.householdOf(t)).to.equal(null);
    });
  });
}
