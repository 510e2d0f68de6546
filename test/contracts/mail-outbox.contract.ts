import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { QueuedMail } from '../../ports/mail-outbox.js';
import type { OutboxClaim } from '../../ports/outbox-claims.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at } from './fixtures.js';

const T0 = '2026-04-01T08:00:00.000Z';
const plus = (ms: number) => new Date(at(T0).getTime() + ms);

export function mailOutboxContract(backend: Backend): void {
  storeSuite(backend, 'MailOutbox', (s) => {
    const mail = (over: Partial<QueuedMail> = {}): QueuedMail => ({
      id: randomUUID(),
      to: 'kari@example.com',
      subject: 'Bekreft e-postadressen din',
      text: 'Hei Kari!\n\nBekreft: https://d.example/confirm-email?token=t Ø æ å\n',
      html: '<p>Hei Kari! Ø æ å</p>',
      expiresAt: plus(48 * 3_600_000),
      createdAt: at(T0),
      ...over,
    });
    const queued = async (over: Partial<QueuedMail> = {}) => {
      const m = mail(over);
      await s.mailOutbox.enqueue(m);
      return m;
    };
    const claim = (now: Date, limit = 10, leaseMs = 60_000): OutboxClaim => ({ claimId: randomUUID(), now, until: new Date(now.getTime() + leaseMs), limit });

    it('round-trips a mail, due at once, with and without an expiry', async () => {
      const m = await queued();
      const keeps = await queued({ expiresAt: null, createdAt: plus(1) });
      const expected = { ...m, state: 'pending', attempts: 0, nextAttemptAt: m.createdAt, lastError: null, finishedAt: null };
      expect(await s.mailOutbox.byId(m.id)).to.deep.equal(expected);
      expect(await s.mailOutbox.claimDue(claim(plus(1)))).to.deep.equal([expected, { ...keeps, state: 'pending', attempts: 0, nextAttemptAt: keeps.createdAt, lastError: null, finishedAt: null }]);
      expect(await s.mailOutbox.byId(randomUUID())).to.equal(null);
    });

    it('claims due mails oldest due first, up to the limit, and holds them from other claims', async () => {
      const ms = [3, 1, 2, 4].map((n) => mail({ createdAt: plus(n * 1000) }));
      for (const m of ms) await s.mailOutbox.enqueue(m);
      expect(await s.mailOutbox.claimDue(claim(plus(500)))).to.deep.equal([]);
      const first = await s.mailOutbox.claimDue(claim(plus(3500), 2));
      expect(first.map((m) => m.createdAt)).to.deep.equal([plus(1000), plus(2000)]);
      // The two claimed are held; the third is due, the fourth not yet.
      expect((await s.mailOutbox.claimDue(claim(plus(3500)))).map((m) => m.createdAt)).to.deep.equal([plus(3000)]);
    });

    it('never hands one mail to two simultaneous claims', async () => {
      const ms = Array.from({ length: 20 }, (_, i) => mail({ createdAt: plus(i) }));
      for (const m of ms) await s.mailOutbox.enqueue(m);
      const racing = await Promise.all(Array.from({ length: 4 }, () => s.mailOutbox.claimDue(claim(plus(1000), 10))));
      const ids = racing.flat().map((m) => m.id);
      expect(new Set(ids).size).to.equal(ids.length);
      // What the racing claims left is claimed by the next one: every mail exactly once.
      const rest = await s.mailOutbox.claimDue(claim(plus(1000), 20));
      expect([...ids, ...rest.map((m) => m.id)].sort()).to.deep.equal(ms.map((m) => m.id).sort());
    });

    it("lets a lapsed claim's mails be claimed again, and the old claim then acts on nothing", async () => {
      const m = await queued();
      const crashed = claim(at(T0), 10, 60_000);
      expect(await s.mailOutbox.claimDue(crashed)).to.have.length(1);
      expect(await s.mailOutbox.claimDue(claim(plus(59_000)))).to.deep.equal([]);
      const next = claim(plus(60_000));
      expect(await s.mailOutbox.claimDue(next)).to.have.length(1);
      expect(await s.mailOutbox.renew(m.id, crashed.claimId, plus(120_000))).to.equal(false);
      expect(await s.mailOutbox.settle(m.id, crashed.claimId, { state: 'sent', attempts: 1, at: plus(61_000) })).to.equal(false);
      expect(await s.mailOutbox.byId(m.id)).to.include({ state: 'pending', attempts: 0 });
      expect(await s.mailOutbox.renew(m.id, next.claimId, plus(180_000))).to.equal(true);
      // Renewed: still held after the first lease would have lapsed.
      expect(await s.mailOutbox.claimDue(claim(plus(170_000)))).to.deep.equal([]);
    });

    it('settles under the claim: a retry waits out its backoff, a final mail is never claimed again and loses its bodies', async () => {
      const [retry, sent, failed, dropped] = [0, 1, 2, 3].map((n) => mail({ createdAt: plus(n) }));
      for (const m of [retry, sent, failed, dropped]) await s.mailOutbox.enqueue(m!);
      const c = claim(plus(10));
      expect(await s.mailOutbox.claimDue(c)).to.have.length(4);
      expect(await s.mailOutbox.settle(retry!.id, c.claimId, { state: 'pending', attempts: 1, nextAttemptAt: plus(10_010), error: 'connect ECONNREFUSED' })).to.equal(true);
      expect(await s.mailOutbox.settle(sent!.id, c.claimId, { state: 'sent', attempts: 1, at: plus(20) })).to.equal(true);
      await s.mailOutbox.settle(failed!.id, c.claimId, { state: 'failed', attempts: 1, at: plus(20), error: 'refused: 550 no such user' });
      await s.mailOutbox.settle(dropped!.id, c.claimId, { state: 'dropped', attempts: 0, at: plus(20), error: 'its link expired' });
      // Settled once: a second settlement of the same claim writes nothing (the mail is marked sent once).
      expect(await s.mailOutbox.settle(sent!.id, c.claimId, { state: 'pending', attempts: 2, nextAttemptAt: plus(30), error: 'x' })).to.equal(false);
      const rows = await Promise.all([retry, sent, failed, dropped].map((m) => s.mailOutbox.byId(m!.id)));
      expect(rows.map((r) => [r!.state, r!.attempts, r!.nextAttemptAt, r!.lastError, r!.finishedAt, r!.text === '', r!.html === ''])).to.deep.equal([
        ['pending', 1, plus(10_010), 'connect ECONNREFUSED', null, false, false],
        ['sent', 1, plus(1), null, plus(20), true, true],
        ['failed', 1, plus(2), 'refused: 550 no such user', plus(20), true, true],
        ['dropped', 0, plus(3), 'its link expired', plus(20), true, true],
      ]);
      expect(rows[1]).to.include({ to: sent!.to, subject: sent!.subject });
      expect(await s.mailOutbox.claimDue(claim(plus(10_000)))).to.deep.equal([]);
      expect((await s.mailOutbox.claimDue(claim(plus(10_010)))).map((m) => [m.id, m.attempts, m.lastError])).to.deep.equal([[retry!.id, 1, 'connect ECONNREFUSED']]);
    });

    it('keeps the expiry a mail carries: the store claims it, the delivery drops it (core/mail/delivery.ts)', async () => {
      const m = await queued({ expiresAt: plus(1000) });
      const c = claim(plus(5000));
      const [got] = await s.mailOutbox.claimDue(c);
      expect(got!.expiresAt).to.deep.equal(plus(1000));
      await s.mailOutbox.settle(m.id, c.claimId, { state: 'dropped', attempts: 0, at: plus(5000), error: 'its link expired' });
      expect(await s.mailOutbox.byId(m.id)).to.include({ state: 'dropped' });
    });

    it('gives back what a claim holds untried: due again at once for another claim', async () => {
      const [a, b] = [await queued(), await queued({ createdAt: plus(1) })];
      const c = claim(plus(10));
      await s.mailOutbox.claimDue(c);
      await s.mailOutbox.settle(a.id, c.claimId, { state: 'sent', attempts: 1, at: plus(20) });
      expect(await s.mailOutbox.release(c.claimId)).to.equal(1);
      expect(await s.mailOutbox.release(c.claimId)).to.equal(0);
      expect((await s.mailOutbox.claimDue(claim(plus(30)))).map((m) => [m.id, m.attempts])).to.deep.equal([[b.id, 0]]);
    });

    it('purges final mails finished before the bound, never a pending one', async () => {
      const [old, fresh, pending] = [await queued(), await queued({ createdAt: plus(1) }), await queued({ createdAt: plus(2) })];
      const c = claim(plus(10));
      await s.mailOutbox.claimDue(c);
      await s.mailOutbox.settle(old.id, c.claimId, { state: 'sent', attempts: 1, at: plus(20) });
      await s.mailOutbox.settle(fresh.id, c.claimId, { state: 'failed', attempts: 1, at: plus(200_000), error: 'x' });
      await s.mailOutbox.settle(pending.id, c.claimId, { state: 'pending', attempts: 1, nextAttemptAt: plus(40), error: 'x' });
      expect(await s.mailOutbox.purge(plus(50_000))).to.equal(1);
      expect(await s.mailOutbox.byId(old.id)).to.equal(null);
      expect(await s.mailOutbox.byId(fresh.id)).to.include({ state: 'failed' });
      expect(await s.mailOutbox.purge(plus(10_000_000))).to.equal(1);
      expect(await s.mailOutbox.byId(pending.id)).to.include({ state: 'pending' });
    });

    it("drops an address's pending mails, claimed or not, in any case of the address; others and final ones stay", async () => {
      const [waiting, claimed, sent] = [await queued(), await queued({ to: 'KARI@Example.com', createdAt: plus(1) }), await queued({ createdAt: plus(2) })];
      const other = await queued({ to: 'ola@example.com', createdAt: plus(3) });
      const c = claim(plus(10), 2);
      expect((await s.mailOutbox.claimDue(c)).map((m) => m.id)).to.deep.equal([waiting.id, claimed.id]);
      await s.mailOutbox.settle(waiting.id, c.claimId, { state: 'pending', attempts: 1, nextAttemptAt: plus(20), error: 'down' });
      const c2 = claim(plus(30), 1);
      await s.mailOutbox.claimDue(c2);
      await s.mailOutbox.settle(sent.id, c2.claimId, { state: 'sent', attempts: 1, at: plus(31) });
      expect(await s.mailOutbox.dropPendingTo('kari@EXAMPLE.com', plus(40), 'its account was deleted')).to.equal(2);
      for (const m of [waiting, claimed]) {
        expect(await s.mailOutbox.byId(m.id)).to.include({ state: 'dropped', lastError: 'its account was deleted', text: '', html: '' });
        expect((await s.mailOutbox.byId(m.id))!.finishedAt).to.deep.equal(plus(40));
      }
      // The claim on the dropped mail acts on nothing; nothing of it is claimed again.
      expect(await s.mailOutbox.settle(claimed.id, c.claimId, { state: 'sent', attempts: 1, at: plus(41) })).to.equal(false);
      expect((await s.mailOutbox.claimDue(claim(plus(10_000_000)))).map((m) => m.id)).to.deep.equal([other.id]);
      expect(await s.mailOutbox.byId(sent.id)).to.include({ state: 'sent' });
    });
  });
}
