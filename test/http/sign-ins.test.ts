import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';

const GOOGLE = 'https://accounts.example.com';
const APPLE = 'https://appleid.example.com';
const PROVIDERS = JSON.stringify([{ scheme: 'google', displayName: 'Google', issuer: `${GOOGLE}/`, clientId: 'dinner', clientSecret: 'secret' }]);

httpSuite('GET/DELETE /api/v1/me/sign-ins', { env: { AUTH_PROVIDERS: PROVIDERS } }, (server) => {
  // Subjects are unique per issuer across accounts: each test's account gets its own.
  let n = 0;
  async function withLinks(options: { password: boolean }) {
    n++;
    const { client } = await server.signedIn('Kari');
    const me = (await client.get('/api/v1/me')).json.user.id as string;
    const { identities, accounts } = server.runtime.deps;
    if (!options.password) await accounts.setPassword(me, null, null, new Date());
    await identities.link({ issuer: GOOGLE, subject: `g-${n}`, accountId: me, email: 'kari@gmail.example', createdAt: new Date('2026-05-01T10:00:00.000Z') });
    await identities.link({ issuer: APPLE, subject: `a-${n}`, accountId: me, email: null, createdAt: new Date('2026-05-02T10:00:00.000Z') });
    expect((await identities.identitiesOf(me)).length).to.equal(2);
    return { client, g: `g-${n}`, a: `a-${n}` };
  }

  it('lists the password and the linked providers, oldest first, each named by its configured provider', async () => {
    const { client, g, a } = await withLinks({ password: true });
    const res = await client.get('/api/v1/me/sign-ins');
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({
      hasPassword: true,
      identities: [
        { issuer: GOOGLE, subject: g, provider: { scheme: 'google', displayName: 'Google' }, email: 'kari@gmail.example', linkedAt: '2026-05-01T10:00:00.000Z' },
        { issuer: APPLE, subject: a, provider: null, email: null, linkedAt: '2026-05-02T10:00:00.000Z' },
      ],
    });
    expect((await server.client().get('/api/v1/me/sign-ins')).status).to.equal(401);
  });

  it('unlinks a provider; without a password the last one stays (409 last_sign_in); an unknown link is 404', async () => {
    const { client, g, a } = await withLinks({ password: false });
    const unlink = (issuer: string, subject: string) => client.delete(`/api/v1/me/sign-ins?issuer=${encodeURIComponent(issuer)}&subject=${encodeURIComponent(subject)}`);
    const missing = await unlink(GOOGLE, 'nobody');
    expect([missing.status, missing.json.code]).to.deep.equal([404, 'sign_in_not_found']);
    expect((await unlink(GOOGLE, g)).status).to.equal(204);
    const last = await unlink(APPLE, a);
    expect([last.status, last.json.code, last.headers.get('content-type')]).to.deep.equal([409, 'last_sign_in', 'application/problem+json']);
    expect((await client.get('/api/v1/me/sign-ins')).json).to.deep.include({ hasPassword: false });
    expect((await client.get('/api/v1/me/sign-ins')).json.identities.map((i: { subject: string }) => i.subject)).to.deep.equal([a]);
    const bad = await client.delete('/api/v1/me/sign-ins?issuer=');
    expect([bad.status, bad.json.code]).to.deep.equal([400, 'validation_failed']);
  });

  it("with a password, every provider may go; another account's link is not found", async () => {
    const { client, g, a } = await withLinks({ password: true });
    const other = (await server.signedIn('Ola')).client;
    const theirs = await other.delete(`/api/v1/me/sign-ins?issuer=${encodeURIComponent(GOOGLE)}&subject=${g}`);
    expect(theirs.status).to.equal(404);
    for (const [issuer, subject] of [[GOOGLE, g], [APPLE, a]]) {
      expect((await client.delete(`/api/v1/me/sign-ins?issuer=${encodeURIComponent(issuer!)}&subject=${subject}`)).status).to.equal(204);
    }
    expect((await client.get('/api/v1/me/sign-ins')).json).to.deep.equal({ hasPassword: true, identities: [] });
  });
});
