/**
 * The monthly dinner-price mail through the service as wired (bootstrap/jobs.ts, the direct mailer) and a real SMTP
 * server: addresses join and confirm over HTTP, the publication job publishes March, the mail job mails it, and the
 * mail's unsubscribe link works.
 */
import { expect } from 'chai';
import { freshEmail } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';
import { linkIn, type CapturedMail } from '../support/smtp.js';
import { measurement } from '../contracts/dinner-price-store.contract.js';

const PUBLIC = 'https://dinner.example';
const BASE = '/api/v1/data/dinner-prices';

httpSuite('the monthly dinner-price mail', { mail: true, now: new Date('2026-03-20T12:00:00.000Z'), keepTime: true, env: { PUBLIC_BASE_URL: PUBLIC } }, (server) => {
  const { clock, log } = server;

  const client = () => server.client();
  const tokenOf = (mail: CapturedMail, path: 'confirm' | 'unsubscribe') => linkIn(mail, `${PUBLIC}${BASE}/${path}?token=`).searchParams.get('token')!;
  const { runJob } = server;
  async function joined(language: 'nb' | 'en', confirm: boolean): Promise<string> {
    const email = freshEmail('monthly');
    expect((await client().post(`${BASE}/subscribe`, { email, language })).status).to.equal(202);
    const mail = await server.smtp.waitFor(email);
    if (confirm) expect((await client().get(`${BASE}/confirm?token=${tokenOf(mail, 'confirm')}`)).status).to.equal(200);
    return email;
  }

  it('mails the published month once to each confirmed address, with a working unsubscribe link; a second run sends nothing', async () => {
    const nb = await joined('nb', true);
    const en = await joined('en', true);
    const unconfirmed = await joined('nb', false);
    for (const [householdType, median] of [['single', 800], ['couple', 1600], ['family', 2400]] as const) {
      await server.runtime.deps.dinnerPrices.recordMeasurement(measurement({ householdType, medianWeekPrice: median }));
    }
    clock.set(new Date('2026-04-01T04:00:00.000Z')); // 06:00 on 1 April in Oslo
    await runJob('publish-dinner-prices');
    await runJob('mail-dinner-prices');
    expect(log.lines.find((l) => l['msg'] === 'dinner prices mailed')).to.include({ month: '2026-03', sent: 2, refused: 0 });

    const mail = await server.smtp.waitFor(nb, (m) => m.subject === 'Middagsprisene for mars 2026');
    expect(mail.text.replaceAll('\u00a0', ' ')).to.contain('To voksne\n  Median ukepris: 1 600,00 kr');
    expect(mail.html).to.contain('<html lang="nb">');
    const english = await server.smtp.waitFor(en, (m) => m.subject === 'Dinner prices for March 2026');
    expect(english.text.replaceAll('\u00a0', ' ')).to.contain('One adult\n  Median week price: NOK 800.00');
    expect(server.smtp.to(unconfirmed)).to.have.length(1);

    const before = server.smtp.mails.length;
    clock.set(new Date('2026-04-01T05:12:00.000Z'));
    await runJob('mail-dinner-prices');
    await server.runtime.mailer.drain();
    expect(server.smtp.mails).to.have.length(before);

    const left = await client().get(`${BASE}/unsubscribe?token=${tokenOf(english, 'unsubscribe')}`);
    expect([left.status, left.json]).to.deep.equal([200, { status: 'unsubscribed' }]);
    expect(await server.runtime.deps.dinnerPriceSubscribers.byEmail(en)).to.equal(null);
  });

  it('says in the API reference who gets the monthly mail', async () => {
    const doc = (await client().get('/api/v1/openapi.json')).json;
    expect(doc.paths[`${BASE}/subscribe`].post.description).to.match(/confirmed address gets one mail with the figures of each month/);
  });
});
