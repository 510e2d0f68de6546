import { expect } from 'chai';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import { freshEmail } from '../support/client.js';
import { expectProblem, freshIp, httpSuite } from '../support/http-suite.js';
import { accepted, DAY, expectConfirmed, listSuiteOptions, PUBLIC } from '../support/mailing-list-suite.js';
import { linkIn, type CapturedMail } from '../support/smtp.js';

const BASE = '/api/v1/waitlist';
// A low anonymous-per-ip ceiling for the 429 test; every other call comes from an IP of its own.
const LIMIT = ['anonymous-per-ip=10000/60', 'anonymous-per-ip=5/3600'] as const;

httpSuite('waitlist', listSuiteOptions(LIMIT), (server) => {
  const { clock, log } = server;
  const runtime = () => server.runtime;
  const purgeJob = () => jobsOf(runtime()).find((j) => j.name === 'purge-unconfirmed-waitlist-addresses')!;
  const purge = () => runExclusive(runtime().db, log.logger, purgeJob());
  const client = () => server.client();
  const join = (body: unknown, headers: Record<string, string> = {}) => client().post(BASE, body, { headers: { 'X-Forwarded-For': freshIp(), ...headers } });
  const confirm = (token: string) => client().get(`${BASE}/confirm?token=${encodeURIComponent(token)}`, { headers: { 'X-Forwarded-For': freshIp() } });
  const tokenOf = (mail: CapturedMail) => linkIn(mail, `${PUBLIC}${BASE}/confirm?token=`).searchParams.get('token')!;
  const listed = (email: string) => runtime().deps.waitlist.byEmail(email.toLowerCase());
  async function joined(body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const email = (body['email'] as string | undefined) ?? freshEmail('waitlist');
    expect((await join({ email, ...body }, headers)).status).to.equal(202);
    const mail = await server.smtp.waitFor(email.trim(), (m) => m.text.includes(`${PUBLIC}${BASE}/confirm?token=`));
    return { email, mail, token: tokenOf(mail) };
  }
  async function mailsAfterDrain(email: string) {
    await runtime().mailer.drain();
    return server.smtp.to(email).length;
  }
  const register = (email: string, c = client()) => c.post('/api/v1/auth/register', { email, password: 'correct horse battery', displayName: 'Kari' });

  describe('POST /waitlist', () => {
    it('answers 202 with an empty body alike for a new, a known, a confirmed and an account\'s address; mails only the new one', async () => {
      const known = await joined();
      const confirmed = await joined();
      expect((await confirm(confirmed.token)).status).to.equal(200);
      const account = await joined();
      expect((await register(account.email)).status).to.equal(200);
      const fresh = freshEmail('waitlist');
      const answers = [fresh, known.email, confirmed.email, account.email].map((email) => join({ email }));
      expect((await Promise.all(answers)).map(accepted)).to.deep.equal(Array.from({ length: 4 }, () => ({ status: 202, text: '', type: null })));
      await server.smtp.waitFor(fresh);
      for (const email of [known.email, confirmed.email]) expect(await mailsAfterDrain(email)).to.equal(1);
      expect(server.smtp.to(account.email).filter((m) => m.subject === account.mail.subject)).to.have.length(1);
    });

    it('mails plain text and HTML in the asked language, else by Accept-Language, else bokmål; the token stored only hashed', async () => {
      const en = await joined({ language: 'en' });
      expect(en.mail.subject).to.equal('Confirm your place on the waitlist');
      expect(en.token).to.match(/^[A-Za-z0-9_-]{22,}$/);
      expect(en.mail.html).to.contain(`<a href="${PUBLIC}${BASE}/confirm?token=${en.token}">`);
      expect((await joined({}, { 'Accept-Language': 'en-GB,en;q=0.9,nb;q=0.5' })).mail.subject).to.equal('Confirm your place on the waitlist');
      expect((await joined({ language: 'nb' }, { 'Accept-Language': 'en' })).mail.subject).to.equal('Bekreft plassen din på ventelisten');
      const nb = await joined();
      expect(nb.mail.subject).to.equal('Bekreft plassen din på ventelisten');
      const row = await listed(nb.email);
      expect(row).to.include({ email: nb.email, language: 'nb', confirmedAt: null, accountId: null });
      const hashes = (await runtime().db.knex('waitlist_tokens').where('entry_id', row!.id).pluck('token_hash')) as string[];
      expect(hashes).to.deep.equal([runtime().deps.tokens.hash(nb.token)]);
    });

    it('keeps the address trimmed and lower-case', async () => {
      const email = freshEmail('Wait.Mixed');
      expect((await join({ email: `  ${email.toUpperCase()} ` })).status).to.equal(202);
      await server.smtp.waitFor(email.toLowerCase());
      expect((await listed(email))!.email).to.equal(email.toLowerCase());
    });

    it('answers 400 and stores and mails nothing for what is not an address or not the documented body', async () => {
      const email = freshEmail('waitlist');
      const rows = async () => [await runtime().db.knex('waitlist_entries').count({ n: '*' }), await runtime().db.knex('waitlist_tokens').count({ n: '*' })].map((r) => Number(r[0]!['n']));
      const before = await rows();
      for (const bad of ['not an address', 'kari@', 'kari@localhost', `${'x'.repeat(300)}@example.com`]) {
        expectProblem(await join({ email: bad }), 400, 'email_invalid');
      }
      for (const body of [{ email, name: 'Kari' }, { email, language: 'de' }, { email, language: 'NB' }, { email: 42 }, {}, [email], email]) {
        expectProblem(await join(body), 400, 'validation_failed');
      }
      const broken = { rawBody: `{"email": "${email}"`, headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() } };
      expectProblem(await client().post(BASE, undefined, broken), 400, 'validation_failed');
      expect(await mailsAfterDrain(email)).to.equal(0);
      expect(await listed(email)).to.equal(null);
      expect(await rows()).to.deep.equal(before);
      // Names match case-insensitively, as on every route.
      expect((await join({ EMAIL: email, Language: 'en' })).status).to.equal(202);
      expect((await server.smtp.waitFor(email)).subject).to.equal('Confirm your place on the waitlist');
    });

    it('mails an unconfirmed address at most once a day; a day later a fresh link; using one spends them all', async () => {
      const { email, mail, token } = await joined();
      clock.advance(DAY - 1000);
      expect((await join({ email })).status).to.equal(202);
      expect(await mailsAfterDrain(email)).to.equal(1);
      clock.advance(1000);
      expect((await join({ email, language: 'en' })).status).to.equal(202);
      const second = await server.smtp.waitFor(email, (m) => m !== mail);
      expect(second.subject).to.equal('Confirm your place on the waitlist');
      expect(tokenOf(second)).to.not.equal(token);
      expect((await join({ email })).status).to.equal(202);
      expect(await mailsAfterDrain(email)).to.equal(2);
      // The first link still confirms; then neither works again.
      expect((await confirm(token)).json).to.deep.equal({ status: 'confirmed' });
      expectProblem(await confirm(tokenOf(second)), 404, 'waitlist_token_unknown');
    });

    it('answers 429 with Retry-After to the 6th request of an IP within the hour; other IPs go on', async () => {
      const ip = freshIp();
      const from = (email: string) => client().post(BASE, { email }, { headers: { 'X-Forwarded-For': ip } });
      for (let i = 0; i < 5; i++) expect((await from(freshEmail('waitlist'))).status).to.equal(202);
      const res = await from(freshEmail('waitlist'));
      expectProblem(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).to.be.within(3500, 3600);
      expect((await join({ email: freshEmail('waitlist') })).status).to.equal(202);
    });
  });

  describe('GET /waitlist/confirm', () => {
    it('answers 200 confirmed once; the link is then spent and answers 404', async () => {
      const { email, token } = await joined();
      expectConfirmed(await confirm(token));
      const confirmedAt = (await listed(email))!.confirmedAt;
      expect(confirmedAt).to.deep.equal(clock.now());
      clock.advance(60_000);
      expectProblem(await confirm(token), 404, 'waitlist_token_unknown');
      expect((await listed(email))!.confirmedAt).to.deep.equal(confirmedAt);
    });

    it('answers 404 for a token never issued, 400 without a token', async () => {
      expectProblem(await confirm('x'.repeat(43)), 404, 'waitlist_token_unknown');
      expectProblem(await confirm(''), 404, 'waitlist_token_unknown');
      expectProblem(await client().get(`${BASE}/confirm`, { headers: { 'X-Forwarded-For': freshIp() } }), 400, 'validation_failed');
    });

    it('answers 410 once unconfirmed for over seven days, also after the hourly purge deleted the address', async () => {
      const unconfirmed = await joined();
      const confirmed = await joined();
      expect((await confirm(confirmed.token)).status).to.equal(200);
      expect(purgeJob().lockKey).to.equal(7_100_036);
      clock.advance(7 * DAY - 1000);
      expect(await purge()).to.equal(true);
      expect(await listed(unconfirmed.email)).to.not.equal(null);
      clock.advance(2000);
      expectProblem(await confirm(unconfirmed.token), 410, 'waitlist_token_expired');
      expect(await purge()).to.equal(true);
      expect(await listed(unconfirmed.email)).to.equal(null);
      expect(await listed(confirmed.email)).to.not.equal(null);
      expect(log.lines.some((l) => l['msg'] === 'purged the waitlist' && (l['expired'] as number) >= 1)).to.equal(true);
      expectProblem(await confirm(unconfirmed.token), 410, 'waitlist_token_expired');
      // A new request starts afresh, with a link that works.
      expect((await join({ email: unconfirmed.email })).status).to.equal(202);
      const again = await server.smtp.waitFor(unconfirmed.email, (m) => m !== unconfirmed.mail);
      expect((await confirm(tokenOf(again))).status).to.equal(200);
    });
  });

  describe('accounts', () => {
    it('turns the row into the account\'s on registering with the address; DELETE /me deletes it', async () => {
      const { email } = await joined();
      const c = client();
      const res = await register(email.toUpperCase(), c);
      expect(res.status, res.text).to.equal(200);
      const me = (await c.get('/api/v1/me')).json;
      expect(await listed(email)).to.include({ accountId: me.user.id, confirmedAt: null });
      // The account's row asks for no mail, and outlives the seven days of an unconfirmed address.
      expect((await join({ email })).status).to.equal(202);
      clock.advance(8 * DAY);
      expect(await purge()).to.equal(true);
      expect(await listed(email)).to.include({ accountId: me.user.id });
      await runtime().mailer.drain();
      expect(server.smtp.to(email).filter((m) => m.subject === 'Bekreft plassen din på ventelisten')).to.have.length(1);
      expect((await c.delete('/api/v1/me')).status).to.equal(204);
      expect(await listed(email)).to.equal(null);
    });

    it('DELETE /me also deletes the row of the account\'s address joined after registering; its link then answers 404', async () => {
      const { client: c, email } = await server.signedIn();
      const { token } = await joined({ email });
      expect(await listed(email)).to.include({ accountId: null });
      expect((await c.delete('/api/v1/me')).status).to.equal(204);
      expect(await listed(email)).to.equal(null);
      expectProblem(await confirm(token), 404, 'waitlist_token_unknown');
    });
  });

  it('documents both routes as Public with the strict body, their answers and problem codes', async () => {
    const doc = (await client().get('/api/v1/openapi.json', { headers: { 'X-Forwarded-For': freshIp() } })).json;
    const post = doc.paths[BASE].post;
    const get = doc.paths[`${BASE}/confirm`].get;
    for (const op of [post, get]) expect(op.security).to.deep.equal([]);
    expect(post.requestBody.content['application/json'].schema).to.include({ additionalProperties: false });
    expect(post.requestBody.content['application/json'].schema.required).to.deep.equal(['email']);
    expect(Object.keys(post.responses)).to.include.members(['202', '400', '429']);
    expect(Object.keys(get.responses)).to.include.members(['200', '404', '410']);
    expect(JSON.stringify(get.responses['404'])).to.contain('waitlist_token_unknown');
    expect(JSON.stringify(get.responses['410'])).to.contain('waitlist_token_expired');
    expect(JSON.stringify(post.responses['400'])).to.contain('email_invalid');
  });
});
