import { expect } from 'chai';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import { freshEmail } from '../support/client.js';
import { expectProblem, freshIp, httpSuite } from '../support/http-suite.js';
import { accepted, DAY, expectConfirmed, listSuiteOptions, PUBLIC } from '../support/mailing-list-suite.js';
import { linkIn, type CapturedMail } from '../support/smtp.js';

const BASE = '/api/v1/data/dinner-prices';
// The default of the signup class (5 an hour per IP); each test call comes from an IP of its own unless it says.
const LIMIT = ['dinner-price-signup-per-ip=10000/60', 'dinner-price-signup-per-ip=5/3600'] as const;

httpSuite('dinner-price list', listSuiteOptions(LIMIT), (server) => {
  const { clock, log } = server;

  const client = () => server.client();
  const subscribe = (body: unknown, ip = freshIp()) => client().post(`${BASE}/subscribe`, body, { headers: { 'X-Forwarded-For': ip } });
  const confirm = (token: string) => client().get(`${BASE}/confirm?token=${encodeURIComponent(token)}`);
  const unsubscribe = (token: string) => client().get(`${BASE}/unsubscribe?token=${encodeURIComponent(token)}`);
  const tokenOf = (mail: CapturedMail, path: 'confirm' | 'unsubscribe') => linkIn(mail, `${PUBLIC}${BASE}/${path}?token=`).searchParams.get('token')!;
  const listed = (email: string) => server.runtime.deps.dinnerPriceSubscribers.byEmail(email);
  async function subscribed(language: 'nb' | 'en' = 'nb') {
    const email = freshEmail('prices');
    expect((await subscribe({ email, language })).status).to.equal(202);
    const mail = await server.smtp.waitFor(email);
    return { email, mail, confirmToken: tokenOf(mail, 'confirm'), unsubscribeToken: tokenOf(mail, 'unsubscribe') };
  }

  describe('subscribe', () => {
    it('answers 202 with an empty body alike for a new, a known unconfirmed and a confirmed address', async () => {
      const fresh = freshEmail('prices');
      const known = await subscribed();
      const confirmed = await subscribed();
      expect((await confirm(confirmed.confirmToken)).status).to.equal(200);
      const answers = [
        await subscribe({ email: fresh, language: 'nb' }),
        await subscribe({ email: known.email, language: 'nb' }),
        await subscribe({ email: confirmed.email, language: 'nb' }),
      ].map(accepted);
      expect(answers).to.deep.equal(Array.from({ length: 3 }, () => ({ status: 202, text: '', type: null })));
      await server.smtp.waitFor(fresh);
      await server.runtime.mailer.drain();
      expect(server.smtp.to(known.email)).to.have.length(1);
      expect(server.smtp.to(confirmed.email)).to.have.length(1);
    });

    it('mails plain text and HTML in the asked language, with a confirm and an unsubscribe link of their own', async () => {
      const en = await subscribed('en');
      expect(en.mail.subject).to.equal('Confirm your dinner-price subscription');
      expect(en.confirmToken).to.match(/^[A-Za-z0-9_-]{22,}$/);
      expect(en.unsubscribeToken).to.match(/^[A-Za-z0-9_-]{22,}$/);
      expect(en.confirmToken).to.not.equal(en.unsubscribeToken);
      expect(en.mail.html).to.contain(`<a href="${PUBLIC}${BASE}/confirm?token=${en.confirmToken}">`);
      expect(en.mail.html).to.contain(`<a href="${PUBLIC}${BASE}/unsubscribe?token=${en.unsubscribeToken}">`);
      const nb = await subscribed('nb');
      expect(nb.mail.subject).to.equal('Bekreft at du vil få middagsprisene');
      expect(nb.mail.text).to.contain('Meld deg av');
    });

    it('stores the address lower-case and the tokens only as hashes', async () => {
      const email = freshEmail('Prices.Mixed');
      expect((await subscribe({ email: `  ${email.toUpperCase()}`, language: 'en' })).status).to.equal(202);
      const mail = await server.smtp.waitFor(email.toLowerCase());
      const row = await listed(email.toLowerCase());
      expect(row).to.include({ email: email.toLowerCase(), language: 'en', confirmedAt: null });
      const tokens = (await server.runtime.db.knex('dinner_price_tokens').where('subscriber_id', row!.id).pluck('token_hash')) as string[];
      expect(tokens).to.have.length(2);
      expect(tokens).to.not.include(tokenOf(mail, 'confirm'));
      expect(tokens).to.include(server.runtime.deps.tokens.hash(tokenOf(mail, 'confirm')));
    });

    it('answers 400 email_invalid when it is not an address, and mails nothing', async () => {
      for (const email of ['not an address', 'kari@', 'kari@localhost', `${'x'.repeat(300)}@example.com`]) {
        expectProblem(await subscribe({ email, language: 'nb' }), 400, 'email_invalid');
      }
    });

    it('takes exactly email and language: any other field, a missing one or another language answers 400', async () => {
      const email = freshEmail('prices');
      for (const body of [
        { email, language: 'nb', name: 'Kari' },
        { email, language: 'nb', consent: true },
        { email },
        { language: 'en' },
        { email, language: 'de' },
        { email, language: 'NB' },
        { email: 42, language: 'nb' },
      ]) {
        expectProblem(await subscribe(body), 400, 'validation_failed');
      }
      await server.runtime.mailer.drain();
      expect(server.smtp.to(email)).to.have.length(0);
      expect(await listed(email)).to.equal(null);
      // Names match case-insensitively, as on every route.
      expect((await subscribe({ Email: email, LANGUAGE: 'en' })).status).to.equal(202);
      expect((await server.smtp.waitFor(email)).subject).to.equal('Confirm your dinner-price subscription');
    });

    it('mails an unconfirmed address at most once a day; a day later a new mail with fresh links', async () => {
      const { email, mail, confirmToken } = await subscribed();
      clock.advance(DAY - 1000);
      expect((await subscribe({ email, language: 'nb' })).status).to.equal(202);
      await server.runtime.mailer.drain();
      expect(server.smtp.to(email)).to.have.length(1);
      clock.advance(1000);
      expect((await subscribe({ email, language: 'en' })).status).to.equal(202);
      const second = await server.smtp.waitFor(email, (m) => m !== mail);
      expect(second.subject).to.equal('Confirm your dinner-price subscription');
      expect(tokenOf(second, 'confirm')).to.not.equal(confirmToken);
      expect((await subscribe({ email, language: 'en' })).status).to.equal(202);
      await server.runtime.mailer.drain();
      expect(server.smtp.to(email)).to.have.length(2);
      // The first mail's link still confirms.
      expect((await confirm(confirmToken)).json).to.deep.equal({ status: 'confirmed' });
    });

    it('answers 429 with Retry-After to the 6th request of an IP within the hour; other IPs go on', async () => {
      const ip = freshIp();
      for (let i = 0; i < 5; i++) expect((await subscribe({ email: freshEmail('prices'), language: 'nb' }, ip)).status).to.equal(202);
      const res = await subscribe({ email: freshEmail('prices'), language: 'nb' }, ip);
      expectProblem(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).to.be.within(3500, 3600);
      // Refused before its body is read: even what is not an address gets the 429.
      expectProblem(await subscribe({ email: 'nonsense', language: 'nb' }, ip), 429, 'rate_limited');
      expect((await subscribe({ email: freshEmail('prices'), language: 'nb' })).status).to.equal(202);
      // The links are counted in another class.
      expect((await confirm('unknown-token')).status).to.equal(404);
    });
  });

  describe('confirm', () => {
    it('answers 200 confirmed on the first and on a second click', async () => {
      const { email, confirmToken } = await subscribed();
      expectConfirmed(await confirm(confirmToken));
      const confirmedAt = (await listed(email))!.confirmedAt;
      expect(confirmedAt).to.be.instanceOf(Date);
      clock.advance(60_000);
      expect((await confirm(confirmToken)).json).to.deep.equal({ status: 'confirmed' });
      expect((await listed(email))!.confirmedAt).to.deep.equal(confirmedAt);
    });

    it('answers 404 dinner_price_token_unknown for a token never issued and for an unsubscribe token', async () => {
      const { email, unsubscribeToken } = await subscribed();
      expectProblem(await confirm('x'.repeat(43)), 404, 'dinner_price_token_unknown');
      expectProblem(await confirm(''), 404, 'dinner_price_token_unknown');
      expectProblem(await confirm(unsubscribeToken), 404, 'dinner_price_token_unknown');
      expect((await listed(email))!.confirmedAt).to.equal(null);
      expectProblem(await client().get(`${BASE}/confirm`), 400, 'validation_failed');
    });

    it('answers 410 dinner_price_token_expired once unconfirmed for over seven days', async () => {
      const { email, confirmToken } = await subscribed();
      clock.advance(7 * DAY + 1000);
      expectProblem(await confirm(confirmToken), 410, 'dinner_price_token_expired');
      expect(await listed(email)).to.equal(null);
      expectProblem(await confirm(confirmToken), 410, 'dinner_price_token_expired');
    });
  });

  describe('unsubscribe', () => {
    it('deletes the row, answers unsubscribed again on a repeat, and confirm then answers 404', async () => {
      const { email, confirmToken, unsubscribeToken } = await subscribed();
      expect((await confirm(confirmToken)).status).to.equal(200);
      const first = await unsubscribe(unsubscribeToken);
      expect(first.status).to.equal(200);
      expect(first.json).to.deep.equal({ status: 'unsubscribed' });
      expect(await listed(email)).to.equal(null);
      const repeat = await unsubscribe(unsubscribeToken);
      expect(repeat.status).to.equal(200);
      expect(repeat.json).to.deep.equal({ status: 'unsubscribed' });
      expectProblem(await confirm(confirmToken), 404, 'dinner_price_token_unknown');
    });

    it('works from the confirmation mail of an unconfirmed address', async () => {
      const { email, confirmToken, unsubscribeToken } = await subscribed();
      expect((await unsubscribe(unsubscribeToken)).json).to.deep.equal({ status: 'unsubscribed' });
      expect(await listed(email)).to.equal(null);
      expectProblem(await confirm(confirmToken), 404, 'dinner_price_token_unknown');
    });

    it('answers 404 dinner_price_token_unknown for a token never issued and for a confirm token', async () => {
      const { email, confirmToken } = await subscribed();
      expectProblem(await unsubscribe('y'.repeat(43)), 404, 'dinner_price_token_unknown');
      expectProblem(await unsubscribe(confirmToken), 404, 'dinner_price_token_unknown');
      expect(await listed(email)).to.not.equal(null);
    });

    it('lets an unsubscribed address subscribe again and get a new mail at once', async () => {
      const { email, mail, unsubscribeToken } = await subscribed();
      await unsubscribe(unsubscribeToken);
      expect((await subscribe({ email, language: 'nb' })).status).to.equal(202);
      const again = await server.smtp.waitFor(email, (m) => m !== mail);
      expect((await confirm(tokenOf(again, 'confirm'))).status).to.equal(200);
    });
  });

  describe('the purge job', () => {
    it('deletes addresses unconfirmed for over seven days and keeps confirmed ones', async () => {
      const unconfirmed = await subscribed();
      const confirmed = await subscribed();
      expect((await confirm(confirmed.confirmToken)).status).to.equal(200);
      const job = jobsOf(server.runtime).find((j) => j.name === 'purge-unconfirmed-dinner-price-addresses')!;
      expect(job.lockKey).to.equal(7_100_023);
      clock.advance(7 * DAY - 1000);
      expect(await runExclusive(server.runtime.db, log.logger, job)).to.equal(true);
      expect(await listed(unconfirmed.email)).to.not.equal(null);
      clock.advance(2000);
      expect(await runExclusive(server.runtime.db, log.logger, job)).to.equal(true);
      expect(await listed(unconfirmed.email)).to.equal(null);
      expect(await listed(confirmed.email)).to.not.equal(null);
      expect(log.lines.some((l) => l['msg'] === 'purged the dinner-price list' && (l['expired'] as number) >= 1)).to.equal(true);
      // Its links answer as the States table says after the deletion.
      expectProblem(await confirm(unconfirmed.confirmToken), 410, 'dinner_price_token_expired');
      expect((await unsubscribe(unconfirmed.unsubscribeToken)).json).to.deep.equal({ status: 'unsubscribed' });
      expect((await confirm(confirmed.confirmToken)).json).to.deep.equal({ status: 'confirmed' });
    });
  });

  it('documents the three routes as Public with the strict request body', async () => {
    const doc = (await client().get('/api/v1/openapi.json')).json;
    const post = doc.paths[`${BASE}/subscribe`].post;
    for (const op of [post, doc.paths[`${BASE}/confirm`].get, doc.paths[`${BASE}/unsubscribe`].get]) expect(op.security).to.deep.equal([]);
    expect(post.requestBody.content['application/json'].schema).to.include({ additionalProperties: false });
    expect(Object.keys(post.responses)).to.include.members(['202', '400', '429']);
    expect(Object.keys(doc.paths[`${BASE}/confirm`].get.responses)).to.include.members(['200', '404', '410']);
    expect(Object.keys(doc.paths[`${BASE}/unsubscribe`].get.responses)).to.include.members(['200', '404']);
  });
});
