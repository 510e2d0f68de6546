import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';

/*
 * Closed by default (rule 3 of the authentication rules in docs/security.md): the routes the service declares are compared with the
 * rule's list of public routes, both ways, and every declared route is called without a session.
 */

/** The public routes of rule 3, route by route, plus the two documents that are Public too: the OpenAPI document and its reference page. */
const PUBLIC_ROUTES = [
  // health probes, robots.txt, app/version
  'GET /health',
  'GET /health/live',
  'GET /health/ready',
  'GET /robots.txt',
  'GET /api/v1/app/version',
  // register, login, confirm-email, confirm-email-change, forgot-password, reset-password
  'POST /api/v1/auth/register',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/confirm-email',
  'POST /api/v1/auth/confirm-email-change',
  'POST /api/v1/auth/forgot-password',
  'POST /api/v1/auth/reset-password',
  // providers, challenge, external-callback, exchange, idp/native
  'GET /api/v1/auth/providers',
  'GET /api/v1/auth/challenge/{provider}',
  'GET /api/v1/auth/external-callback',
  'POST /api/v1/auth/exchange',
  'POST /api/v1/auth/idp/native',
  // calendar .ics
  'GET /api/v1/calendar/{token}.ics',
  // an invite link's household and inviter, by its code
  'GET /api/v1/invites/{code}',
  // the data downloads
  'GET /api/v1/data/food-db-derived.jsonl.gz',
  'GET /api/v1/data/library-derived.jsonl.gz',
  'GET /api/v1/data/dinner-prices.json',
  'GET /api/v1/data/dinner-prices.csv',
  // dinner-price subscribe, confirm and unsubscribe
  'POST /api/v1/data/dinner-prices/subscribe',
  'GET /api/v1/data/dinner-prices/confirm',
  'GET /api/v1/data/dinner-prices/unsubscribe',
  // the waitlist and its confirm link
  'POST /api/v1/waitlist',
  'GET /api/v1/waitlist/confirm',
  // the billing webhook
  'POST /api/v1/billing/webhook',
  // the OpenAPI document and its reference page
  'GET /api/v1/openapi.json',
  'GET /api/docs',
].sort();

const fill = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID());

/**
 * A household's routes that a personal access token may NOT call (every other /api/v1/households/{householdId}/…
 * route takes one): who is in the household and who may join it, and the secret links that would outlive a revoked
 * token (an invite's code, the dinner calendar's address), the referral codes and the country's loyalty programmes
 * (not the household's own data).
 */
const HOUSEHOLD_ROUTES_WITHOUT_TOKENS = [
  'POST /api/v1/households/{householdId}/members',
  'PATCH /api/v1/households/{householdId}/members/{memberId}',
  'DELETE /api/v1/households/{householdId}/members/{memberId}',
  'POST /api/v1/households/{householdId}/invites',
  'GET /api/v1/households/{householdId}/invites',
  'DELETE /api/v1/households/{householdId}/invites/{code}',
  'GET /api/v1/households/{householdId}/dinner-calendar',
  'POST /api/v1/households/{householdId}/dinner-calendar/reset',
  'DELETE /api/v1/households/{householdId}/dinner-calendar',
  'GET /api/v1/households/{householdId}/referral-codes',
  'GET /api/v1/households/{householdId}/loyalty-programs',
].sort();

