/**
 * Personal access tokens over a real socket, on SQLite and on Postgres: making, listing and revoking them with the
 * session cookie; what a token reaches (its household's routes that take tokens, reading only or reading and
 * writing) and what it never reaches; expiry; a revocation seen at once by a second process on the same database;
 * the token rate class; and the OpenAPI document's account of it all.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createRuntime, type Runtime } from '../../bootstrap/runtime.js';
import { listen, type RunningServer } from '../../bootstrap/server.js';
import { Client, type Answer, type RequestOptions } from '../support/client.js';
import { expectProblem, httpSuite, type HttpService } from '../support/http-suite.js';
import { ownedHousehold } from '../support/household.js';
import { captureLog, TEST_RATE_LIMITS } from '../support/server.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const TOKENS = '/api/v1/me/access-tokens';

/** A client that sends a personal access token, and no cookie unless it is given one. */
class TokenClient extends Client {
  constructor(
    baseUrl: string,
    readonly secret: string,
  ) {
    super(baseUrl);
  }

  override request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    return super.request(method, path, { ...options, headers: { Authorization: `Bearer ${this.secret}`, ...options.headers } });
  }
}

/** A household of a fresh Owner, and a token of the Owner's for it. */
async function household(server: HttpService, scope: 'read' | 'read-write', expiresInDays?: number) {
  const h = await ownedHousehold(server.url);
  const res = await h.owner.post(TOKENS, { name: 'Skriptet', householdId: h.id, scope, ...(expiresInDays ? { expiresInDays } : {}) });
  expect(res.status, res.text).to.equal(201);
  return { ...h, made: res.json as { secret: string; token: { id: string } }, token: new TokenClient(server.url, res.json.secret as string) };
}

/** A recipe as POST recipes takes it. */
const TACO = { title: 'Taco', servings: 4, activeMinutes: null, totalMinutes: 30, steps: [], ingredients: [] };

const fill = (path: string, householdId: string) => path.replace('{householdId}', householdId).replace(/\{[^}]+\}/g, () => randomUUID());
const send = (client: Client, method: string, path: string) => (method === 'GET' ? client.get(path) : client.request(method, path, { body: {} }));

