/**
 * Mail survives a mail server that is down and a process that dies: the SMTP server is out of reach (a TCP proxy
 * in front of it, cut), accounts are registered over HTTP (each writes a confirmation mail to the outbox), the
 * service is SIGKILLed and started again on the same database, the SMTP server comes back, and every confirmation
 * arrives, exactly once. Postgres also with two processes sharing the database, one of them killed: the outbox's
 * claims keep them from both sending a mail. Last, with the server up, a mail written now arrives within a few
 * seconds (the wake-up after the write, no sweep needed), and a SIGTERM stop returns promptly.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Client, freshEmail } from '../support/client.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { faultDatabases, killAllStarted, startService, type FaultDatabase, type Service } from './service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function register(service: Service, email: string): Promise<void> {
  const res = await new Client(service.url).post('/api/v1/auth/register', { email, password: 'correct horse battery', displayName: 'Kari' });
  expect(res.status, res.text).to.equal(200);
}

const count = async (inspect: Knex, where: Record<string, string>) => Number(((await inspect('mail_outbox').where(where).count({ n: '*' })) as { n: number | string }[])[0]!.n);

for (const kind of faultDatabases()) {
  for (const processes of kind.name === 'postgres' ? [1, 2] : [1]) {
    describe(`mail outbox through an SMTP outage and kill -9 [${kind.name}, ${processes} process${processes > 1 ? 'es' : ''}]`, function () {
      this.timeout(180_000);
      let db: FaultDatabase;
      let inspect: Knex;
      let smtp: SmtpCapture;
      let proxy: TcpProxy;
      let settings: Record<string, string>;

      before(async () => {
        db = await kind.create();
        inspect = db.inspect();
        smtp = await startSmtpCapture();
        proxy = await startTcpProxy('127.0.0.1', Number(new URL(smtp.url).port));
        settings = { SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, MAIL_SWEEP_MS: '500' };
      });

      after(async () => {
        await killAllStarted();
        await proxy?.close();
        await smtp?.close();
        await inspect?.destroy();
        await db?.cleanup();
      });

      it('delivers every mail caused while the server was down, once, after a kill -9 and a restart', async () => {
        await proxy.cut();
        const services: Service[] = [];
        for (let i = 0; i < processes; i++) services.push(await startService(db.serviceUrl(), db.dir, settings));
        const emails = Array.from({ length: 12 }, () => freshEmail('outage'));
        // Spread over the processes, a few at a time.
        for (let i = 0; i < emails.length; i += 4) await Promise.all(emails.slice(i, i + 4).map((e, j) => register(services[(i + j) % processes]!, e)));
        // Each mail was tried (and refused) at least once before the kill.
        for (let waited = 0; (await count(inspect, { state: 'pending' })) !== emails.length || (await inspect('mail_outbox').where('attempts', 0).first()); waited += 100) {
          if (waited > 15_000) throw new Error('the mails were not tried while the server was down');
          await sleep(100);
        }
        await services[0]!.kill9();
        expect(await count(inspect, { state: 'pending' })).to.equal(emails.length);
        // The killed one comes back; the other (Postgres) ran on all along.
        services[0] = await startService(db.serviceUrl(), db.dir, settings);
        await proxy.restore();
        for (const e of emails) await smtp.waitFor(e, (m) => m.subject === 'Bekreft e-postadressen din', 90_000);
        // A double would come from a second pass or process: give them time to show one.
        await sleep(3000);
        for (const e of emails) expect(smtp.to(e), e).to.have.length(1);
        expect(new Set(emails.map((e) => smtp.to(e)[0]!.messageId)).size).to.equal(emails.length);
        expect(await count(inspect, { state: 'sent' })).to.equal(emails.length);

        // Up now: a mail written now goes out at once (the wake-up, not a retry or a sweep).
        const now = freshEmail('prompt');
        const t0 = performance.now();
        await register(services[processes - 1]!, now);
        await smtp.waitFor(now, () => true, 3000);
        const tookMs = performance.now() - t0;
        console.log(`      [${kind.name}, ${processes}] ${emails.length} mails delivered once after the outage; a mail with the server up took ${Math.round(tookMs)} ms`);

        // Marked sent once the server's answer is in (cut before it, the mail would be sent again: the one window
        // SMTP leaves, which the same Message-ID covers).
        for (let waited = 0; (await count(inspect, { state: 'sent' })) !== emails.length + 1; waited += 50) {
          if (waited > 5000) throw new Error('the mail was not marked sent');
          await sleep(50);
        }

        // A stop waits only for the mail being handed over, not for mails waiting on a retry.
        await proxy.cut();
        await register(services[0]!, freshEmail('at-stop'));
        const t1 = performance.now();
        for (const s of services) await s.stop();
        expect(performance.now() - t1).to.be.below(15_000);
        const left = await inspect('mail_outbox').where({ state: 'pending' }).select('to_address', 'attempts', 'last_error', 'created_at');
        expect(left, JSON.stringify(left)).to.have.length(1);
      });
    });
  }
}
