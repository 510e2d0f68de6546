import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { outboxMailer } from '../adapters/mail/outbox.js';
import { smtpMailer } from '../adapters/mail/smtp.js';
import { backgroundMailer } from '../adapters/mail/background.js';
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

  it('delivers in the background, retries a failing server, and logs a mail it gave up on', async () => {
    const log = captureLog();
    let calls = 0;
    const flaky = { send: async () => { if (++calls < 3) throw new Error('421 try later'); } };
    const bg = backgroundMailer(flaky, log.logger, [1, 1]);
    await bg.send(mail);
    await bg.drain();
    expect(calls).to.equal(3);
    expect(log.lines.filter((l) => l['level'] === 'error')).to.have.length(0);

    const dead = backgroundMailer({ send: async () => { throw new Error('down'); } }, log.logger, [1]);
    await dead.send(mail);
    await dead.drain();
    expect(log.lines.find((l) => l['msg'] === 'mail not delivered')).to.include({ to: 'kari@example.com' });
  });

  it('a bounded drain gives up on a mail server that never answers, and says so', async () => {
    const log = captureLog();
    const stuck = backgroundMailer({ send: () => new Promise<void>(() => {}) }, log.logger, []);
    await stuck.send(mail);
    await stuck.drain(50);
    expect(log.lines.find((l) => l['msg'] === 'mails not delivered before shutdown')).to.include({ count: 1 });
  });
});
