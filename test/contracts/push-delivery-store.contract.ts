import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { DEFAULT_SWITCHES } from '../../core/push/types.js';
import type { NewDelivery } from '../../ports/push-delivery-store.js';
import type { OutboxEntry } from '../../ports/push-outbox.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const T0 = '2026-04-01T08:00:00.000Z';
const plus = (ms: number, from = T0) => new Date(at(from).getTime() + ms);

export function pushDeliveryStoreContract(backend: Backend): void {
  storeSuite(backend, 'PushDeliveryStore', (s) => {
    /** A household of one login with one device, and an outbox entry of it. */
    async function setup(token = `token${randomUUID().slice(0, 8)}`) {
      const { id: householdId, owner } = await ownedHousehold(s, { at: at(T0) });
      await s.pushDevices.register({ token, accountId: owner.id, platform: 'ios', provider: 'apns', at: at(T0) }, DEFAULT_SWITCHES);
      const entry = async (): Promise<OutboxEntry> => {
        const e: OutboxEntry = {
          id: randomUUID(),
          householdId,
          event: { kind: 'list-item-added', planId: randomUUID(), lineId: randomUUID(), displayName: 'Melk', actorAccountId: owner.id },
          createdAt: at(T0),
        };
        await s.pushOutbox.record(e);
        return e;
      };
      const delivery = (over: Partial<NewDelivery> = {}): NewDelivery => ({
        id: randomUUID(),
        householdId,
        accountId: owner.id,
        token,
        switch: 'listChanges',
        message: { title: 'Hansen', body: 'Kari la til melk på handlelisten', data: { kind: 'list-item-added', householdId }, collapseKey: null },
        createdAt: at(T0),
        ...over,
      });
      return { owner, householdId, token, entry, delivery };
    }
    const claim = (now: Date, limit = 10, leaseMs = 60_000) => ({ claimId: randomUUID(), now, until: new Date(now.getTime() + leaseMs), limit });

    it('hands entries over with their deliveries, round-tripping a delivery', async () => {
      const h = await setup();
      const e = await h.entry();
      const d = h.delivery({ message: { title: 'Hansen', body: 'Ø æ å', data: { kind: 'x', count: '3' }, collapseKey: 'ticked-1' } });
      expect(await s.pushDeliveries.handOver([e.id], [d], plus(1000))).to.equal(true);
      expect(await s.pushOutbox.pending(10)).to.deep.equal([]);
      const expected = { ...d, state: 'pending', attempts: 0, nextAttemptAt: d.createdAt, lastError: null, finishedAt: null };
      expect(await s.pushDeliveries.ofHousehold(h.householdId)).to.deep.equal([expected]);
      expect(await s.pushDeliveries.claimDue(claim(plus(2000)))).to.deep.equal([expected]);
    });

    it('hands an entry over once: a second hand-over, or one of simultaneous ones, writes nothing', async () => {
      const h = await setup();
      const [e1, e2] = [await h.entry(), await h.entry()];
      expect(await s.pushDeliveries.handOver([e1.id], [h.delivery()], at(T0))).to.equal(true);
      // e2 is pending but e1 is not: all or nothing.
      expect(await s.pushDeliveries.handOver([e1.id, e2.id], [h.delivery()], at(T0))).to.equal(false);
      expect((await s.pushOutbox.pending(10)).map((e) => e.id)).to.deep.equal([e2.id]);
      expect(await s.pushDeliveries.ofHousehold(h.householdId)).to.have.length(1);
      const e3 = await h.entry();
      const results = await Promise.all(Array.from({ length: 4 }, () => s.pushDeliveries.handOver([e2.id, e3.id], [h.delivery()], at(T0))));
      expect(results.filter(Boolean)).to.have.length(1);
      expect(await s.pushDeliveries.ofHousehold(h.householdId)).to.have.length(2);
      // An entry with nobody to tell is handed over with no deliveries.
      const e4 = await h.entry();
      expect(await s.pushDeliveries.handOver([e4.id], [], at(T0))).to.equal(true);
      expect(await s.pushOutbox.pending(10)).to.deep.equal([]);
    });

    it('claims due deliveries oldest first, up to the limit, and never two claims the same one', async () => {
      const h = await setup();
      const e = await h.entry();
      const ds = [3, 1, 2, 4].map((n) => h.delivery({ createdAt: plus(n * 1000) }));
      await s.pushDeliveries.handOver([e.id], ds, at(T0));
      expect(await s.pushDeliveries.claimDue(claim(plus(500)))).to.deep.equal([]);
      const first = await s.pushDeliveries.claimDue(claim(plus(3500), 2));
      expect(first.map((d) => d.createdAt)).to.deep.equal([plus(1000), plus(2000)]);
      // The two claimed are held; the third is due, the fourth not yet.
      expect((await s.pushDeliveries.claimDue(claim(plus(3500)))).map((d) => d.createdAt)).to.deep.equal([plus(3000)]);
      const later = plus(10_000);
      const racing = await Promise.all(Array.from({ length: 3 }, () => s.pushDeliveries.claimDue(claim(later))));
      expect(racing.flat().map((d) => d.createdAt)).to.deep.equal([plus(4000)]);
    });

    it("lets a lapsed claim's deliveries be claimed again, and the old claim then acts on nothing", async () => {
      const h = await setup();
      const e = await h.entry();
      const d = h.delivery();
      await s.pushDeliveries.handOver([e.id], [d], at(T0));
      const crashed = claim(at(T0), 10, 60_000);
      expect(await s.pushDeliveries.claimDue(crashed)).to.have.length(1);
      expect(await s.pushDeliveries.claimDue(claim(plus(59_000)))).to.deep.equal([]);
      const next = claim(plus(60_000));
      expect(await s.pushDeliveries.claimDue(next)).to.have.length(1);
      expect(await s.pushDeliveries.renew(d.id, crashed.claimId, plus(120_000))).to.equal(false);
      await s.pushDeliveries.settle(d.id, crashed.claimId, { state: 'sent', attempts: 1, at: plus(61_000) });
      expect((await s.pushDeliveries.ofHousehold(h.householdId))[0]).to.include({ state: 'pending', attempts: 0 });
      expect(await s.pushDeliveries.renew(d.id, next.claimId, plus(180_000))).to.equal(true);
      // Renewed: still held after the first lease would have lapsed.
      expect(await s.pushDeliveries.claimDue(claim(plus(170_000)))).to.deep.equal([]);
    });

    it('settles under the claim: a retry is due again later, a final state is never claimed again', async () => {
      const h = await setup();
      const e = await h.entry();
      const [d1, d2, d3] = [h.delivery(), h.delivery({ createdAt: plus(1) }), h.delivery({ createdAt: plus(2) })];
      await s.pushDeliveries.handOver([e.id], [d1, d2, d3], at(T0));
      const c = claim(plus(10));
      expect(await s.pushDeliveries.claimDue(c)).to.have.length(3);
      await s.pushDeliveries.settle(d1.id, c.claimId, { state: 'pending', attempts: 1, nextAttemptAt: plus(30_010), error: 'HTTP 503' });
      await s.pushDeliveries.settle(d2.id, c.claimId, { state: 'sent', attempts: 1, at: plus(20) });
      await s.pushDeliveries.settle(d3.id, c.claimId, { state: 'failed', attempts: 1, at: plus(20), error: 'rejected: BadDeviceToken' });
      const rows = await s.pushDeliveries.ofHousehold(h.householdId);
      expect(rows.map((r) => [r.state, r.attempts, r.nextAttemptAt, r.lastError, r.finishedAt])).to.deep.equal([
        ['pending', 1, plus(30_010), 'HTTP 503', null],
        ['sent', 1, plus(1), null, plus(20)],
        ['failed', 1, plus(2), 'rejected: BadDeviceToken', plus(20)],
      ]);
      expect(await s.pushDeliveries.claimDue(claim(plus(30_000)))).to.deep.equal([]);
      expect((await s.pushDeliveries.claimDue(claim(plus(30_010)))).map((d) => d.id)).to.deep.equal([d1.id]);
    });

    it('loses the deliveries of a deleted device, login or household', async () => {
      const h = await setup('tokengone');
      const other = await setup('tokenstays');
      const e = await h.entry();
      const e2 = await other.entry();
      await s.pushDeliveries.handOver([e.id], [h.delivery()], at(T0));
      await s.pushDeliveries.handOver([e2.id], [other.delivery()], at(T0));
      await s.pushDevices.forget('tokengone');
      expect(await s.pushDeliveries.ofHousehold(h.householdId)).to.deep.equal([]);
      expect(await s.pushDeliveries.ofHousehold(other.householdId)).to.have.length(1);
      await s.households.delete(other.householdId);
      expect(await s.pushDeliveries.ofHousehold(other.householdId)).to.deep.equal([]);
      const third = await setup();
      const e3 = await third.entry();
      await s.pushDeliveries.handOver([e3.id], [third.delivery()], at(T0));
      await s.accounts.delete(third.owner.id);
      expect(await s.pushDeliveries.claimDue(claim(plus(1000)))).to.deep.equal([]);
    });

    it('purges finished deliveries and handed-over entries older than the bound, nothing pending', async () => {
      const h = await setup();
      const [e1, e2, e3] = [await h.entry(), await h.entry(), await h.entry()];
      const [old, fresh, pending] = [h.delivery(), h.delivery({ createdAt: plus(1) }), h.delivery({ createdAt: plus(2) })];
      await s.pushDeliveries.handOver([e1.id], [old, fresh, pending], at(T0));
      await s.pushDeliveries.handOver([e2.id], [], plus(100_000));
      const c = claim(plus(10));
      await s.pushDeliveries.claimDue(c);
      await s.pushDeliveries.settle(old.id, c.claimId, { state: 'sent', attempts: 1, at: plus(20) });
      await s.pushDeliveries.settle(fresh.id, c.claimId, { state: 'dropped', attempts: 0, at: plus(200_000), error: 'switch off' });
      await s.pushDeliveries.settle(pending.id, c.claimId, { state: 'pending', attempts: 1, nextAttemptAt: plus(40), error: 'x' });
      // old (finished at +20) and e1 (handed over at T0) go; e2 (+100 s), fresh (+200 s), pending and e3 stay.
      expect(await s.pushDeliveries.purge(plus(50_000))).to.equal(2);
      expect((await s.pushDeliveries.ofHousehold(h.householdId)).map((d) => d.id)).to.deep.equal([fresh.id, pending.id]);
      expect((await s.pushOutbox.pending(10)).map((e) => e.id)).to.deep.equal([e3.id]);
    });
  });
}