httpSuite('routes closed by default', {}, (server) => {
  const declared = () => server.runtime.routes.map((r) => ({ route: r, key: `${r.method} ${r.path}` }));

  it('declares Public exactly the routes of rule 3 (and the OpenAPI document and its reference page), each once', () => {
    const keys = declared().map((d) => d.key);
    expect(new Set(keys).size, 'each method and path declared once').to.equal(keys.length);
    expect(declared().filter((d) => d.route.auth === 'public').map((d) => d.key).sort()).to.deep.equal(PUBLIC_ROUTES);
    // Anything else takes the session cookie, and a personal access token only where it says so: a household's own
    // routes but those listed above.
    expect(declared().filter((d) => d.route.auth !== 'public' && d.route.auth !== 'session' && d.route.auth !== 'session-or-token' && d.route.auth !== 'token')).to.deep.equal([]);
    // A token alone opens only the MCP endpoint, which works for the token's own household.
    expect(declared().filter((d) => d.route.auth === 'token').map((d) => d.key)).to.deep.equal(['POST /mcp']);
    const ofHousehold = declared().filter((d) => d.route.path.startsWith('/api/v1/households/{householdId}'));
    const householdKeys = new Set(ofHousehold.map((d) => d.key));
    expect(declared().filter((d) => d.route.auth === 'session-or-token' && !householdKeys.has(d.key)), 'tokens reach household routes only').to.deep.equal([]);
    expect(ofHousehold.filter((d) => d.route.auth === 'session').map((d) => d.key).sort()).to.deep.equal(HOUSEHOLD_ROUTES_WITHOUT_TOKENS);
    expect(declared().filter((d) => d.route.auth === 'session').map((d) => d.key)).to.include.members([
      'POST /api/v1/auth/logout',
      'POST /api/v1/auth/resend-confirmation',
      'GET /api/v1/time-zones',
      'POST /api/v1/invites/accept',
      'POST /api/v1/feedback',
      'GET /api/v1/households/{householdId}/dinner-calendar',
    ]);
  });

  it('answers 401 unauthenticated without a session on every declared route but those of rule 3, which never ask for one', async () => {
    const anon = server.client();
    const statuses: Record<string, number> = {};
    for (const { route, key } of declared()) {
      const path = fill(route.path);
      const res = route.method === 'GET' ? await anon.get(path) : await anon.request(route.method, path, { body: {} });
      statuses[key] = res.status;
      expect(res.status, `${key}: ${res.text.slice(0, 200)}`).to.be.below(500);
      if (PUBLIC_ROUTES.includes(key)) {
        expect(res.status, `${key} is public: ${res.text.slice(0, 200)}`).to.not.equal(401);
      } else {
        expect(res.status, `${key} is closed: ${res.text.slice(0, 200)}`).to.equal(401);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(res.json.code).to.equal('unauthenticated');
      }
    }
    const open = Object.entries(statuses).filter(([, s]) => s !== 401).map(([k]) => k).sort();
    expect(open).to.deep.equal(PUBLIC_ROUTES);
  });

  it('takes the session only from the app_session cookie: the same token as a Bearer header, a query or another cookie opens nothing', async () => {
    const { client } = await server.signedIn();
    const token = client.cookie!;
    expect((await client.get('/api/v1/me')).status).to.equal(200);
    const households = await client.post('/api/v1/households', { name: 'Hansen' });
    const anon = server.client();
    // As a Bearer header it is taken for a personal access token: refused where tokens are not taken, unknown where they are.
    const bearer = { headers: { Authorization: `Bearer ${token}` } };
    const me = await anon.get('/api/v1/me', bearer);
    expect([me.status, me.json.code], me.text).to.deep.equal([403, 'token_not_for_route']);
    const own = await anon.get(`/api/v1/households/${households.json.id}`, bearer);
    expect([own.status, own.json.code], own.text).to.deep.equal([401, 'token_invalid']);
    for (const res of [
      await anon.get('/api/v1/me', { headers: { 'X-Api-Key': token } }),
      await anon.get(`/api/v1/me?app_session=${token}`),
      await anon.get('/api/v1/me', { headers: { Cookie: `session=${token}` } }),
    ]) {
      expect(res.status, res.text).to.equal(401);
      expect(res.json.code).to.equal('unauthenticated');
    }
  });

  it('documents the same split in the OpenAPI document: no security on the public routes, the session cookie on every other', async () => {
    const doc = (await server.client().get('/api/v1/openapi.json')).json as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const open: string[] = [];
    let closed = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.security, `${method} ${path} states its security`).to.be.an('array');
        if (op.security!.length === 0) open.push(`${method.toUpperCase()} ${path}`);
        else closed++;
      }
    }
    expect(open.sort()).to.deep.equal(PUBLIC_ROUTES);
    expect(closed).to.equal(declared().length - PUBLIC_ROUTES.length);
  });
});
