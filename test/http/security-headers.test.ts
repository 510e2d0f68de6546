import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Answer } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';

/*
 * The security headers of docs/security.md on every kind of answer: nosniff and
 * no-referrer on JSON, problems, the .ics feed, the downloads and the HTML reference; no-store on signed-in
 * answers; the session cookie's attributes wherever it is set or cleared; and no CORS grant to any origin.
 */

const EVIL = 'https://evil.example';
const sessionCookieOf = (res: Answer) => res.headers.getSetCookie().find((c) => c.startsWith('app_session='));

/** GET of a binary or text answer: the status and headers, without decoding the body as JSON. */
async function head(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers }> {
  const res = await fetch(url, { headers, redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, headers: res.headers };
}

httpSuite('security headers', {}, (server) => {
  function expectBrowserSafety(what: string, headers: Headers): void {
    expect(headers.get('x-content-type-options'), `nosniff on ${what}`).to.equal('nosniff');
    expect(headers.get('referrer-policy'), `Referrer-Policy on ${what}`).to.equal('no-referrer');
  }

  it('sends nosniff and no-referrer on a JSON answer, problems, the .ics feed, the downloads and the HTML reference', async () => {
    const hh = await server.household();
    const link = await hh.owner.get(`${hh.base}/dinner-calendar`);
    expect(link.status, link.text).to.equal(200);
    const ics = await head(server.url + new URL(link.json.url as string).pathname);
    expect(ics.status).to.equal(200);
    expect(ics.headers.get('content-type')).to.match(/^text\/calendar/);
    expectBrowserSafety('the .ics feed', ics.headers);

    const json = await hh.owner.get('/api/v1/me');
    expect(json.status).to.equal(200);
    expect(json.headers.get('content-type')).to.match(/^application\/json/);
    expectBrowserSafety('a JSON answer', json.headers);

    const problems = [
      await hh.owner.get(`/api/v1/households/${randomUUID()}`),
      await server.client().get('/api/v1/me'),
      await server.client().get(`/api/v1/calendar/${'x'.repeat(43)}.ics`),
      await server.client().post('/api/v1/auth/login', undefined, { rawBody: `{"email":"${'x'.repeat(1024 * 1024)}"}`, headers: { 'Content-Type': 'application/json' } }),
    ];
    expect(problems.map((p) => p.status)).to.deep.equal([404, 401, 404, 413]);
    for (const p of problems) {
      expect(p.headers.get('content-type'), p.text.slice(0, 200)).to.match(/^application\/problem\+json/);
      expectBrowserSafety(`a ${p.status} problem`, p.headers);
    }

    for (const path of [
      '/api/v1/data/library-derived.jsonl.gz',
      '/api/v1/data/food-db-derived.jsonl.gz',
      '/api/v1/data/dinner-prices.json',
      '/api/v1/data/dinner-prices.csv',
      '/api/v1/openapi.json',
      '/api/docs',
    ]) {
      const res = await head(server.url + path);
      expect(res.status, path).to.equal(200);
      expectBrowserSafety(path, res.headers);
    }
  });

  it('lets the HTML reference run only its own scripts from this service, and load nothing from elsewhere', async () => {
    const res = await head(`${server.url}/api/docs`);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).to.contain("default-src 'none'").and.contain("script-src 'self';").and.contain("connect-src 'self';");
    expect(csp).to.not.match(/https?:|unsafe-eval/);
    const page = await (await fetch(`${server.url}/api/docs`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('/api/v1/'));
    expect(assets).to.deep.equal(['/api/docs/assets/swagger-ui.css', '/api/docs/assets/docs.css', '/api/docs/assets/swagger-ui-bundle.js', '/api/docs/assets/init.js']);
    for (const a of assets) {
      const r = await fetch(server.url + a);
      expect(r.status, a).to.equal(200);
      expect(r.headers.get('content-type'), a).to.match(a.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect((await r.text()).length, a).to.be.greaterThan(50);
    }
    expect((await fetch(`${server.url}/api/docs/assets/nothing.js`)).status).to.equal(404);
  });

  it('marks signed-in answers no-store, problems included; routes with a caching rule of their own keep it', async () => {
    const hh = await server.household();
    const answers = [
      await hh.owner.get('/api/v1/me'),
      await hh.owner.get(hh.base),
      await hh.owner.patch('/api/v1/me', { displayName: 'Still me' }),
      await hh.owner.get(`${hh.base}/dinner-calendar`),
      await hh.owner.get(`/api/v1/households/${randomUUID()}`),
    ];
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 404]);
    for (const a of answers) expect(a.headers.get('cache-control'), `${a.status} ${a.text.slice(0, 100)}`).to.equal('no-store');

    expect((await hh.owner.get('/api/v1/time-zones')).headers.get('cache-control')).to.equal('private, max-age=86400');
    const plan = await hh.owner.put(`${hh.base}/plans/week/2026-03-25`);
    expect(plan.status, plan.text).to.equal(200);
    const list = await hh.owner.get(`${hh.base}/plans/${plan.json.id}/shopping-list`);
    expect(list.status, list.text).to.equal(200);
    expect(list.headers.get('cache-control')).to.equal('private, no-cache');
    // Public answers keep theirs: app/version may sit in a shared cache.
    expect((await server.client().get('/api/v1/app/version')).headers.get('cache-control')).to.equal('public, max-age=60');
  });

  it('sets and clears the session cookie HttpOnly, SameSite=Lax on Path=/ every time', async () => {
    const { client, email, password } = await server.signedIn();
    const login = await server.client().post('/api/v1/auth/login', { email, password });
    expect(login.status).to.equal(200);
    expect(sessionCookieOf(login)).to.match(/^app_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);

    const out = await client.post('/api/v1/auth/logout');
    expect(out.status).to.equal(204);
    expect(sessionCookieOf(out)).to.equal('app_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');

    // A cookie naming no session is cleared with the same attributes on the 401.
    const stale = await server.client().get('/api/v1/me', { headers: { Cookie: 'app_session=Zm9yZ2VkLXNlc3Npb24tdG9rZW4tdGhhdC1kb2VzLW5vdA' } });
    expect(stale.status).to.equal(401);
    expect(sessionCookieOf(stale)).to.equal('app_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });

  it('grants no origin CORS access, to a simple request or a preflight', async () => {
    const { client } = await server.signedIn();
    const answers = [
      await client.get('/api/v1/me', { headers: { Origin: EVIL } }),
      await server.client().get('/health', { headers: { Origin: EVIL } }),
      await server.client().request('OPTIONS', '/api/v1/me', { headers: { Origin: EVIL, 'Access-Control-Request-Method': 'PATCH' } }),
      await server.client().request('OPTIONS', '/api/v1/auth/login', { headers: { Origin: EVIL, 'Access-Control-Request-Method': 'POST' } }),
    ];
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 405, 405]);
    for (const a of answers) {
      const granted = [...a.headers.keys()].filter((h) => h.startsWith('access-control-'));
      expect(granted, `${a.status}`).to.deep.equal([]);
    }
  });

  it('refuses a cookie-carrying write from an opaque origin (Origin: null, as a sandboxed frame sends)', async () => {
    const { client } = await server.signedIn();
    const res = await client.post('/api/v1/households', { name: 'Framed' }, { headers: { Origin: 'null' } });
    expect(res.status, res.text).to.equal(403);
    expect(res.json.code).to.equal('cross_site_request');
    expect((await client.get('/api/v1/me')).json.memberships).to.deep.equal([]);
  });
});
