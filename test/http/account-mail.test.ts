import { expect } from 'chai';
import { freshEmail } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';
import { linkIn } from '../support/smtp.js';

const PUBLIC = 'https://dinner.example';
const MINUTE = 60_000;
const PASSWORD = 'correct horse battery';

httpSuite('account mails, confirmation and recovery', { mail: true, now: new Date(), keepTime: true, env: { PUBLIC_BASE_URL: PUBLIC, LOCKOUT: '3/900/300' } }, (server) => {
  const { clock } = server;

  const client = () => server.client();
  async function registered(headers: Record<string, string> = {}) {
    const c = client();
    const email = freshEmail();
    const res = await c.post('/api/v1/auth/register', { email, password: PASSWORD, displayName: 'Kari' }, { headers });
    expect(res.status, res.text).to.equal(200);
    return { c, email, confirmation: await server.smtp.waitFor(email) };
  }

  describe('register and confirm-email', () => {
    it('mails a fresh address a single-use confirmation link in bokmål by default', async () => {
      const { c, email, confirmation } = await registered();
      expect(confirmation.subject).to.equal('Bekreft e-postadressen din');
      expect(confirmation.html).to.contain('<a href=');
      const link = linkIn(confirmation, `${PUBLIC}/confirm-email?`);
      const me = (await c.get('/api/v1/me')).json;
      expect(link.searchParams.get('userId')).to.equal(me.user.id);
      const token = link.searchParams.get('token')!;
      expect(token.length).to.be.at.least(22);
      expect(me.emailConfirmed).to.equal(false);

      expect((await client().post('/api/v1/auth/confirm-email', { userId: me.user.id, token })).status).to.equal(204);
      expect((await c.get('/api/v1/me')).json.emailConfirmed).to.equal(true);
      // A second click on a confirmed address answers 204 again.
      expect((await client().post('/api/v1/auth/confirm-email', { userId: me.user.id, token })).status).to.equal(204);
      expect(server.smtp.to(email)).to.have.length(1);
    });

    it('writes in English when Accept-Language prefers it', async () => {
      const { confirmation } = await registered({ 'Accept-Language': 'en-GB,en;q=0.9,nb;q=0.5' });
      expect(confirmation.subject).to.equal('Confirm your e-mail address');
    });

    it('answers 400 invalid_token for a wrong or foreign token while unconfirmed', async () => {
      const a = await registered();
      const b = await registered();
      const aId = (await a.c.get('/api/v1/me')).json.user.id;
      const bToken = linkIn(b.confirmation, `${PUBLIC}/confirm-email?`).searchParams.get('token')!;
      for (const token of ['not-the-token', bToken]) {
        const res = await client().post('/api/v1/auth/confirm-email', { userId: aId, token });
        expect(res.status).to.equal(400);
        expect(res.json.code).to.equal('invalid_token');
      }
      expect((await a.c.get('/api/v1/me')).json.emailConfirmed).to.equal(false);
    });

    it('mails a known address an already-have-an-account notice and starts no session', async () => {
      const { email } = await registered();
      const again = client();
      const res = await again.post('/api/v1/auth/register', { email, password: 'another password', displayName: 'X' });
      expect(res.status).to.equal(200);
      expect(again.cookie).to.equal(undefined);
      const notice = await server.smtp.waitFor(email, (m) => m.subject === 'Du har allerede en konto');
      expect(linkIn(notice, `${PUBLIC}/forgot-password`).pathname).to.equal('/forgot-password');
    });

    it('refuses a breached password with password_pwned and creates nothing', async () => {
      const email = freshEmail();
      const res = await client().post('/api/v1/auth/register', { email, password: 'password1', displayName: 'X' });
      expect(res.status).to.equal(400);
      expect(res.json.code).to.equal('password_pwned');
      expect((await client().post('/api/v1/auth/login', { email, password: 'password1' })).status).to.equal(401);
    });
  });

  it("refuses a password built from common Norwegian words, the service's name or the address, saying which, and creates nothing", async () => {
    for (const [password, reason] of [
      ['Sommer2027!', 'common-word'],
      ['p4ss0rd99', 'common-word'],
      ['Middag2027', 'service-name'],
      ['ola.nordmann77', 'email'],
    ] as const) {
      // Digits only beside the name: the address adds no other word.
      const email = `ola.nordmann.${process.hrtime.bigint()}@example.com`;
      const res = await client().post('/api/v1/auth/register', { email, password, displayName: 'Ola' });
      expect([res.status, res.json.code, res.json.reason], password).to.deep.equal([400, 'password_guessable', reason]);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect((await client().post('/api/v1/auth/login', { email, password })).status, password).to.equal(401);
    }
  });

  describe('resend-confirmation', () => {
    it('answers 429 resend_cooldown within five minutes, then mails again; nothing once confirmed', async () => {
      const { c, email, confirmation } = await registered();
      const early = await c.post('/api/v1/auth/resend-confirmation');
      expect(early.status).to.equal(429);
      expect(early.json.code).to.equal('resend_cooldown');
      expect(Number(early.headers.get('retry-after'))).to.be.within(1, 300);
      clock.advance(5 * MINUTE);
      expect((await c.post('/api/v1/auth/resend-confirmation')).status).to.equal(204);
      const second = await server.smtp.waitFor(email, (m) => m !== confirmation);
      const link = linkIn(second, `${PUBLIC}/confirm-email?`);
      expect((await client().post('/api/v1/auth/confirm-email', { userId: link.searchParams.get('userId'), token: link.searchParams.get('token') })).status).to.equal(204);
      clock.advance(5 * MINUTE);
      expect((await c.post('/api/v1/auth/resend-confirmation')).status).to.equal(204);
      await server.runtime.mailer.drain();
      expect(server.smtp.to(email)).to.have.length(2);
    });
  });

  describe('forgot-password and reset-password', () => {
    it('always answers 204; only a known address gets a link, at most one per five minutes', async () => {
      const { email } = await registered();
      const unknown = freshEmail();
      for (const address of [unknown, email, email, 'not an address']) {
        const res = await client().post('/api/v1/auth/forgot-password', { email: address });
        expect(res.status).to.equal(204);
        expect(res.text).to.equal('');
      }
      await server.runtime.mailer.drain();
      expect(server.smtp.to(unknown)).to.have.length(0);
      expect(server.smtp.to(email).filter((m) => m.subject === 'Lag nytt passord')).to.have.length(1);
      clock.advance(5 * MINUTE);
      await client().post('/api/v1/auth/forgot-password', { email });
      await server.runtime.mailer.drain();
      expect(server.smtp.to(email).filter((m) => m.subject === 'Lag nytt passord')).to.have.length(2);
    });

    it('sets the new password once, confirms the address and ends every session', async () => {
      const { c, email } = await registered();
      await client().post('/api/v1/auth/forgot-password', { email });
      const mail = await server.smtp.waitFor(email, (m) => m.subject === 'Lag nytt passord');
      const link = linkIn(mail, `${PUBLIC}/reset-password?`);
      expect(link.searchParams.get('email')).to.equal(email);
      const token = link.searchParams.get('token')!;

      const short = await client().post('/api/v1/auth/reset-password', { email, token, newPassword: 'short' });
      expect([short.status, short.json.code]).to.deep.equal([400, 'password_rejected']);
      const pwned = await client().post('/api/v1/auth/reset-password', { email, token, newPassword: 'password123' });
      expect([pwned.status, pwned.json.code]).to.deep.equal([400, 'password_pwned']);
      // Refused before the token is spent: the link still works below.
      const guessable = await client().post('/api/v1/auth/reset-password', { email, token, newPassword: 'Hemmelig2027' });
      expect([guessable.status, guessable.json.code, guessable.json.reason]).to.deep.equal([400, 'password_guessable', 'common-word']);
      const wrongEmail = await client().post('/api/v1/auth/reset-password', { email: freshEmail(), token: 'x'.repeat(43), newPassword: 'a brand new secret' });
      expect([wrongEmail.status, wrongEmail.json.code]).to.deep.equal([400, 'invalid_token']);

      expect((await client().post('/api/v1/auth/reset-password', { email, token, newPassword: 'a brand new secret' })).status).to.equal(204);
      expect((await c.get('/api/v1/me')).status).to.equal(401);
      expect((await client().post('/api/v1/auth/login', { email, password: PASSWORD })).status).to.equal(401);
      const fresh = client();
      expect((await fresh.post('/api/v1/auth/login', { email, password: 'a brand new secret' })).json.emailConfirmed).to.equal(true);
      const reused = await client().post('/api/v1/auth/reset-password', { email, token, newPassword: 'yet another secret' });
      expect([reused.status, reused.json.code]).to.deep.equal([400, 'invalid_token']);
    });

    it('gives exactly one success to simultaneous uses of one link', async () => {
      const { email } = await registered();
      await client().post('/api/v1/auth/forgot-password', { email });
      const token = linkIn(await server.smtp.waitFor(email, (m) => m.subject === 'Lag nytt passord'), `${PUBLIC}/reset-password?`).searchParams.get('token')!;
      const answers = await Promise.all(
        ['first new secret', 'second new secret', 'third new secret'].map((newPassword) => client().post('/api/v1/auth/reset-password', { email, token, newPassword })),
      );
      expect(answers.map((a) => a.status).sort()).to.deep.equal([204, 400, 400]);
    });
  });

  describe('lockout', () => {
    it('locks an address after a run of wrong passwords, alike for known and unknown addresses', async () => {
      const { email } = await registered();
      const unknown = freshEmail();
      const run = async (address: string, password: string) => {
        const c = client();
        const res = await c.post('/api/v1/auth/login', { email: address, password });
        return { status: res.status, body: { ...res.json, traceId: undefined }, cookie: c.cookie };
      };
      const known: unknown[] = [];
      const stranger: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        known.push(await run(email, 'wrong password'));
        stranger.push(await run(unknown, 'wrong password'));
      }
      expect(known).to.deep.equal(stranger);
      expect((known as { status: number }[]).map((k) => k.status)).to.deep.equal([401, 401, 401, 423]);
      expect((known[3] as { body: { code: string } }).body.code).to.equal('account_locked');
      // The right password is refused while locked, without a cookie.
      const locked = await run(email, PASSWORD);
      expect([locked.status, locked.cookie]).to.deep.equal([423, undefined]);
      clock.advance(5 * MINUTE);
      expect((await run(email, PASSWORD)).status).to.equal(200);
    });

    it('lets forgot-password and reset-password through while locked, and the reset lifts the lock', async () => {
      const { email } = await registered();
      for (let i = 0; i < 3; i++) await client().post('/api/v1/auth/login', { email, password: 'wrong password' });
      expect((await client().post('/api/v1/auth/login', { email, password: PASSWORD })).status).to.equal(423);
      expect((await client().post('/api/v1/auth/forgot-password', { email })).status).to.equal(204);
      const token = linkIn(await server.smtp.waitFor(email, (m) => m.subject === 'Lag nytt passord'), `${PUBLIC}/reset-password?`).searchParams.get('token')!;
      expect((await client().post('/api/v1/auth/reset-password', { email, token, newPassword: 'unlocked at last' })).status).to.equal(204);
      expect((await client().post('/api/v1/auth/login', { email, password: 'unlocked at last' })).status).to.equal(200);
    });
  });

  describe('POST /api/v1/me/password', () => {
    it('needs the current password, checks the new one, keeps this session and ends the others', async () => {
      const { client: c, email, password } = await server.signedIn();
      const other = client();
      await other.post('/api/v1/auth/login', { email, password });
      for (const [body, code] of [
        [{ currentPassword: 'wrong password', newPassword: 'a brand new secret' }, 'wrong_current_password'],
        [{ currentPassword: null, newPassword: 'a brand new secret' }, 'wrong_current_password'],
        [{ currentPassword: password, newPassword: 'short' }, 'password_rejected'],
        [{ currentPassword: password, newPassword: 'iloveyou' }, 'password_pwned'],
        [{ currentPassword: password, newPassword: 'Vinter2027!' }, 'password_guessable'],
      ] as const) {
        const res = await c.post('/api/v1/me/password', body);
        expect([res.status, res.json.code], JSON.stringify(body)).to.deep.equal([400, code]);
      }
      expect((await other.get('/api/v1/me')).status).to.equal(200);
      expect((await c.post('/api/v1/me/password', { currentPassword: password, newPassword: 'a brand new secret' })).status).to.equal(204);
      expect((await c.get('/api/v1/me')).status).to.equal(200);
      expect((await other.get('/api/v1/me')).status).to.equal(401);
      expect((await client().post('/api/v1/auth/login', { email, password: 'a brand new secret' })).status).to.equal(200);
      expect((await client().post('/api/v1/auth/login', { email, password })).status).to.equal(401);
    });

    it('lets a social-only account set a first password', async () => {
      const { deps } = server.runtime;
      const email = freshEmail();
      const account = await deps.accounts.create({
        id: crypto.randomUUID(), email, emailConfirmed: true, displayName: 'Social', language: 'nb', passwordHash: null, securityStamp: 'stamp', createdAt: clock.now(),
      });
      if (account === 'email-taken') throw new Error('taken');
      const { startSession } = await import('../../core/accounts/sessions.js');
      const c = client();
      c.cookie = (await startSession(deps, account))!.token;
      expect((await c.get('/api/v1/me')).json.hasPassword).to.equal(false);
      expect((await c.post('/api/v1/me/password', { currentPassword: null, newPassword: 'my first password' })).status).to.equal(204);
      expect((await c.get('/api/v1/me')).json.hasPassword).to.equal(true);
      expect((await client().post('/api/v1/auth/login', { email, password: 'my first password' })).status).to.equal(200);
    });

    it('keeps long passwords whole and answers an absurdly long one with 400 before hashing', async () => {
      const long = 'x'.repeat(99) + 'Y';
      const c = client();
      const email = freshEmail();
      expect((await c.post('/api/v1/auth/register', { email, password: long, displayName: 'Long' })).status).to.equal(200);
      expect((await client().post('/api/v1/auth/login', { email, password: long.slice(0, 99) })).status).to.equal(401);
      expect((await client().post('/api/v1/auth/login', { email, password: long })).status).to.equal(200);
      const absurd = await client().post('/api/v1/auth/login', { email, password: 'z'.repeat(500_000) });
      expect([absurd.status, absurd.json.code]).to.deep.equal([400, 'value_too_long']);
    });
  });

  describe('POST /api/v1/me/email and confirm-email-change', () => {
    it('changes nothing until confirmed; then moves the login, revokes other sessions and keeps the confirming one', async () => {
      const { client: c, email, password } = await server.signedIn();
      const other = client();
      await other.post('/api/v1/auth/login', { email, password });
      const bad = await c.post('/api/v1/me/email', { newEmail: 'not an address' });
      expect([bad.status, bad.json.code]).to.deep.equal([400, 'email_not_an_address']);

      const newEmail = freshEmail('moved');
      expect((await c.post('/api/v1/me/email', { newEmail })).status).to.equal(204);
      const confirm = await server.smtp.waitFor(newEmail);
      const notice = await server.smtp.waitFor(email, (m) => m.subject === 'E-postadressen din er i ferd med å endres');
      expect(linkIn(notice, `${PUBLIC}/reset-password?`).searchParams.get('email')).to.equal(email);
      const link = linkIn(confirm, `${PUBLIC}/confirm-email-change?`);
      expect(link.searchParams.get('newEmail')).to.equal(newEmail);
      // Nothing has changed yet.
      expect((await c.get('/api/v1/me')).json.user.email).to.equal(email);
      expect((await client().post('/api/v1/auth/login', { email, password })).status).to.equal(200);

      const body = { userId: link.searchParams.get('userId'), newEmail, token: link.searchParams.get('token') };
      const wrong = await client().post('/api/v1/auth/confirm-email-change', { ...body, newEmail: freshEmail() });
      expect([wrong.status, wrong.json.code]).to.deep.equal([400, 'invalid_token']);
      // The wrong try used the link up: ask again.
      clock.advance(MINUTE);
      expect((await c.post('/api/v1/me/email', { newEmail })).status).to.equal(204);
      const second = linkIn(await server.smtp.waitFor(newEmail, (m) => m !== confirm), `${PUBLIC}/confirm-email-change?`);
      expect((await c.post('/api/v1/auth/confirm-email-change', { ...body, token: second.searchParams.get('token') })).status).to.equal(204);

      const me = (await c.get('/api/v1/me')).json;
      expect(me.user.email).to.equal(newEmail);
      expect(me.emailConfirmed).to.equal(true);
      expect((await other.get('/api/v1/me')).status).to.equal(401);
      expect((await client().post('/api/v1/auth/login', { email: newEmail, password })).status).to.equal(200);
      expect((await client().post('/api/v1/auth/login', { email, password })).status).to.equal(401);
    });

    it('answers 204 for a taken address without mailing it, and a link whose address got taken is invalid', async () => {
      const a = await server.signedIn();
      const b = await server.signedIn();
      expect((await a.client.post('/api/v1/me/email', { newEmail: b.email })).status).to.equal(204);
      const target = freshEmail('contested');
      await a.client.post('/api/v1/me/email', { newEmail: target });
      const link = linkIn(await server.smtp.waitFor(target), `${PUBLIC}/confirm-email-change?`);
      await server.runtime.mailer.drain();
      expect(server.smtp.to(b.email).filter((m) => m.subject.startsWith('Bekreft ny'))).to.have.length(0);
      // Someone registers the address before the link is used.
      await client().post('/api/v1/auth/register', { email: target, password: 'someone else entirely', displayName: 'C' });
      const res = await client().post('/api/v1/auth/confirm-email-change', { userId: link.searchParams.get('userId'), newEmail: target, token: link.searchParams.get('token') });
      expect([res.status, res.json.code]).to.deep.equal([400, 'invalid_token']);
      expect((await a.client.get('/api/v1/me')).json.user.email).to.equal(a.email);
    });
  });

  describe('DELETE /api/v1/me', () => {
    it('takes a household nobody else uses along and signs out', async () => {
      const { client: c, email, password } = await server.signedIn();
      const h = (await c.post('/api/v1/households', { name: 'Alone' })).json;
      expect((await c.delete('/api/v1/me')).status).to.equal(204);
      expect((await c.get('/api/v1/me')).status).to.equal(401);
      expect((await client().post('/api/v1/auth/login', { email, password })).status).to.equal(401);
      expect(await server.runtime.deps.households.byId(h.id)).to.equal(null);
    });

    it('refuses while the caller is the only Owner of a household others use; an Adult just leaves', async () => {
      const owner = await server.signedIn();
      const adult = await server.signedIn();
      const h = (await owner.client.post('/api/v1/households', { name: 'Shared' })).json;
      const adultId = (await adult.client.get('/api/v1/me')).json.user.id;
      await server.runtime.deps.households.addMember(h.id, { id: crypto.randomUUID(), displayName: 'Adult', role: 'Adult', accountId: adultId, createdAt: clock.now() });

      const refused = await owner.client.delete('/api/v1/me');
      expect([refused.status, refused.json.code]).to.deep.equal([400, 'owner_required']);
      expect((await owner.client.get('/api/v1/me')).status).to.equal(200);

      expect((await adult.client.delete('/api/v1/me')).status).to.equal(204);
      const after = (await owner.client.get(`/api/v1/households/${h.id}`)).json;
      expect(after.members.map((m: { role: string }) => m.role)).to.deep.equal(['Owner']);
      expect((await owner.client.delete('/api/v1/me')).status).to.equal(204);
    });
  });
});
