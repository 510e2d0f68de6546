import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { Client, freshEmail } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';
import { startTestServer } from '../support/server.js';

const sessionCookieOf = (headers: Headers) => headers.getSetCookie().find((c) => c.startsWith('app_session='));

httpSuite('accounts over HTTP', { env: { ADMIN_EMAILS: 'boss@example.com' } }, (server) => {
  describe('POST /api/v1/auth/register', () => {
    it('creates the account, answers 200 with no body and sets the session cookie', async () => {
      const client = server.client();
      const email = freshEmail();
      const res = await client.post('/api/v1/auth/register', { email, password: 'long enough', displayName: 'Kari' });
      expect(res.status).to.equal(200);
      expect(res.text).to.equal('');
      const cookie = sessionCookieOf(res.headers);
      expect(cookie).to.match(/^app_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
      const me = await client.get('/api/v1/me');
      expect(me.status).to.equal(200);
      expect(me.json.user).to.include({ email, displayName: 'Kari' });
      expect(me.json).to.include({ emailConfirmed: false, hasPassword: true, isPlatformAdmin: false });
    });

    it('answers a known address exactly like a fresh one, but without a session', async () => {
      const email = freshEmail();
      const first = await server.client().post('/api/v1/auth/register', { email, password: 'long enough', displayName: 'Kari' });
      const again = server.client();
      const second = await again.post('/api/v1/auth/register', { email: email.toUpperCase(), password: 'other password', displayName: 'Someone' });
      expect(second.status).to.equal(first.status);
      expect(second.text).to.equal(first.text);
      expect(second.headers.get('content-type')).to.equal(first.headers.get('content-type'));
      expect(sessionCookieOf(second.headers)).to.equal(undefined);
      // The first account is untouched: its password still works, the new one does not.
      expect((await server.client().post('/api/v1/auth/login', { email, password: 'long enough' })).status).to.equal(200);
      expect((await server.client().post('/api/v1/auth/login', { email, password: 'other password' })).status).to.equal(401);
    });

    it('refuses an unusable address or a short password with signup_rejected, creating nothing', async () => {
      for (const body of [
        { email: 'not-an-address', password: 'long enough', displayName: 'X' },
        { email: freshEmail(), password: 'short', displayName: 'X' },
      ]) {
        const client = server.client();
        const res = await client.post('/api/v1/auth/register', body);
        expect(res.status).to.equal(400);
        expect(res.json.code).to.equal('signup_rejected');
        expect(client.cookie).to.equal(undefined);
        expect((await server.client().post('/api/v1/auth/login', { email: body.email, password: body.password })).json.code).to.equal('invalid_credentials');
      }
    });

    it('refuses a password over 256 characters as value_too_long', async () => {
      const res = await server.client().post('/api/v1/auth/register', { email: freshEmail(), password: 'x'.repeat(257), displayName: 'X' });
      expect(res.status).to.equal(400);
      expect(res.json.code).to.equal('value_too_long');
    });

    it('stores the password as argon2id with OWASP parameters and the session only as its SHA-256', async () => {
      const { client, email } = await server.signedIn();
      const knex = server.runtime.db.knex;
      const row = await knex('accounts').where({ email_normalized: email.toLowerCase() }).first();
      expect(row.password_hash).to.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$/);
      const [, m, t] = /m=(\d+),t=(\d+)/.exec(row.password_hash)!;
      expect(Number(m)).to.be.at.least(19456);
      expect(Number(t)).to.be.at.least(2);
      const sessions = await knex('sessions').where({ account_id: row.id });
      expect(sessions).to.have.length(1);
      expect(sessions[0].token_hash).to.not.equal(client.cookie);
      expect(sessions[0].token_hash).to.equal(createHash('sha256').update(client.cookie!).digest('hex'));
    });
  });

  describe('POST /api/v1/auth/login', () => {
    it('signs in, answers MeResponse and sets the cookie', async () => {
      const { email, password } = await server.signedIn('Ola');
      const client = server.client();
      const res = await client.post('/api/v1/auth/login', { email: email.toUpperCase(), password });
      expect(res.status).to.equal(200);
      expect(sessionCookieOf(res.headers)).to.match(/HttpOnly; SameSite=Lax$/);
      expect(res.json.user).to.include({ email, displayName: 'Ola' });
      expect(res.json.memberships).to.deep.equal([]);
      expect(new Date(res.json.serverNow).toISOString()).to.equal(res.json.serverNow);
    });

    it('answers 401 invalid_credentials alike for a wrong password and an unknown address', async () => {
      const { email } = await server.signedIn();
      const wrong = await server.client().post('/api/v1/auth/login', { email, password: 'wrong password' });
      const unknown = await server.client().post('/api/v1/auth/login', { email: freshEmail(), password: 'wrong password' });
      for (const res of [wrong, unknown]) {
        expect(res.status).to.equal(401);
        expect(sessionCookieOf(res.headers)).to.equal(undefined);
      }
      const strip = (b: Record<string, unknown>) => ({ ...b, traceId: undefined });
      expect(strip(wrong.json)).to.deep.equal(strip(unknown.json));
      expect(wrong.json.code).to.equal('invalid_credentials');
    });

    it('marks the session cookie Secure when the public base URL is https', async () => {
      const secure = await startTestServer(server.kind, { PUBLIC_BASE_URL: 'https://dinner.example' });
      try {
        const res = await new Client(secure.url).post('/api/v1/auth/register', { email: freshEmail(), password: 'long enough', displayName: 'S' });
        expect(sessionCookieOf(res.headers)).to.match(/; Secure$/);
      } finally {
        await secure.stop();
      }
    });
  });

  describe('GET and PATCH /api/v1/me', () => {
    it('marks a configured platform admin', async () => {
      const client = server.client();
      await client.post('/api/v1/auth/register', { email: 'Boss@Example.com', password: 'long enough', displayName: 'Boss' });
      expect((await client.get('/api/v1/me')).json.isPlatformAdmin).to.equal(true);
    });

    it('changes only the display name', async () => {
      const { client, email } = await server.signedIn('Before');
      const res = await client.patch('/api/v1/me', { displayName: '  After  ', email: 'other@example.com' });
      expect(res.status).to.equal(200);
      expect(res.json.user).to.include({ displayName: 'After', email });
      expect((await client.get('/api/v1/me')).json.user.displayName).to.equal('After');
    });

    it('answers 400 account_name_length outside 1 to 80 characters and changes nothing', async () => {
      const { client } = await server.signedIn('Stays');
      for (const displayName of ['', '   ', 'x'.repeat(81)]) {
        const res = await client.patch('/api/v1/me', { displayName });
        expect(res.status).to.equal(400);
        expect(res.json.code).to.equal('account_name_length');
      }
      expect((await client.patch('/api/v1/me', { displayName: 'y'.repeat(80) })).status).to.equal(200);
      expect((await client.patch('/api/v1/me', { displayName: 'z'.repeat(81) })).status).to.equal(400);
      expect((await client.get('/api/v1/me')).json.user.displayName).to.equal('y'.repeat(80));
    });

    it('answers 401 when the cookie account no longer exists', async () => {
      const { client, email } = await server.signedIn();
      await server.runtime.db.knex('accounts').where({ email_normalized: email.toLowerCase() }).delete();
      const res = await client.get('/api/v1/me');
      expect(res.status).to.equal(401);
      expect(res.json.code).to.equal('unauthenticated');
    });

    it('answers 401 for a made-up cookie', async () => {
      const client = server.client();
      client.cookie = 'A'.repeat(43);
      expect((await client.get('/api/v1/me')).status).to.equal(401);
    });
  });

  describe('POST /api/v1/auth/logout', () => {
    it('ends the session, clears the cookie, and every other copy of a session of the account fails', async () => {
      const { client, email, password } = await server.signedIn();
      const copy = server.client();
      copy.cookie = client.cookie;
      const phone = server.client();
      expect((await phone.post('/api/v1/auth/login', { email, password })).status).to.equal(200);

      const res = await client.post('/api/v1/auth/logout');
      expect(res.status).to.equal(204);
      expect(res.headers.getSetCookie().some((c) => /^app_session=;.*Max-Age=0/.test(c))).to.equal(true);
      expect((await copy.get('/api/v1/me')).status).to.equal(401);
      expect((await phone.get('/api/v1/me')).status).to.equal(401);
      expect((await server.client().post('/api/v1/auth/login', { email, password })).status).to.equal(200);
    });

    it('answers 401 without a session', async () => {
      expect((await server.client().post('/api/v1/auth/logout')).status).to.equal(401);
    });
  });
});