httpSuite('personal access tokens', { now: NOW }, (server) => {
  it('makes a token whose dp_pat_ secret is shown once and kept only as its SHA-256; lists and revokes it', async () => {
    const h = await ownedHousehold(server.url);
    const res = await h.owner.post(TOKENS, { name: '  Kjøkkenskjermen ', householdId: h.id, scope: 'read' });
    expect(res.status, res.text).to.equal(201);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const { secret, token } = res.json;
    expect(secret).to.match(/^dp_pat_[A-Za-z0-9_-]{43}$/);
    expect(token).to.deep.equal({
      id: token.id,
      name: 'Kjøkkenskjermen',
      householdId: h.id,
      householdName: 'Hansen',
      scope: 'read',
      createdAt: NOW.toISOString(),
      expiresAt: new Date(NOW.getTime() + 90 * DAY).toISOString(),
      lastUsedAt: null,
      state: 'active',
    });
    const rows = (await server.runtime.db.knex('access_tokens')) as Record<string, unknown>[];
    const row = rows.find((r) => r['id'] === token.id)!;
    expect(row['token_hash']).to.equal(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(rows)).to.not.include(secret.slice('dp_pat_'.length));
    const listed = await h.owner.get(TOKENS);
    expect(listed.json).to.deep.equal([token]);
    expect(listed.text).to.not.include(secret.slice('dp_pat_'.length));

    expect((await h.owner.delete(`${TOKENS}/${token.id}`)).status).to.equal(204);
    expect((await h.owner.get(TOKENS)).json).to.deep.equal([]);
    expectProblem(await h.owner.delete(`${TOKENS}/${token.id}`), 404, 'access_token_not_found');
  });

  it("refuses a household the person is not a member of, a bad name or lifetime, and the 21st live token", async () => {
    const h = await ownedHousehold(server.url);
    const other = await ownedHousehold(server.url);
    expectProblem(await h.owner.post(TOKENS, { name: 'x', householdId: other.id, scope: 'read' }), 404, 'household_not_found');
    expectProblem(await h.owner.post(TOKENS, { name: '   ', householdId: h.id, scope: 'read' }), 400, 'validation_failed');
    expectProblem(await h.owner.post(TOKENS, { name: 'x', householdId: h.id, scope: 'admin' }), 400, 'validation_failed');
    expectProblem(await h.owner.post(TOKENS, { name: 'x', householdId: h.id, scope: 'read', expiresInDays: 366 }), 400, 'validation_failed');
    expectProblem(await h.owner.post(TOKENS, { name: 'x'.repeat(81), householdId: h.id, scope: 'read' }), 400, 'value_too_long');
    for (let i = 0; i < 20; i++) expect((await h.owner.post(TOKENS, { name: `t${i}`, householdId: h.id, scope: 'read', expiresInDays: 365 })).status).to.equal(201);
    const full = await h.owner.post(TOKENS, { name: 'one more', householdId: h.id, scope: 'read' });
    expectProblem(full, 409, 'access_token_limit');
    expect(full.json.max).to.equal(20);
    expect((await h.owner.get(TOKENS)).json).to.have.length(20);
  });

  it("lets a read token read its household and refuses its writes with 403 token_read_only, writing nothing", async () => {
    const h = await household(server, 'read');
    const got = await h.token.get(`/api/v1/households/${h.id}`);
    expect(got.status, got.text).to.equal(200);
    expect(got.json.name).to.equal('Hansen');
    expect(got.headers.get('cache-control')).to.equal('no-store');
    expect((await h.token.request('HEAD', `/api/v1/households/${h.id}/recipes`)).status).to.equal(200);
    const write = await h.token.post(`/api/v1/households/${h.id}/recipes`, TACO);
    expectProblem(write, 403, 'token_read_only');
    expect(write.headers.get('www-authenticate')).to.equal('Bearer error="insufficient_scope", scope="read-write"');
    expect((await h.owner.get(`/api/v1/households/${h.id}/recipes`)).json.items).to.deep.equal([]);
  });

  it('lets a read-write token write its household as its person, and see it read back', async () => {
    const h = await household(server, 'read-write');
    const made = await h.token.post(`/api/v1/households/${h.id}/recipes`, TACO);
    expect(made.status, made.text).to.equal(201);
    expect((await h.owner.get(`/api/v1/households/${h.id}/recipes/${made.json.id}`)).json.title).to.equal('Taco');
    const week = await h.token.put(`/api/v1/households/${h.id}/plans/week/2026-05-04`);
    expect(week.status, week.text).to.equal(200);
    const set = await h.token.put(`/api/v1/households/${h.id}/plans/${week.json.id}/days/2026-05-06`, { recipeId: made.json.id, portions: null, note: null });
    expect(set.status, set.text).to.equal(200);
    expect((await h.token.get(`/api/v1/households/${h.id}/plans/${week.json.id}`)).json.days[2].recipeId).to.equal(made.json.id);
  });

  it("answers another household 404 household_not_found, also one its person is a member of", async () => {
    const h = await household(server, 'read-write');
    const theirs = await ownedHousehold(server.url, 'Andre');
    const mine = await h.owner.post('/api/v1/households', { name: 'Hytta' });
    for (const id of [theirs.id, mine.json.id as string, randomUUID()]) {
      expectProblem(await h.token.get(`/api/v1/households/${id}`), 404, 'household_not_found');
      expectProblem(await h.token.get(`/api/v1/households/${id}/recipes`), 404, 'household_not_found');
      expectProblem(await h.token.post(`/api/v1/households/${id}/recipes`, TACO), 404, 'household_not_found');
    }
    expect((await h.owner.get(`/api/v1/households/${mine.json.id}/recipes`)).status, 'the session still reaches it').to.equal(200);
  });

  it('refuses every route that does not take tokens with 403 token_not_for_route, even a read-write token of an Owner', async () => {
    const h = await household(server, 'read-write');
    const refused = server.runtime.routes.filter((r) => r.auth === 'session');
    expect(refused.length).to.be.greaterThan(20);
    for (const r of refused) {
      const res = await send(h.token, r.method, fill(r.path, h.id));
      expect(res.status, `${r.method} ${r.path}: ${res.text.slice(0, 200)}`).to.equal(403);
      expect(res.json.code, `${r.method} ${r.path}`).to.equal('token_not_for_route');
    }
    // Nothing happened: the account, its tokens and its household are as they were.
    expect((await h.owner.get('/api/v1/me')).status).to.equal(200);
    expect((await h.owner.get(TOKENS)).json).to.have.length(1);
    expect((await h.owner.get(`/api/v1/households/${h.id}/invites`)).json).to.deep.equal([]);
    // A public route does not read the header at all.
    expect((await h.token.get('/api/v1/app/version')).status).to.equal(200);
  });

  it("answers every route that takes tokens without a token refusal: a read token its reads, a read-write one its writes", async () => {
    const reader = await household(server, 'read');
    const writer = await household(server, 'read-write');
    const routes = server.runtime.routes.filter((r) => r.auth === 'session-or-token');
    expect(routes.length).to.be.greaterThan(60);
    for (const r of routes) {
      const client = r.method === 'GET' ? reader : writer;
      const res = await send(client.token, r.method, fill(r.path, client.id));
      expect(res.status, `${r.method} ${r.path}: ${res.text.slice(0, 200)}`).to.be.below(500).and.not.equal(401);
      expect(String(res.json?.code ?? ''), `${r.method} ${r.path}`).to.not.match(/^token_/);
      if (r.method !== 'GET') expectProblem(await send(reader.token, r.method, fill(r.path, reader.id)), 403, 'token_read_only');
    }
  });

  it('answers 401 token_invalid to a malformed, unknown or revoked token, and 401 token_expired once it expired', async () => {
    const h = await household(server, 'read', 7);
    const path = `/api/v1/households/${h.id}`;
    for (const secret of ['dp_pat_', 'not-a-token', `dp_pat_${'A'.repeat(43)}`, h.made.secret.slice('dp_pat_'.length)]) {
      const res = await new TokenClient(server.url, secret).get(path);
      expectProblem(res, 401, 'token_invalid');
      expect(res.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
    }
    server.clock.set(new Date(NOW.getTime() + 7 * DAY - 1));
    expect((await h.token.get(path)).status).to.equal(200);
    server.clock.set(new Date(NOW.getTime() + 7 * DAY));
    expectProblem(await h.token.get(path), 401, 'token_expired');
    expect((await h.owner.get(TOKENS)).json[0].state).to.equal('expired');
  });

  it('stops a token whose person leaves the household, and lists it as not-a-member', async () => {
    const h = await ownedHousehold(server.url);
    const kari = await h.join('Adult', 'Kari');
    const made = (await kari.client.post(TOKENS, { name: 'Kari', householdId: h.id, scope: 'read' })).json;
    const token = new TokenClient(server.url, made.secret);
    expect((await token.get(`/api/v1/households/${h.id}`)).status).to.equal(200);
    expect((await h.owner.delete(`/api/v1/households/${h.id}/members/${kari.memberId}`)).status).to.equal(204);
    expectProblem(await token.get(`/api/v1/households/${h.id}`), 401, 'token_invalid');
    expect((await kari.client.get(TOKENS)).json[0].state).to.equal('not-a-member');
  });

  it("acts as the token's person when a cookie of another account comes along, and notes the last use once a minute", async () => {
    const h = await household(server, 'read');
    const stranger = await server.signedIn('Stranger');
    const both = await h.token.get(`/api/v1/households/${h.id}`, { headers: { Cookie: `app_session=${stranger.client.cookie}` } });
    expect(both.status, both.text).to.equal(200);
    const lastUse = async () => (await h.owner.get(TOKENS)).json[0].lastUsedAt;
    expect(await lastUse()).to.equal(NOW.toISOString());
    server.clock.set(new Date(NOW.getTime() + 30_000));
    await h.token.get(`/api/v1/households/${h.id}`);
    expect(await lastUse()).to.equal(NOW.toISOString());
    server.clock.set(new Date(NOW.getTime() + 61_000));
    await h.token.get(`/api/v1/households/${h.id}`);
    expect(await lastUse()).to.equal(new Date(NOW.getTime() + 61_000).toISOString());
  });

  it('refuses an Idempotency-Key with a token (keys are kept per session), and writes nothing', async () => {
    const h = await household(server, 'read-write');
    const res = await h.token.post(`/api/v1/households/${h.id}/recipes`, TACO, { headers: { 'Idempotency-Key': randomUUID() } });
    expectProblem(res, 400, 'validation_failed');
    expect(res.json.detail).to.match(/Idempotency-Key/);
    expect((await h.owner.get(`/api/v1/households/${h.id}/recipes`)).json.items).to.deep.equal([]);
  });

  it('takes the tokens routes with the session cookie only', async () => {
    const h = await household(server, 'read-write');
    expectProblem(await h.token.get(TOKENS), 403, 'token_not_for_route');
    expectProblem(await h.token.post(TOKENS, { name: 'x', householdId: h.id, scope: 'read-write' }), 403, 'token_not_for_route');
    expectProblem(await h.token.delete(`${TOKENS}/${h.made.token.id}`), 403, 'token_not_for_route');
    expectProblem(await server.client().get(TOKENS), 401, 'unauthenticated');
  });

  describe('a second process on the same database', () => {
    let second: { runtime: Runtime; running: RunningServer } | undefined;
    before(async () => {
      const runtime = await createRuntime(server.config, { logger: captureLog().logger, clock: server.clock, ...(server.database.schema ? { schema: server.database.schema } : {}) });
      second = { runtime, running: await listen(runtime, 0, '127.0.0.1') };
    });
    after(async () => {
      await second?.running.stop();
    });

    it('refuses a token on its next request right after the first process revoked it, round after round', async () => {
      for (let round = 0; round < 10; round++) {
        const h = await household(server, 'read');
        const there = new TokenClient(second!.running.url, h.made.secret);
        // The second process has answered the token, and its person's session and membership, before.
        expect((await there.get(`/api/v1/households/${h.id}`)).status).to.equal(200);
        expect((await there.get(`/api/v1/households/${h.id}/recipes`)).status).to.equal(200);
        expect((await h.owner.delete(`${TOKENS}/${h.made.token.id}`)).status).to.equal(204);
        expectProblem(await there.get(`/api/v1/households/${h.id}`), 401, 'token_invalid');
      }
    });
  });
});

httpSuite('personal access tokens: the token rate class', { env: { RATE_LIMITS: `${TEST_RATE_LIMITS},token=3/60` } }, (server) => {
  it("counts an account's token requests in the token class, apart from its session's", async () => {
    const h = await household(server, 'read-write');
    const path = `/api/v1/households/${h.id}`;
    const other = (await h.owner.post(TOKENS, { name: 'Andre', householdId: h.id, scope: 'read' })).json.secret as string;
    expect((await h.token.get(path)).status).to.equal(200);
    expect((await h.token.get(path)).status).to.equal(200);
    expect((await new TokenClient(server.url, other).get(path)).status, "the account's tokens share one budget").to.equal(200);
    const limited = await h.token.get(path);
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect((await h.owner.get(path)).status, "the person's session counts apart").to.equal(200);
    const elsewhere = await household(server, 'read');
    expect((await elsewhere.token.get(`/api/v1/households/${elsewhere.id}`)).status, 'another account counts apart').to.equal(200);
  });
});

httpSuite('personal access tokens in the OpenAPI document', {}, (server) => {
  it('documents the Bearer scheme, and for every operation whether a token may call it', async () => {
    const doc = (await server.client().get('/api/v1/openapi.json')).json;
    expect(doc.components.securitySchemes.personalAccessToken).to.include({ type: 'http', scheme: 'bearer' });
    expect(doc.info.description).to.include('Authorization: Bearer').and.include('token (every request made with a personal');
    for (const r of server.runtime.routes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      const key = `${r.method} ${r.path}`;
      if (r.auth === 'public') {
        expect(op['x-token-access'], key).to.equal(undefined);
        continue;
      }
      // The MCP endpoint takes a token alone, of either scope (it offers a read token only its reading tools).
      const access = r.auth === 'token' ? 'token-only' : r.auth === 'session' ? 'none' : r.method === 'GET' ? 'read' : 'read-write';
      expect(op['x-token-access'], key).to.equal(access);
      expect(op.security, key).to.deep.equal(access === 'none' ? [{ session: [] }] : access === 'token-only' ? [{ personalAccessToken: [] }] : [{ session: [] }, { personalAccessToken: [] }]);
      if (access === 'none') expect(op.responses['403'].description, key).to.include('token_not_for_route');
      if (access !== 'none') expect(op.responses['401'].description, key).to.include('token_invalid').and.include('token_expired');
      if (access === 'read-write') expect(op.responses['403'].description, key).to.include('token_read_only');
    }
  });
});
