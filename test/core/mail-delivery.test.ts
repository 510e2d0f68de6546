import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { uuidIds } from '../../adapters/crypto/node-crypto.js';
import { memoryMailOutbox } from '../../adapters/memory/mail-outbox.js';
import { deliverDueMail, MAIL_GIVE_UP_AFTER_MS, MAIL_LEASE_MS, mailRetryDelayMs } from '../../core/mail/delivery.js';
import { queueingMailer } from '../../core/mail/queue.js';
import type { Mail } from '../../ports/mailer.js';

const mail: Mail = { to: 'kari@example.com', subject: 'Bekreft', text: 'https://d.example/confirm-email?token=t', html: '<p>x</p>' };

/** The outbox in memory, a clock the test moves, and a mail server the test opens and shuts. */
function setup() {
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const mailOutbox = memoryMailOutbox();
  const server = { up: true, accepted: [] as Mail[], refuse: null as null | { message: string; permanent?: boolean } };
  const transport = {
    async send(m: Mail) {
      if (server.refuse) throw Object.assign(new Error(server.refuse.message), server.refuse.permanent ? { permanent: true } : {});
      if (!server.up) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      server.accepted.push(m);
    },
  };
  let wakes = 0;
  const deps = { mailOutbox, transport, ids: uuidIds, clock };
  const mailer = queueingMailer(deps, () => wakes++);
  return { clock, mailOutbox, server, deps, mailer, wakes: () => wakes };
}

describe('mail delivery (core/mail)', () => {
  it('writes a mail to the outbox, wakes the loop, and a pass sends it once with its id as Message-ID', async () => {
    const t = setup();
    await t.mailer.send(mail);
    expect(t.wakes()).to.equal(1);
    const r = await deliverDueMail(t.deps);
    expect(r).to.include({ claimed: 1, sent: 1 });
    expect(t.server.accepted).to.have.length(1);
    const [sent] = t.server.accepted;
    expect(sent).to.include({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    const row = await t.mailOutbox.byId(sent!.messageId!);
    expect(row).to.include({ state: 'sent', attempts: 1, text: '', html: '' });
    // Marked sent: a second pass sends nothing.
    expect(await deliverDueMail(t.deps)).to.include({ claimed: 0, sent: 0 });
    expect(t.server.accepted).to.have.length(1);
  });

  it('retries with a growing wait while the server is down, and sends the same mail (same id) once it is back', async () => {
    const t = setup();
    t.server.up = false;
    await t.mailer.send(mail);
    const waits: number[] = [];
    for (let n = 1; n <= 4; n++) {
      const r = await deliverDueMail(t.deps);
      expect(r.retried).to.have.length(1);
      waits.push(r.retried[0]!.nextAttemptAt.getTime() - t.clock.now().getTime());
      // Not due before its wait is over.
      t.clock.advance(mailRetryDelayMs(n) - 1);
      expect(await deliverDueMail(t.deps)).to.include({ claimed: 0 });
      t.clock.advance(1);
    }
    expect(waits).to.deep.equal([10_000, 20_000, 40_000, 80_000]);
    t.server.up = true;
    const r = await deliverDueMail(t.deps);
    expect(r.sent).to.equal(1);
    expect(t.server.accepted).to.have.length(1);
    expect(await t.mailOutbox.byId(t.server.accepted[0]!.messageId!)).to.include({ state: 'sent', attempts: 5 });
  });

  it('waits at most an hour between tries, and gives up on a mail still failing a day after it was written', async () => {
    expect(mailRetryDelayMs(30)).to.equal(3_600_000);
    const t = setup();
    t.server.up = false;
    await t.mailer.send(mail);
    let attempts = 0;
    let failed: { mailId: string; error: string }[] = [];
    while (failed.length === 0) {
      const r = await deliverDueMail(t.deps);
      attempts += r.claimed;
      failed = r.failed;
      const next = r.retried[0]?.nextAttemptAt;
      if (next) t.clock.set(next);
    }
    expect(failed[0]!.error).to.match(/^gave up after \d+ attempts: connect ECONNREFUSED/);
    expect(await t.mailOutbox.byId(failed[0]!.mailId)).to.include({ state: 'failed', text: '' });
    // Retried for a day: the first day's tries, the last an hour apart.
    expect(attempts).to.be.within(25, 40);
    expect(t.clock.now().getTime() - new Date('2026-05-04T09:00:00.000Z').getTime()).to.be.at.least(MAIL_GIVE_UP_AFTER_MS);
  });

  it('gives up at once on a mail the server refused for good', async () => {
    const t = setup();
    t.server.refuse = { message: '550 5.1.1 no such user', permanent: true };
    await t.mailer.send(mail);
    const r = await deliverDueMail(t.deps);
    expect(r.failed.map((f) => f.error)).to.deep.equal(['refused: 550 5.1.1 no such user']);
    expect(await deliverDueMail(t.deps)).to.include({ claimed: 0 });
  });

  it('drops a mail whose link expired before it could be sent, and sends one whose link still works', async () => {
    const t = setup();
    t.server.up = false;
    await t.mailer.send({ ...mail, subject: 'reset', expiresAt: new Date(t.clock.now().getTime() + 3_600_000) });
    await t.mailer.send({ ...mail, subject: 'confirm', expiresAt: new Date(t.clock.now().getTime() + 48 * 3_600_000) });
    await deliverDueMail(t.deps);
    t.clock.advance(3_600_000);
    t.server.up = true;
    const r = await deliverDueMail(t.deps);
    expect(r).to.include({ expired: 1, sent: 1 });
    expect(t.server.accepted.map((m) => m.subject)).to.deep.equal(['confirm']);
  });

  it('a stop lets the mail being handed over finish and gives the rest of the claim back, due at once elsewhere', async () => {
    const t = setup();
    for (let i = 0; i < 3; i++) {
      await t.mailer.send({ ...mail, subject: `m${i}` });
      t.clock.advance(1);
    }
    let stopping = false;
    const transport = { send: async (m: Mail) => { stopping = true; await t.deps.transport.send(m); } };
    const r = await deliverDueMail({ ...t.deps, transport }, { stopping: () => stopping });
    expect(r).to.include({ claimed: 3, sent: 1, released: 2 });
    // Given back, not left to a lapsing lease: another process takes them now.
    expect(await deliverDueMail(t.deps)).to.include({ claimed: 2, sent: 2 });
    expect(t.server.accepted.map((m) => m.subject)).to.deep.equal(['m0', 'm1', 'm2']);
  });

  it("a mail whose process died mid-claim is sent by another once the lease lapsed, and the dead claim's mark is refused", async () => {
    const t = setup();
    await t.mailer.send(mail);
    const dead = await t.mailOutbox.claimDue({ claimId: 'dead', now: t.clock.now(), until: new Date(t.clock.now().getTime() + MAIL_LEASE_MS), limit: 10 });
    expect(dead).to.have.length(1);
    expect(await deliverDueMail(t.deps)).to.include({ claimed: 0 });
    t.clock.advance(MAIL_LEASE_MS);
    expect(await deliverDueMail(t.deps)).to.include({ claimed: 1, sent: 1 });
    expect(await t.mailOutbox.settle(dead[0]!.id, 'dead', { state: 'sent', attempts: 1, at: t.clock.now() })).to.equal(false);
    expect(t.server.accepted).to.have.length(1);
  });
});
