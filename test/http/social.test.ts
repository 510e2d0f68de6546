import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { eachDatabase, expectProblem, httpService } from '../support/http-suite.js';
import { freshEmail, type Answer } from '../support/client.js';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';

// The address the service believes it has: the provider sends the browser back there, and the test replays that
// request against the server's real loopback port.
const PUBLIC_BASE_URL = 'http://dinner.test';
const CALLBACK = `${PUBLIC_BASE_URL}/api/v1/auth/external-callback`;
const APP_URI = 'no.example.dinner:/oauth';
const OTHER_APP_URI = 'https://app.dinner.test/signed-in';
const NATIVE_ISSUER = 'https://appleid.example.com';
const NATIVE_AUDIENCE = 'no.example.dinner';
const MINUTE = 60_000;

const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const cookieOf = (res: Answer, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

eachDatabase('social and native sign-in over HTTP', (kind) => {
  describe('with nothing configured', () => {
    const server = httpService(kind);

    it('lists no providers', async () => {
      const res = await server.client().get('/api/v1/auth/providers');
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal([]);
    });

    it('knows no provider to challenge', async () => {
      expectProblem(await server.client().get('/api/v1/auth/challenge/Test'), 404, 'unknown_login_provider');
    });

    it('answers native sign-in with 404 idp_signin_unavailable', async () => {
      const client = server.client();
      expectProblem(await client.post('/api/v1/auth/idp/native', { identityToken: 'x.y.z' }), 404, 'idp_signin_unavailable');
      expect(client.cookie).to.equal(undefined);
    });

    it('documents every sign-in route with its lifetimes in the OpenAPI document', async () => {
      const doc = (await server.client().get('/api/v1/openapi.json')).json;
      expect(doc.paths['/api/v1/auth/providers'].get['x-rate-limit-class']).to.equal('auth');
      expect(doc.paths['/api/v1/auth/challenge/{provider}'].get.description).to.contain('10 minutes');
      expect(doc.paths['/api/v1/auth/external-callback'].get.description).to.contain('2 minutes');
      expect(doc.paths['/api/v1/auth/exchange'].post.description).to.contain('2 minutes');
      expect(doc.paths['/api/v1/auth/exchange'].post.responses['200'].content['application/json'].schema.properties).to.have.keys(
        'user', 'memberships', 'isPlatformAdmin', 'emailConfirmed', 'hasPassword', 'serverNow',
      );
      expect(doc.paths['/api/v1/auth/idp/native'].post['x-rate-limit-class']).to.equal('auth');
    });
  });

  describe('with an OpenID provider and native sign-in', () => {
    let idp: TestOidcProvider;
    let jwks: Server;
    let signingKey: CryptoKey;
    let otherKey: CryptoKey;
    // The provider and the native sign-in's key set, started before the service that is told their addresses.
    async function providers() {
      idp = await startOidcProvider(CALLBACK);
      const keys = await generateKeyPair('ES256');
      signingKey = keys.privateKey;
      otherKey = (await generateKeyPair('ES256')).privateKey;
      const publicJwk = { ...(await exportJWK(keys.publicKey)), kid: 'native-1', alg: 'ES256', use: 'sig' };
      jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] })));
      await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
      return {
        PUBLIC_BASE_URL,
        AUTH_PROVIDERS: JSON.stringify([{ scheme: 'Test', displayName: 'Test Identity', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }]),
        APP_REDIRECT_URIS: `${APP_URI},${OTHER_APP_URI}`,
        IDP_NATIVE_ISSUER: NATIVE_ISSUER,
        IDP_NATIVE_AUDIENCE: `other.audience,${NATIVE_AUDIENCE}`,
        IDP_NATIVE_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`,
      };
    }
    const server = httpService(kind, { now: new Date(), keepTime: true, env: providers });
    const { clock } = server;
    after(async () => {
      await idp?.stop();
      await new Promise((resolve) => jwks?.close(resolve));
    });

    /** The challenge's redirect, through the provider, back to the callback in the same browser. */
    async function throughProvider(query: string, who: string | { decline: true }, browser = server.client()) {
      const challenge = await browser.get(`/api/v1/auth/challenge/Test${query}`);
      expect(challenge.status, challenge.text).to.equal(302);
      const flowCookie = cookieOf(challenge, 'app_signin_state');
      const back = await idp.authorize(challenge.headers.get('location')!, who);
      expect(`${back.origin}${back.pathname}`).to.equal(CALLBACK);
      const headers: Record<string, string> = flowCookie ? { Cookie: flowCookie.split(';')[0]! } : {};
      const callback = await browser.get(`${back.pathname}${back.search}`, { headers });
      expect(callback.status, callback.text).to.equal(302);
      return { browser, challenge, flowCookie, back, callback, location: callback.headers.get('location')! };
    }

    const browserSignIn = (login: string, returnUrl = '/plans') => throughProvider(`?returnUrl=${encodeURIComponent(returnUrl)}`, login);

    async function appCode(login: string, redirectUri = APP_URI) {
      const pkce = pkcePair();
      const r = await throughProvider(`?codeChallenge=${pkce.challenge}&redirectUri=${encodeURIComponent(redirectUri)}`, login);
      expect(r.location.startsWith(`${redirectUri}?code=`), r.location).to.equal(true);
      const code = new URL(r.location).searchParams.get('code');
      expect(code).to.match(/^[A-Za-z0-9_-]{43}$/);
      return { ...r, verifier: pkce.verifier, code: code! };
    }

    const login = () => `user-${randomBytes(6).toString('hex')}`;

    it('lists the configured provider', async () => {
      expect((await server.client().get('/api/v1/auth/providers')).json).to.deep.equal([{ scheme: 'Test', displayName: 'Test Identity' }]);
    });

    describe('browser flow', () => {
      it('sends the browser to the provider with PKCE S256, state and nonce, binding the flow to the browser', async () => {
        const res = await server.client().get('/api/v1/auth/challenge/test?returnUrl=/plans');
        expect(res.status).to.equal(302);
        const to = new URL(res.headers.get('location')!);
        expect(`${to.origin}${to.pathname}`).to.equal(`${idp.issuer}/auth`);
        expect(Object.fromEntries(to.searchParams)).to.include({ client_id: idp.clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge_method: 'S256', scope: 'openid email profile' });
        for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p), p).to.match(/^[A-Za-z0-9_-]{43}$/);
        expect(cookieOf(res, 'app_signin_state')).to.equal(
          `app_signin_state=${to.searchParams.get('state')}; Path=/api/v1/auth/external-callback; Max-Age=600; HttpOnly; SameSite=Lax`,
        );
        expect(res.headers.get('cache-control')).to.equal('no-store');
      });

      it('signs a new person in: session cookie, redirect to returnUrl, an account without a password', async () => {
        const who = login();
        idp.users.set(who, { email: `${who}@example.com`, email_verified: true, name: 'Kari Nordmann' });
        const { browser, callback, location } = await browserSignIn(who, '/plans?week=18');
        expect(location).to.equal('/plans?week=18');
        expect(cookieOf(callback, 'app_session')).to.match(/^app_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
        expect(cookieOf(callback, 'app_signin_state')).to.match(/^app_signin_state=; .*Max-Age=0/);
        const me = await browser.get('/api/v1/me');
        expect(me.status).to.equal(200);
        expect(me.json.user).to.include({ email: `${who}@example.com`, displayName: 'Kari Nordmann' });
        expect(me.json).to.include({ hasPassword: false, emailConfirmed: true });
      });

      it('finds the same account at the next sign-in (the identity is linked)', async () => {
        const who = login();
        const first = await browserSignIn(who);
        const firstMe = (await first.browser.get('/api/v1/me')).json;
        idp.users.set(who, { email: `changed.${who}@example.com`, email_verified: true, name: 'Someone Else' });
        const second = await browserSignIn(who);
        const secondMe = (await second.browser.get('/api/v1/me')).json;
        expect(secondMe.user).to.deep.equal(firstMe.user);
        const rows = await server.runtime.db.knex('account_identities').where({ account_id: firstMe.user.id });
        expect(rows).to.have.length(1);
        expect(rows[0]).to.include({ issuer: idp.issuer, subject: who });
      });

      it('links an existing password account with the same verified address instead of making another', async () => {
        const email = freshEmail('social');
        const registered = server.client();
        expect((await registered.post('/api/v1/auth/register', { email, password: 'correct horse battery', displayName: 'Registered' })).status).to.equal(200);
        const before = (await registered.get('/api/v1/me')).json;
        await server.runtime.deps.accounts.markEmailConfirmed(before.user.id, new Date());
        const who = login();
        idp.users.set(who, { email: email.toUpperCase(), email_verified: true, name: 'From Provider' });
        const { browser } = await browserSignIn(who);
        const me = (await browser.get('/api/v1/me')).json;
        expect(me.user.id).to.equal(before.user.id);
        expect(me).to.include({ hasPassword: true, emailConfirmed: true });
        expect(me.user.displayName).to.equal('Registered');
        expect(await server.runtime.db.knex('accounts').where({ email_normalized: email.toLowerCase() })).to.have.length(1);
        // The password still works.
        expect((await server.client().post('/api/v1/auth/login', { email, password: 'correct horse battery' })).status).to.equal(200);
      });

      it('takes the password and sessions off an unconfirmed account it links to (a squatter may have set them)', async () => {
        const email = freshEmail('squatted');
        const squatter = server.client();
        expect((await squatter.post('/api/v1/auth/register', { email, password: 'squatting horse battery', displayName: 'Squatter' })).status).to.equal(200);
        const who = login();
        idp.users.set(who, { email, email_verified: true, name: 'Owner' });
        const { browser } = await browserSignIn(who);
        expect((await browser.get('/api/v1/me')).json).to.include({ hasPassword: false, emailConfirmed: true });
        expect((await squatter.get('/api/v1/me')).status).to.equal(401);
        expect((await server.client().post('/api/v1/auth/login', { email, password: 'squatting horse battery' })).status).to.equal(401);
      });

      it('makes a separate account when the provider has not verified the address', async () => {
        const email = freshEmail('unverified');
        const registered = server.client();
        await registered.post('/api/v1/auth/register', { email, password: 'correct horse battery', displayName: 'Registered' });
        const who = login();
        idp.users.set(who, { email, email_verified: false, name: 'Pretender' });
        const { browser } = await browserSignIn(who);
        const me = (await browser.get('/api/v1/me')).json;
        expect(me.user.id).to.not.equal((await registered.get('/api/v1/me')).json.user.id);
        expect(me.user).to.include({ email: null, displayName: 'Pretender' });
      });

      it('returns to / for a returnUrl that is not a site-relative path', async () => {
        for (const bad of ['https://evil.example/', '//evil.example/x', 'plans']) {
          expect((await browserSignIn(login(), bad)).location, bad).to.equal('/');
        }
      });

      it('ends on /login without a session when the person declines at the provider', async () => {
        const { callback, location, browser } = await throughProvider('?returnUrl=/plans', { decline: true });
        expect(location).to.equal('/login');
        expect(cookieOf(callback, 'app_session')).to.equal(undefined);
        expect(browser.cookie).to.equal(undefined);
      });

      it('ends on /login for an unknown, a used, or a missing state, or a flow started in another browser', async () => {
        const bad = await server.client().get('/api/v1/auth/external-callback?code=abc&state=not-a-state');
        expect(bad.status).to.equal(302);
        expect(bad.headers.get('location')).to.equal('/login');
        expect((await server.client().get('/api/v1/auth/external-callback')).headers.get('location')).to.equal('/login');

        const done = await browserSignIn(login());
        const replay = await server.client().get(`${done.back.pathname}${done.back.search}`, { headers: { Cookie: done.flowCookie!.split(';')[0]! } });
        expect(replay.headers.get('location')).to.equal('/login');

        // A victim's browser given the attacker's callback link: no cookie of that flow, no sign-in.
        const challenge = await server.client().get('/api/v1/auth/challenge/Test');
        const back = await idp.authorize(challenge.headers.get('location')!, login());
        const victim = server.client();
        const res = await victim.get(`${back.pathname}${back.search}`);
        expect(res.headers.get('location')).to.equal('/login');
        expect(victim.cookie).to.equal(undefined);
      });
    });

    describe('app flow', () => {
      it('ends on the app\'s URI with a code and no session; the code and its verifier give MeResponse and the cookie', async () => {
        const who = login();
        idp.users.set(who, { email: `${who}@example.com`, email_verified: true, name: 'App Person' });
        const { challenge, callback, code, verifier } = await appCode(who);
        expect(cookieOf(challenge, 'app_signin_state')).to.equal(undefined);
        expect(cookieOf(callback, 'app_session')).to.equal(undefined);
        expect(callback.headers.get('location')).to.equal(`${APP_URI}?code=${code}`);
        expect(callback.headers.get('cache-control')).to.equal('no-store');

        const app = server.client();
        const res = await app.post('/api/v1/auth/exchange', { code, codeVerifier: verifier });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.user).to.include({ email: `${who}@example.com`, displayName: 'App Person' });
        expect(res.json).to.include({ hasPassword: false, emailConfirmed: true, isPlatformAdmin: false });
        expect(res.json.memberships).to.deep.equal([]);
        expect(app.cookie).to.match(/^[A-Za-z0-9_-]{43}$/);
        expect((await app.get('/api/v1/me')).json.user.id).to.equal(res.json.user.id);
      });

      it('keeps a redirect URI\'s own query and adds the code', async () => {
        const { location, code } = await appCode(login(), OTHER_APP_URI);
        expect(location).to.equal(`${OTHER_APP_URI}?code=${code}`);
      });

      it('takes a code once', async () => {
        const { code, verifier } = await appCode(login());
        expect((await server.client().post('/api/v1/auth/exchange', { code, codeVerifier: verifier })).status).to.equal(200);
        const again = server.client();
        expectProblem(await again.post('/api/v1/auth/exchange', { code, codeVerifier: verifier }), 401, 'signin_code_spent');
        expect(again.cookie).to.equal(undefined);
      });

      it('gives exactly one of two simultaneous exchanges of one code a session', async () => {
        const { code, verifier } = await appCode(login());
        const answers = await Promise.all([0, 1].map(() => server.client().post('/api/v1/auth/exchange', { code, codeVerifier: verifier })));
        expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 401]);
      });

      it('refuses a wrong verifier, and the code is spent by the try', async () => {
        const { code, verifier } = await appCode(login());
        expectProblem(await server.client().post('/api/v1/auth/exchange', { code, codeVerifier: pkcePair().verifier }), 401, 'signin_code_spent');
        expectProblem(await server.client().post('/api/v1/auth/exchange', { code, codeVerifier: verifier }), 401, 'signin_code_spent');
      });

      it('refuses a code that was never issued', async () => {
        expectProblem(await server.client().post('/api/v1/auth/exchange', { code: randomBytes(32).toString('base64url'), codeVerifier: pkcePair().verifier }), 401, 'signin_code_spent');
      });

      it('refuses a code two minutes old', async () => {
        const { code, verifier } = await appCode(login());
        clock.advance(2 * MINUTE);
        expectProblem(await server.client().post('/api/v1/auth/exchange', { code, codeVerifier: verifier }), 401, 'signin_code_spent');
      });

      it('ends on the app\'s URI with error=account when the sign-in fails', async () => {
        const pkce = pkcePair();
        const { location, callback } = await throughProvider(`?codeChallenge=${pkce.challenge}&redirectUri=${encodeURIComponent(APP_URI)}`, { decline: true });
        expect(location).to.equal(`${APP_URI}?error=account`);
        expect(cookieOf(callback, 'app_session')).to.equal(undefined);
      });

      it('refuses an incomplete or disallowed app challenge with 400 app_signin_incomplete, and an unknown provider with 404', async () => {
        const { challenge } = pkcePair();
        const client = server.client();
        expectProblem(await client.get(`/api/v1/auth/challenge/Test?codeChallenge=${challenge}`), 400, 'app_signin_incomplete');
        expectProblem(await client.get(`/api/v1/auth/challenge/Test?redirectUri=${encodeURIComponent(APP_URI)}`), 400, 'app_signin_incomplete');
        expectProblem(await client.get(`/api/v1/auth/challenge/Test?codeChallenge=${challenge}&redirectUri=${encodeURIComponent('https://evil.example/cb')}`), 400, 'app_signin_incomplete');
        expectProblem(await client.get(`/api/v1/auth/challenge/Unknown?codeChallenge=${challenge}&redirectUri=${encodeURIComponent(APP_URI)}`), 404, 'unknown_login_provider');
        expectProblem(await client.get('/api/v1/auth/challenge/Unknown'), 404, 'unknown_login_provider');
      });
    });

    describe('native identity token', () => {
      const seconds = () => Math.floor(clock.now().getTime() / 1000);
      const token = (claims: JWTPayload = {}, over: { key?: CryptoKey; issuer?: string; audience?: string; exp?: number } = {}) =>
        new SignJWT({ email_verified: 'true', ...claims })
          .setProtectedHeader({ alg: 'ES256', kid: 'native-1' })
          .setIssuer(over.issuer ?? NATIVE_ISSUER)
          .setAudience(over.audience ?? NATIVE_AUDIENCE)
          .setSubject(typeof claims.sub === 'string' ? claims.sub : `native.${randomBytes(6).toString('hex')}`)
          .setIssuedAt(seconds())
          .setExpirationTime(over.exp ?? seconds() + 300)
          .sign(over.key ?? signingKey);
      const signIn = (body: Record<string, unknown>) => {
        const client = server.client();
        return client.post('/api/v1/auth/idp/native', body).then((res) => ({ res, client }));
      };

      it('signs a new person in with MeResponse and the cookie, named from givenName and familyName', async () => {
        const email = freshEmail('native');
        const { res, client } = await signIn({ identityToken: await token({ email }), givenName: 'Ola', familyName: 'Nordmann' });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.user).to.include({ email, displayName: 'Ola Nordmann' });
        expect(res.json).to.include({ hasPassword: false, emailConfirmed: true });
        expect(cookieOf(res, 'app_session')).to.match(/^app_session=[A-Za-z0-9_-]{43}; /);
        expect((await client.get('/api/v1/me')).json.user.id).to.equal(res.json.user.id);
      });

      it('finds the same account for the same subject', async () => {
        const sub = `native.${randomBytes(6).toString('hex')}`;
        const first = await signIn({ identityToken: await token({ sub, email: freshEmail('native') }) });
        const second = await signIn({ identityToken: await token({ sub }), givenName: null, familyName: null, email: null, rawNonce: null });
        expect(second.res.status, second.res.text).to.equal(200);
        expect(second.res.json.user).to.deep.equal(first.res.json.user);
      });

      it('accepts the nonce when the token carries the SHA-256 of rawNonce', async () => {
        const rawNonce = randomBytes(16).toString('hex');
        const nonce = createHash('sha256').update(rawNonce).digest('hex');
        const { res } = await signIn({ identityToken: await token({ nonce }), rawNonce });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.user.displayName).to.equal('Dinner user');
      });

      it('rejects with 401 idp_signin_rejected a foreign signature, issuer, audience, an expired token or a wrong nonce', async () => {
        const rawNonce = randomBytes(16).toString('hex');
        const cases: Record<string, Record<string, unknown>> = {
          'other key': { identityToken: await token({}, { key: otherKey }) },
          'other issuer': { identityToken: await token({}, { issuer: 'https://evil.example.com' }) },
          'other audience': { identityToken: await token({}, { audience: 'com.evil.app' }) },
          expired: { identityToken: await token({}, { exp: seconds() - 300 }) },
          'nonce mismatch': { identityToken: await token({ nonce: createHash('sha256').update('something else').digest('hex') }), rawNonce },
          'raw nonce in the token': { identityToken: await token({ nonce: rawNonce }), rawNonce },
          'not a token': { identityToken: 'not.a.token' },
        };
        for (const [name, body] of Object.entries(cases)) {
          const { res, client } = await signIn(body);
          expect(res.status, `${name}: ${res.text}`).to.equal(401);
          expect(res.json.code, name).to.equal('idp_signin_rejected');
          expect(client.cookie, name).to.equal(undefined);
        }
      });
    });
  });
});
