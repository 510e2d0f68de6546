import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { outboxMailer } from '../adapters/mail/outbox.js';
import { smtpMailer } from '../adapters/mail/smtp.js';
import { fixedClock } from '../adapters/clock/system-clock.js';
import { uuidIds } from '../adapters/crypto/node-crypto.js';
import { mailDeliveryLoop } from '../adapters/mail/delivery-loop.js';
import { memoryMailOutbox } from '../adapters/memory/mail-outbox.js';
import { MAIL_GIVE_UP_AFTER_MS } from '../core/mail/delivery.js';
import { queueingMailer } from '../core/mail/queue.js';
import type { Mail } from '../ports/mailer.js';
import { captureLog } from './support/server.js';
import { startSmtpCapture } from './support/smtp.js';

const mail: Mail = { to: 'kari@example.com', subject: 'Bekreft e-postadressen din', text: 'Hei Kari!\n\nBekreft: https://d.example/confirm-email?userId=u&token=t\n', html: '<p>Hei Kari!</p>' };

describe('mail adapters', () => {
  it('the default writes each mail to the outbox folder as a message file and to the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const log = captureLog();
    try {
      await outboxMailer(join(dir, 'outbox'), 'Dinner <noreply@localhost>', log.logger).send(mail);
      const files = readdirSync(join(dir, 'outbox'));
      expect(files).to.have.length(1);
      const eml = readFileSync(join(dir, 'outbox', files[0]!), 'utf8');
      expect(eml).to.match(/^To: kari@example.com$/m);
      expect(eml).to.match(/^From: Dinner <noreply@localhost>$/m);
      expect(eml).to.contain('multipart/alternative');
      const line = log.lines.find((l) => l['msg'] === 'mail written to the outbox');
      expect(line).to.include({ to: 'kari@example.com', subject: mail.subject, text: mail.text });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SMTP delivers text and HTML through a real SMTP server', async () => {
    const smtp = await startSmtpCapture();
    const mailer = smtpMailer(smtp.url, 'Dinner <noreply@dinner.example>');
    try {
      await mailer.send(mail);
      const got = await smtp.waitFor('kari@example.com');
      expect(got).to.include({ subject: mail.subject, from: 'noreply@dinner.example', html: '<p>Hei Kari!</p>' });
      expect(got.text).to.contain('https://d.example/confirm-email?userId=u&token=t');
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('the delivery loop sends a mail right after it is written, retries a failing server, and logs a mail it gave up on', async () => {
    const log = captureLog();
    const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
    const mailOutbox = memoryMailOutbox();
    let calls = 0;
    const flaky = { send: async (m: Mail) => { if (++calls < 3 || m.to === 'nobody@example.com') throw new Error('421 try later'); } };
    const loop = mailDeliveryLoop({ mailOutbox, transport: flaky, ids: uuidIds, clock }, { logger: log.logger, sweepMs: 60_000 });
    const mailer = queueingMailer({ mailOutbox, ids: uuidIds, clock }, () => loop.wake());
    try {
      await mailer.send(mail);
      // The wake-up's pass, without waiting for a sweep.
      for (let i = 0; i < 100 && calls === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(calls).to.equal(1);
      for (const wait of [10_000, 20_000]) {
        clock.advance(wait);
        await loop.drain();
      }
      expect(calls).to.equal(3);
      expect(log.lines.filter((l) => l['msg'] === 'mail not accepted, retried later')).to.have.length(2);
      expect(log.lines.find((l) => l['msg'] === 'mails delivered')).to.include({ sent: 1 });

      await mailer.send({ ...mail, to: 'nobody@example.com' });
      await loop.drain();
      clock.advance(MAIL_GIVE_UP_AFTER_MS);
      await loop.drain();
      expect(log.lines.find((l) => l['msg'] === 'mail given up')).to.include({ to: 'nobody@example.com' });
    } finally {
      await loop.stop(0);
    }
  });

  it('a bounded stop gives up waiting for a mail server that never answers, and says so', async () => {
    const log = captureLog();
    const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
    const mailOutbox = memoryMailOutbox();
    let handedOver = 0;
    const stuck = { send: () => { handedOver++; return new Promise<void>(() => {}); } };
    const loop = mailDeliveryLoop({ mailOutbox, transport: stuck, ids: uuidIds, clock }, { logger: log.logger, sweepMs: 60_000 });
    const mailer = queueingMailer({ mailOutbox, ids: uuidIds, clock }, () => loop.wake());
    await mailer.send(mail);
    await mailer.send(mail);
    for (let i = 0; i < 100 && handedOver === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await loop.stop(50);
    expect(handedOver).to.equal(1);
    expect(log.lines.find((l) => l['msg'] === 'mail being handed over at the stop did not finish')).to.include({ waitedMs: 50 });
  });

  it('SMTP gives a mail the same Message-ID at every attempt, and a 55x answer marks the refusal permanent', async () => {
    const smtp = await startSmtpCapture({ beforeAccept: async (m) => { if (m.to === 'gone@example.com') throw Object.assign(new Error('no such user'), { responseCode: 550 }); } });
    const mailer = smtpMailer(smtp.url, 'Dinner <noreply@dinner.example>');
    try {
      await mailer.send({ ...mail, messageId: 'b3c1a7e2-0000-4000-8000-000000000001' });
      await mailer.send({ ...mail, messageId: 'b3c1a7e2-0000-4000-8000-000000000001' });
      const got = smtp.to('kari@example.com');
      expect(got.map((m) => m.messageId)).to.deep.equal(['<b3c1a7e2-0000-4000-8000-000000000001@dinner.example>', '<b3c1a7e2-0000-4000-8000-000000000001@dinner.example>']);
      const refused = await mailer.send({ ...mail, to: 'gone@example.com' }).then(() => null, (err: unknown) => err);
      expect(refused).to.include({ permanent: true });
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});
