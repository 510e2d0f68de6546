import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { expect } from 'chai';
import { jsonLogger } from '../../adapters/log/json-logger.js';
import { Client, freshEmail, signedInClient, type Answer } from '../support/client.js';
import { expectProblem, httpSuite } from '../support/http-suite.js';
import { startTestServer, type TestServer } from '../support/server.js';

/*
 * The conventions every operation shares (see the OpenAPI document's description): trace ids, Server-Timing, X-Diagnostics, browser-safety headers, problem bodies, 404/405/500,
 * request validation, the NUL rule, body size and media type, closed-by-default routes and the cross-site guard.
 */

const DEFAULT_PROBLEM_BASE = 'http://localhost:8080/problems';
const HEX32 = /^[0-9a-f]{32}$/;
const PASSWORD = 'correct horse battery';

/** The pieces of a Server-Timing header: name → { dur, desc }. */
function parseServerTiming(header: string | null): { name: string; dur: number; desc?: string }[] {
  expect(header, 'Server-Timing header').to.be.a('string').and.not.equal('');
  return header!.split(',').map((part) => {
    const [name, ...params] = part.trim().split(';');
    const entry: { name: string; dur: number; desc?: string } = { name: name!.trim(), dur: NaN };
    for (const p of params) {
      const eq = p.indexOf('=');
      const key = p.slice(0, eq).trim();
      const value = p.slice(eq + 1).trim();
      if (key === 'dur') {
        expect(value, `dur of ${entry.name}`).to.match(/^\d+(\.\d+)?$/);
        entry.dur = Number(value);
      } else if (key === 'desc') entry.desc = value;
    }
    return entry;
  });
}

/** Parses the reply of a raw HTTP/1.1 exchange (Content-Length or close-delimited bodies). */
function parseRawReply(raw: Buffer): { status: number; headers: Record<string, string>; body: string } {
  const text = raw.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  expect(split, `a complete HTTP head in ${JSON.stringify(text.slice(0, 200))}`).to.be.greaterThan(0);
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine!);
  expect(m, `status line ${statusLine}`).to.not.equal(null);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['content-length'] !== undefined) body = Buffer.from(body, 'utf8').subarray(0, Number(headers['content-length'])).toString('utf8');
  return { status: Number(m![1]), headers, body };
}

/** Writes `request` byte for byte on a fresh TCP connection and reads until the server closes it. */
function rawExchange(baseUrl: string, request: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseRawReply(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

httpSuite('HTTP conventions', {}, (server) => {
  let anon: Client;
  let problemBase: string;
  before(() => {
    anon = server.client();
    problemBase = server.config.problemBaseUrl;
  });

  /** A full problem+json answer with the given status and code, consistent with its own headers. */
  function expectProblem(res: Answer, status: number, code: string, instance?: string): void {
    expect(res.status, res.text).to.equal(status);
    expect(res.headers.get('content-type'), 'content type').to.match(/^application\/problem\+json\b/);
    const body = res.json;
    expect(body, res.text).to.be.an('object');
    expect(body.code).to.equal(code);
    expect(body.status).to.equal(status);
    expect(body.type).to.equal(`${problemBase}/${code}`);
    expect(body.title).to.be.a('string').and.not.equal('');
    expect(body.detail).to.be.a('string').and.not.equal('');
    expect(body.instance).to.be.a('string');
    if (instance !== undefined) expect(body.instance).to.equal(instance);
    expect(body.traceId).to.match(HEX32);
    expect(res.headers.get('x-trace-id')).to.equal(body.traceId);
  }

  function expectFieldErrors(res: Answer, path: string): void {
    const errors = res.json?.errors;
    expect(errors, res.text).to.be.an('array').that.is.not.empty;
    for (const e of errors as unknown[]) {
      expect(e).to.be.an('object');
      expect((e as { path: unknown }).path).to.be.a('string');
      expect((e as { message: unknown }).message).to.be.a('string').and.not.equal('');
    }
    expect((errors as { path: string }[]).map((e) => e.path)).to.include(path);
  }

  async function me(client: Client): Promise<{ displayName: string; memberships: unknown[] }> {
    const res = await client.get('/api/v1/me');
    expect(res.status, res.text).to.equal(200);
    return { displayName: res.json.user.displayName, memberships: res.json.memberships };
  }

  describe('X-Trace-Id and traceparent', () => {
    it('is on every kind of response, 32 lower-hex, and equals traceId of a problem', async () => {
      const { client } = await server.signedIn();
      const cases: { res: Answer; status: number; problem: boolean }[] = [
        { res: await anon.get('/health'), status: 200, problem: false },
        { res: await client.get('/api/v1/me'), status: 200, problem: false },
        { res: await anon.get('/api/v1/me'), status: 401, problem: true },
        { res: await anon.get('/api/v1/no-such-route'), status: 404, problem: true },
        { res: await anon.request('DELETE', '/health'), status: 405, problem: true },
        { res: await anon.post('/api/v1/auth/login', {}), status: 400, problem: true },
      ];
      const seen = new Set<string>();
      for (const { res, status, problem } of cases) {
        expect(res.status, res.text).to.equal(status);
        const traceId = res.headers.get('x-trace-id');
        expect(traceId, `X-Trace-Id on ${status}`).to.match(HEX32);
        if (problem) expect(res.json.traceId).to.equal(traceId);
        seen.add(traceId!);
      }
      expect(seen.size, 'a fresh trace id per request').to.equal(cases.length);
    });

    it('continues a valid incoming traceparent', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
      const ok = await anon.get('/health', { headers: { traceparent } });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('x-trace-id')).to.equal(traceId);
      const echoed = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(ok.headers.get('traceparent') ?? '');
      expect(echoed, 'the answer carries its own traceparent').to.not.equal(null);
      expect(echoed![1]).to.equal(traceId);
      expect(echoed![2], 'a span of its own').to.not.equal('00f067aa0ba902b7');
      const fail = await anon.get('/api/v1/nowhere', { headers: { traceparent } });
      expectProblem(fail, 404, 'not_found');
      expect(fail.json.traceId).to.equal(traceId);
      const unauth = await anon.get('/api/v1/me', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` } });
      expectProblem(unauth, 401, 'unauthenticated');
      expect(unauth.json.traceId, 'an unsampled parent is still continued').to.equal(traceId);
    });

    const invalid: [string, string][] = [
      ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
      ['an all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
      ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
      ['upper-case hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01'],
      ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
      ['garbage', 'not-a-traceparent-at-all'],
    ];
    for (const [what, traceparent] of invalid) {
      it(`does not continue a traceparent with ${what}`, async () => {
        const res = await anon.get('/health', { headers: { traceparent } });
        expect(res.status).to.equal(200);
        const traceId = res.headers.get('x-trace-id');
        expect(traceId).to.match(HEX32);
        expect(traceId).to.not.equal('00000000000000000000000000000000');
        expect(traceparent.toLowerCase()).to.not.include(traceId!);
      });
    }
  });

  describe('Server-Timing', () => {
    it('has total, db with its query count, and named steps', async () => {
      const res = await anon.get('/health');
      expect(res.status).to.equal(200);
      const entries = parseServerTiming(res.headers.get('server-timing'));
      expect(entries[0]!.name).to.equal('total');
      expect(entries[0]!.dur).to.be.at.least(0);
      const db = entries.find((e) => e.name === 'db');
      expect(db, 'db entry').to.not.equal(undefined);
      expect(db!.dur).to.be.at.least(0);
      expect(db!.desc).to.equal('"0 queries"');
      expect(entries.map((e) => e.name)).to.include('handler');
    });

    it('counts the queries of GET /api/v1/me with a session (at least one)', async () => {
      const { client } = await server.signedIn();
      const res = await client.get('/api/v1/me');
      expect(res.status).to.equal(200);
      const entries = parseServerTiming(res.headers.get('server-timing'));
      expect(entries.map((e) => e.name)).to.include.members(['total', 'db', 'auth', 'handler']);
      const db = entries.find((e) => e.name === 'db')!;
      const m = /^"(\d+) queries"$/.exec(db.desc ?? '');
      expect(m, `db desc ${db.desc}`).to.not.equal(null);
      expect(Number(m![1])).to.be.at.least(1);
    });

    it('counts the queries of each request apart when requests run at the same time', async () => {
      const { client } = await server.signedIn();
      // A household's whole recipes are read on every request (the session, membership, household, plans and lists
      // may come from the read cache without a query).
      const household = (await client.post('/api/v1/households', { name: 'Timing House' })).json.id as string;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? anon.get('/health') : client.get(`/api/v1/households/${household}/recipes`))),
      );
      answers.forEach((res, i) => {
        expect(res.status).to.equal(200);
        const db = parseServerTiming(res.headers.get('server-timing')).find((e) => e.name === 'db')!;
        if (i % 2 === 0) expect(db.desc, 'GET /health runs no query').to.equal('"0 queries"');
        else expect(Number(/^"(\d+) queries"$/.exec(db.desc ?? '')?.[1])).to.be.at.least(1);
      });
      expect(new Set(answers.map((r) => r.headers.get('x-trace-id'))).size).to.equal(answers.length);
    });

    it("names a route's steps in the order they ran, up to the one that failed", async () => {
      const steps = (res: Answer | Response) => parseServerTiming(res.headers.get('server-timing')).map((e) => e.name).filter((n) => n !== 'total' && n !== 'db');
      const { client } = await server.signedIn();
      expect(steps(await client.get('/api/v1/me'))).to.deep.equal(['auth', 'ratelimit', 'validate', 'handler']);
      // A JSON body is read (its own step) between the limits and validation, and a validation failure is the last step.
      expect(steps(await client.patch('/api/v1/me', { displayName: 'Kari' }))).to.deep.equal(['auth', 'ratelimit', 'body', 'validate', 'handler']);
      expect(steps(await client.patch('/api/v1/me', { displayName: 7 }))).to.deep.equal(['auth', 'ratelimit', 'body', 'validate']);
      // A public route counts per IP before anything else; no session, so no auth step.
      expect(steps(await anon.post('/api/v1/auth/login', {}))).to.deep.equal(['ratelimit', 'body', 'validate']);
      // Without a cookie a session route stops at auth.
      expect(steps(await anon.get('/api/v1/me'))).to.deep.equal(['auth']);
      // A multipart body and a raw body are steps of their own.
      const form = new FormData();
      form.set('report', JSON.stringify({ message: 'Steps, please', screen: null, build: null, householdId: null, failedCalls: [] }));
      const multipart = await fetch(`${server.url}/api/v1/feedback`, { method: 'POST', body: form, headers: { Cookie: `app_session=${client.cookie}` } });
      expect(steps(multipart)).to.deep.equal(['auth', 'ratelimit', 'multipart', 'validate', 'handler']);
      const raw = await fetch(`${server.url}/api/v1/billing/webhook`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
      expect(steps(raw)).to.deep.equal(['ratelimit', 'body', 'validate', 'handler']);
    });

    it('is on error answers too', async () => {
      for (const res of [await anon.get('/api/v1/me'), await anon.get('/api/v1/nowhere'), await anon.post('/api/v1/auth/login', {})]) {
        const entries = parseServerTiming(res.headers.get('server-timing'));
        expect(entries.map((e) => e.name)).to.include.members(['total', 'db']);
      }
    });
  });

  describe('X-Diagnostics', () => {
    function expectDiagnostics(res: Answer): { traceId: string; totalMs: number; db: { ms: number; queries: number }; steps: { name: string; ms: number }[] } {
      const header = res.headers.get('x-diagnostics');
      expect(header, 'X-Diagnostics header').to.be.a('string');
      const d = JSON.parse(header!);
      expect(d).to.be.an('object');
      expect(d).to.include.keys('traceId', 'totalMs', 'db', 'steps');
      expect(d.traceId).to.equal(res.headers.get('x-trace-id'));
      expect(d.totalMs).to.be.a('number').and.at.least(0);
      expect(d.db).to.be.an('object');
      expect(d.db.ms).to.be.a('number').and.at.least(0);
      expect(Number.isInteger(d.db.queries)).to.equal(true);
      expect(d.steps).to.be.an('array');
      for (const s of d.steps) {
        expect(s.name).to.be.a('string').and.not.equal('');
        expect(s.ms).to.be.a('number').and.at.least(0);
      }
      return d;
    }

    it('is sent with header X-Diagnostics: 1, matching Server-Timing', async () => {
      const { client } = await server.signedIn();
      const res = await client.get('/api/v1/me', { headers: { 'X-Diagnostics': '1' } });
      expect(res.status).to.equal(200);
      const d = expectDiagnostics(res);
      expect(d.db.queries).to.be.at.least(1);
      const db = parseServerTiming(res.headers.get('server-timing')).find((e) => e.name === 'db')!;
      expect(db.desc).to.equal(`"${d.db.queries} queries"`);
      expect(d.steps.map((s) => s.name)).to.include('handler');
      const timingSteps = parseServerTiming(res.headers.get('server-timing'))
        .map((e) => e.name)
        .filter((n) => n !== 'total' && n !== 'db');
      expect(d.steps.map((s) => s.name), 'the same named steps as Server-Timing').to.deep.equal(timingSteps);
    });

    it('is sent with query ?diagnostics=1, also on a problem', async () => {
      const ok = await anon.get('/health?diagnostics=1');
      expect(ok.status).to.equal(200);
      expectDiagnostics(ok);
      const problem = await anon.get('/api/v1/me?diagnostics=1');
      expectProblem(problem, 401, 'unauthenticated');
      expect(expectDiagnostics(problem).traceId).to.equal(problem.json.traceId);
    });

    it('is absent otherwise', async () => {
      const { client } = await server.signedIn();
      for (const res of [
        await anon.get('/health'),
        await client.get('/api/v1/me'),
        await anon.get('/api/v1/me'),
        await anon.get('/health', { headers: { 'X-Diagnostics': '0' } }),
        await anon.get('/health?diagnostics=0'),
      ]) {
        expect(res.headers.get('x-diagnostics')).to.equal(null);
      }
    });
  });

  describe('browser-safety headers', () => {
    it('are on every response', async () => {
      const { client } = await server.signedIn();
      const answers = [
        await anon.get('/health'),
        await anon.get('/robots.txt'),
        await client.get('/api/v1/me'),
        await anon.get('/api/v1/me'),
        await anon.get('/api/v1/nowhere'),
        await anon.request('PUT', '/health'),
        await anon.post('/api/v1/auth/login', { email: 1 }),
        await client.post('/api/v1/households', { name: 'X' }, { headers: { Origin: 'https://evil.example' } }),
      ];
      for (const res of answers) {
        expect(res.headers.get('x-content-type-options'), `nosniff on ${res.status}`).to.equal('nosniff');
        expect(res.headers.get('referrer-policy'), `Referrer-Policy on ${res.status}`).to.equal('no-referrer');
      }
    });
  });

  describe('problem bodies', () => {
    it('use the default problem base http://localhost:8080/problems', () => {
      expect(problemBase).to.equal(DEFAULT_PROBLEM_BASE);
    });

    it('carry type, title, status, detail, instance, code and traceId', async () => {
      const res = await anon.get('/api/v1/me');
      expectProblem(res, 401, 'unauthenticated', '/api/v1/me');
      expect(res.json.type).to.equal('http://localhost:8080/problems/unauthenticated');
      expect(res.json).to.include.keys('type', 'title', 'status', 'detail', 'instance', 'code', 'traceId');
    });

    it('follow PROBLEM_BASE_URL when configured', async () => {
      const other = await startTestServer(server.kind, { PROBLEM_BASE_URL: 'https://errors.example.org/p' });
      try {
        const res = await new Client(other.url).get('/api/v1/nothing-here');
        expect(res.status).to.equal(404);
        expect(res.json.type).to.equal('https://errors.example.org/p/not_found');
      } finally {
        await other.stop();
      }
    });
  });

  describe('unknown routes and wrong methods', () => {
    it('answers 404 not_found for an unknown route without a session', async () => {
      expectProblem(await anon.get('/api/v1/does-not-exist'), 404, 'not_found', '/api/v1/does-not-exist');
      expectProblem(await anon.post('/api/v1/does-not-exist', {}), 404, 'not_found');
      // A GET outside /api/ and /health is the web app's (test/http/web-app.test.ts); other methods are not.
      expectProblem(await anon.post('/nowhere/at/all', {}), 404, 'not_found');
    });

    it('answers 404 for a path shaped like known routes but none of them, and a route only under its own spelling', async () => {
      // Same number of segments and same leading segments as real routes (the router groups routes by those).
      for (const path of ['/api/v1/me/nothing', '/api/v1/auth/nothing', '/api/v1/households/' + randomUUID() + '/nothing/more', '/health/nothing', '/api/v1/ME', '/api/v1/me/']) {
        expectProblem(await anon.get(path), 404, 'not_found', path);
      }
      expect((await anon.get('/health/live')).status).to.equal(200);
    });

    it('answers 404 not_found for an unknown route with a session cookie (valid or not)', async () => {
      const { client } = await server.signedIn();
      expectProblem(await client.get('/api/v1/does-not-exist'), 404, 'not_found');
      expectProblem(await client.get('/api/v1/households/' + randomUUID() + '/nothing'), 404, 'not_found');
      const stale = server.client();
      stale.cookie = 'A'.repeat(43);
      expectProblem(await stale.get('/api/v1/does-not-exist'), 404, 'not_found');
    });

    it('answers 405 method_not_allowed with Allow for a wrong method on a known path', async () => {
      const res = await anon.request('DELETE', '/health');
      expectProblem(res, 405, 'method_not_allowed', '/health');
      const allow = (res.headers.get('allow') ?? '').split(',').map((s) => s.trim());
      expect(allow).to.include('GET');
      expect(allow).to.not.include('DELETE');
    });

    it('answers 405 on a closed path with a session and with a path parameter, listing every method', async () => {
      const { client } = await server.signedIn();
      const res = await client.request('PUT', '/api/v1/me');
      expectProblem(res, 405, 'method_not_allowed');
      expect((res.headers.get('allow') ?? '').split(',').map((s) => s.trim())).to.include.members(['GET', 'PATCH', 'DELETE']);
      const put = await anon.put(`/api/v1/households/${randomUUID()}`, {});
      expectProblem(put, 405, 'method_not_allowed');
      expect((put.headers.get('allow') ?? '').split(',').map((s) => s.trim())).to.include.members(['GET', 'PATCH']);
      const options = await anon.request('OPTIONS', '/api/v1/households');
      expectProblem(options, 405, 'method_not_allowed');
      expect((options.headers.get('allow') ?? '').split(',').map((s) => s.trim())).to.include('POST');
      const get = await anon.get('/api/v1/auth/login');
      expectProblem(get, 405, 'method_not_allowed');
      expect((get.headers.get('allow') ?? '').split(',').map((s) => s.trim())).to.include('POST');
    });

    it('answers a path without parameters exactly as spelled, and HEAD of a GET route with its headers and no body', async () => {
      const { client } = await server.signedIn();
      const get = await client.get('/api/v1/me');
      expect(get.status).to.equal(200);
      const head = await client.request('HEAD', '/api/v1/me');
      expect(head.status).to.equal(200);
      expect(head.text).to.equal('');
      expect(head.headers.get('content-type')).to.equal(get.headers.get('content-type'));
      expect(head.headers.get('server-timing')).to.match(/^total;dur=/);
      expectProblem(await client.get('/api/v1/me/'), 404, 'not_found');
      expectProblem(await client.get('/api/v1/ME'), 404, 'not_found');
      expectProblem(await client.get('/api/v1//me'), 404, 'not_found');
      // A path that a route with a parameter also matches, by another method, reaches its own route: the import.
      const imported = await client.request('POST', '/api/v1/households/import', { body: { format: 'something else' }, headers: { 'Idempotency-Key': randomUUID() } });
      expectProblem(imported, 400, 'not_a_household_document');
      expectProblem(await client.request('PATCH', '/api/v1/households/import', { body: { name: 'x' } }), 400, 'validation_failed');
    });
  });

  describe('request validation', () => {
    it('an unparsable path parameter → 400 validation_failed naming it', async () => {
      const { client } = await server.signedIn();
      const res = await client.get('/api/v1/households/not-a-uuid');
      expectProblem(res, 400, 'validation_failed', '/api/v1/households/not-a-uuid');
      expectFieldErrors(res, 'path.householdId');
    });

    describe('POST /api/v1/auth/login', () => {
      it('missing required field → 400 validation_failed with errors', async () => {
        const res = await anon.post('/api/v1/auth/login', { email: freshEmail() });
        expectProblem(res, 400, 'validation_failed', '/api/v1/auth/login');
        expectFieldErrors(res, 'body.password');
      });

      it('no body at all → 400 validation_failed', async () => {
        const res = await anon.request('POST', '/api/v1/auth/login', { headers: { 'Content-Type': 'application/json' } });
        expectProblem(res, 400, 'validation_failed');
      });

      it('null where not allowed → 400 validation_failed', async () => {
        const res = await anon.post('/api/v1/auth/login', { email: null, password: PASSWORD });
        expectProblem(res, 400, 'validation_failed');
        expectFieldErrors(res, 'body.email');
      });

      it('wrong type → 400 validation_failed', async () => {
        const res = await anon.post('/api/v1/auth/login', { email: freshEmail(), password: 12345678 });
        expectProblem(res, 400, 'validation_failed');
        expectFieldErrors(res, 'body.password');
      });

      it('a body that is not an object → 400 validation_failed', async () => {
        for (const rawBody of ['[]', '"text"', '42', 'null']) {
          const res = await anon.request('POST', '/api/v1/auth/login', { rawBody, headers: { 'Content-Type': 'application/json' } });
          expectProblem(res, 400, 'validation_failed');
        }
      });

      it('JSON nested 100 000 deep → 400 validation_failed, not 500 (found by test/fuzz)', async () => {
        const deep = '['.repeat(100_000) + ']'.repeat(100_000);
        for (const rawBody of [deep, `{"email":${deep},"password":"x"}`]) {
          const res = await anon.request('POST', '/api/v1/auth/login', { rawBody, headers: { 'Content-Type': 'application/json' } });
          expectProblem(res, 400, 'validation_failed');
        }
      });

      it('an array where an object of optional fields is expected → 400, and nothing changes (found by test/fuzz)', async () => {
        const { client } = await server.signedIn();
        const id = (await client.post('/api/v1/households', { name: 'Array House' })).json.id as string;
        for (const rawBody of ['[]', '[{"name":"Renamed"}]']) {
          const res = await client.request('PATCH', `/api/v1/households/${id}`, { rawBody, headers: { 'Content-Type': 'application/json' } });
          expectProblem(res, 400, 'validation_failed');
        }
        const chains = await client.request('PATCH', `/api/v1/households/${id}`, { rawBody: '{"chains":[[]]}', headers: { 'Content-Type': 'application/json' } });
        expectProblem(chains, 400, 'validation_failed');
        expect((await client.get(`/api/v1/households/${id}`)).json.name).to.equal('Array House');
      });

      it('password of 257 characters → 400 value_too_long; 256 is a plain wrong password', async () => {
        const long = await anon.post('/api/v1/auth/login', { email: freshEmail(), password: 'p'.repeat(257) });
        expectProblem(long, 400, 'value_too_long');
        expectFieldErrors(long, 'body.password');
        const max = await anon.post('/api/v1/auth/login', { email: freshEmail(), password: 'p'.repeat(256) });
        expectProblem(max, 401, 'invalid_credentials');
      });

      it('email of 255 characters → 400 value_too_long; 254 is a plain unknown address', async () => {
        const at = '@example.com';
        const long = await anon.post('/api/v1/auth/login', { email: 'a'.repeat(255 - at.length) + at, password: PASSWORD });
        expectProblem(long, 400, 'value_too_long');
        expectFieldErrors(long, 'body.email');
        const max = await anon.post('/api/v1/auth/login', { email: 'a'.repeat(254 - at.length) + at, password: PASSWORD });
        expectProblem(max, 401, 'invalid_credentials');
      });

      it('matches property names case-insensitively', async () => {
        const { email, password } = await server.signedIn();
        const wrong = await anon.post('/api/v1/auth/login', { Email: email, Password: 'not the password' });
        expectProblem(wrong, 401, 'invalid_credentials');
        const fresh = server.client();
        const right = await fresh.post('/api/v1/auth/login', { EMAIL: email, PassWord: password });
        expect(right.status, right.text).to.equal(200);
        expect(right.json.user.email).to.equal(email);
        expect(fresh.cookie).to.be.a('string');
      });
    });

    describe('POST /api/v1/households', () => {
      let client: Client;
      before(async () => {
        ({ client } = await server.signedIn());
      });

      it('missing required field → 400 validation_failed', async () => {
        const res = await client.post('/api/v1/households', { language: 'en' });
        expectProblem(res, 400, 'validation_failed', '/api/v1/households');
        expectFieldErrors(res, 'body.name');
      });

      it('null where not allowed → 400 validation_failed', async () => {
        const res = await client.post('/api/v1/households', { name: null });
        expectProblem(res, 400, 'validation_failed');
        expectFieldErrors(res, 'body.name');
      });

      it('wrong type → 400 validation_failed', async () => {
        const res = await client.post('/api/v1/households', { name: ['Home'] });
        expectProblem(res, 400, 'validation_failed');
        expectFieldErrors(res, 'body.name');
        const lang = await client.post('/api/v1/households', { name: 'Home', language: 'de' });
        expectProblem(lang, 400, 'validation_failed');
        expectFieldErrors(lang, 'body.language');
      });

      it('name of 81 characters → 400 value_too_long; 80 is accepted', async () => {
        const res = await client.post('/api/v1/households', { name: 'n'.repeat(81) });
        expectProblem(res, 400, 'value_too_long');
        expectFieldErrors(res, 'body.name');
        const ok = await client.post('/api/v1/households', { name: 'n'.repeat(80) });
        expect(ok.status, ok.text).to.equal(201);
      });

      it('matches property names case-insensitively', async () => {
        const res = await client.post('/api/v1/households', { Name: 'Casing House', LANGUAGE: 'en' });
        expect(res.status, res.text).to.equal(201);
        expect(res.json.name).to.equal('Casing House');
        expect(res.json.language).to.equal('en');
      });

      it('refused bodies create no household', async () => {
        const { client: fresh } = await server.signedIn();
        for (const body of [{}, { name: null }, { name: 7 }, { name: 'x'.repeat(81) }, { name: 'a\u0000b' }]) {
          const res = await fresh.post('/api/v1/households', body);
          expect(res.status, res.text).to.equal(400);
        }
        expect((await me(fresh)).memberships).to.deep.equal([]);
      });
    });

    describe('PATCH /api/v1/me', () => {
      it('missing required field → 400 validation_failed', async () => {
        const { client } = await server.signedIn();
        const res = await client.patch('/api/v1/me', {});
        expectProblem(res, 400, 'validation_failed', '/api/v1/me');
        expectFieldErrors(res, 'body.displayName');
      });

      it('null where not allowed → 400 validation_failed', async () => {
        const { client } = await server.signedIn();
        const res = await client.patch('/api/v1/me', { displayName: null });
        expectProblem(res, 400, 'validation_failed');
        expectFieldErrors(res, 'body.displayName');
      });

      it('wrong type → 400 validation_failed', async () => {
        const { client } = await server.signedIn();
        const res = await client.patch('/api/v1/me', { displayName: { first: 'A' } });
        expectProblem(res, 400, 'validation_failed');
        expectFieldErrors(res, 'body.displayName');
      });

      it('display name of 81 characters → 400 account_name_length (PATCH /api/v1/me)', async () => {
        const { client } = await server.signedIn();
        expectProblem(await client.patch('/api/v1/me', { displayName: 'd'.repeat(81) }), 400, 'account_name_length');
        expectProblem(await client.patch('/api/v1/me', { displayName: '   ' }), 400, 'account_name_length');
      });

      it('bad input changes nothing', async () => {
        const { client } = await server.signedIn('Original Name');
        const bad: unknown[] = [{}, { displayName: null }, { displayName: 3 }, { displayName: 'd'.repeat(81) }, { displayName: 'bad\u0000name' }, { displayName: '' }];
        for (const body of bad) {
          const res = await client.patch('/api/v1/me', body);
          expect(res.status, `${JSON.stringify(body)} → ${res.text}`).to.equal(400);
        }
        const malformed = await client.request('PATCH', '/api/v1/me', { rawBody: '{"displayName": "Half', headers: { 'Content-Type': 'application/json' } });
        expect(malformed.status).to.equal(400);
        expect((await me(client)).displayName).to.equal('Original Name');
      });

      it('matches property names case-insensitively', async () => {
        const { client } = await server.signedIn('Before');
        const res = await client.patch('/api/v1/me', { DisplayName: 'After' });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.user.displayName).to.equal('After');
        expect((await me(client)).displayName).to.equal('After');
      });
    });
  });

  describe('the NUL rule', () => {
    it('refuses a percent-encoded NUL in the path', async () => {
      const { client } = await server.signedIn();
      expectProblem(await client.get('/api/v1/me%00'), 400, 'validation_failed');
      expectProblem(await client.get(`/api/v1/households/${randomUUID()}%00`), 400, 'validation_failed');
      expectProblem(await anon.get('/health%00'), 400, 'validation_failed');
    });

    it('refuses a percent-encoded NUL in the query string', async () => {
      const { client } = await server.signedIn();
      expectProblem(await client.get('/api/v1/me?x=a%00b'), 400, 'validation_failed');
      expectProblem(await anon.get('/health?%00=1'), 400, 'validation_failed');
    });

    it('refuses a broken percent escape in the path or query, and passes a lone escape that decodes', async () => {
      const { client } = await server.signedIn();
      const broken = await client.get('/api/v1/me%E0%A4%A');
      expectProblem(broken, 400, 'validation_failed');
      expect((broken.json as { detail: string }).detail).to.contain('percent-encoded');
      expectProblem(await anon.get('/health?x=%zz'), 400, 'validation_failed');
      expect((await client.get('/api/v1/me?x=%41')).status).to.equal(200);
    });

    it('refuses a NUL inside a JSON string value', async () => {
      const res = await anon.post('/api/v1/auth/login', { email: 'someone\u0000@example.com', password: PASSWORD });
      expectProblem(res, 400, 'validation_failed');
      const { client } = await server.signedIn();
      expectProblem(await client.post('/api/v1/households', { name: 'Home\u0000' }), 400, 'validation_failed');
    });

    it('refuses a NUL inside a JSON key', async () => {
      const res = await anon.post('/api/v1/auth/login', { email: freshEmail(), password: PASSWORD, 'extra\u0000key': 1 });
      expectProblem(res, 400, 'validation_failed');
      const { client } = await server.signedIn();
      expectProblem(await client.post('/api/v1/households', { name: 'Home', 'x\u0000': 'y' }), 400, 'validation_failed');
    });

    it('refuses a NUL in a body sent to a route that takes none, and the session survives', async () => {
      const { client } = await server.signedIn();
      expectProblem(await client.request('POST', '/api/v1/auth/logout', { rawBody: '{"x":"\\u0000"}', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
      expectProblem(await client.request('POST', '/api/v1/auth/logout', { rawBody: 'a\u0000b', headers: { 'Content-Type': 'text/plain' } }), 400, 'validation_failed');
      expect((await client.get('/api/v1/me')).status).to.equal(200);
      expect((await client.request('POST', '/api/v1/auth/logout', { rawBody: '{}', headers: { 'Content-Type': 'application/json' } })).status).to.equal(204);
    });

    it('refuses a raw NUL byte in a header value with a problem+json 400', async () => {
      const { port } = new URL(server.url);
      const request = Buffer.concat([
        Buffer.from(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Note: before`),
        Buffer.from([0]),
        Buffer.from('after\r\nConnection: close\r\n\r\n'),
      ]);
      const reply = await rawExchange(server.url, request);
      expect(reply.status).to.equal(400);
      expect(reply.headers['content-type']).to.match(/^application\/problem\+json\b/);
      const body = JSON.parse(reply.body);
      expect(body.status).to.equal(400);
      expect(body.code).to.equal('validation_failed');
      expect(body.type).to.equal(`${problemBase}/validation_failed`);
      expect(body.traceId).to.match(HEX32);
      expect(reply.headers['x-trace-id']).to.equal(body.traceId);
    });

    it('refuses a raw NUL byte in the request target with a problem+json 400', async () => {
      const { port } = new URL(server.url);
      const request = Buffer.concat([Buffer.from('GET /hea'), Buffer.from([0]), Buffer.from(`lth HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)]);
      const reply = await rawExchange(server.url, request);
      expect(reply.status).to.equal(400);
      expect(reply.headers['content-type']).to.match(/^application\/problem\+json\b/);
      const body = JSON.parse(reply.body);
      expect(body.code).to.equal('validation_failed');
      expect(body.status).to.equal(400);
      expect(reply.headers['x-trace-id']).to.equal(body.traceId);
    });

    it('gives the raw-parser 400 the headers every response carries', async () => {
      const { port } = new URL(server.url);
      const request = Buffer.concat([
        Buffer.from(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Note: a`),
        Buffer.from([0]),
        Buffer.from('b\r\nConnection: close\r\n\r\n'),
      ]);
      const reply = await rawExchange(server.url, request);
      expect(reply.status).to.equal(400);
      expect(reply.headers['x-content-type-options']).to.equal('nosniff');
      expect(reply.headers['referrer-policy'], 'Referrer-Policy on the raw 400').to.equal('no-referrer');
      expect(reply.headers['server-timing'], 'Server-Timing on the raw 400').to.be.a('string').and.match(/^total;dur=/);
    });

    it('a well-formed raw request on the same path is answered normally (control)', async () => {
      const { port } = new URL(server.url);
      const reply = await rawExchange(server.url, Buffer.from(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Note: fine\r\nConnection: close\r\n\r\n`));
      expect(reply.status).to.equal(200);
      expect(JSON.parse(reply.body).status).to.equal('ok');
    });
  });

  describe('body format and size', () => {
    it('malformed JSON → 400 validation_failed', async () => {
      const res = await anon.request('POST', '/api/v1/auth/login', { rawBody: '{"email": "a@example.com", ', headers: { 'Content-Type': 'application/json' } });
      expectProblem(res, 400, 'validation_failed', '/api/v1/auth/login');
      const { client } = await server.signedIn();
      const hh = await client.request('POST', '/api/v1/households', { rawBody: "{name: 'x'}", headers: { 'Content-Type': 'application/json' } });
      expectProblem(hh, 400, 'validation_failed');
    });

    it('a JSON body over 1 MiB → 413 payload_too_large; exactly 1 MiB is read', async () => {
      const MiB = 1024 * 1024;
      const frame = (n: number) => {
        const head = `{"email":"big@example.com","password":"`;
        const tail = '"}';
        return head + 'x'.repeat(n - head.length - tail.length) + tail;
      };
      const over = frame(MiB + 1);
      expect(Buffer.byteLength(over)).to.equal(MiB + 1);
      // Connection: close, so that a socket the server stops reading is never reused by a later test.
      const headers = { 'Content-Type': 'application/json', Connection: 'close' };
      const big = await anon.request('POST', '/api/v1/auth/login', { rawBody: over, headers });
      expectProblem(big, 413, 'payload_too_large', '/api/v1/auth/login');
      const atLimit = await anon.request('POST', '/api/v1/auth/login', { rawBody: frame(MiB), headers });
      expectProblem(atLimit, 400, 'value_too_long');
    });

    it('a chunked JSON body over 1 MiB (no Content-Length) → 413 payload_too_large', async () => {
      const part = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('{"email":"big@example.com","password":"'));
          if (sent >= 24) {
            controller.enqueue(new TextEncoder().encode('"}'));
            controller.close();
            return;
          }
          sent++;
          controller.enqueue(part);
        },
      });
      const res = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'Content-Type': 'application/json', Connection: 'close' },
      } as RequestInit & { duplex: 'half' });
      expect(res.status).to.equal(413);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json\b/);
      const problem = (await res.json()) as { code: string; traceId: string };
      expect(problem.code).to.equal('payload_too_large');
      expect(res.headers.get('x-trace-id')).to.equal(problem.traceId);
    });

    it('a body that is not JSON on a JSON route → 415 unsupported_media_type', async () => {
      const body = JSON.stringify({ email: freshEmail(), password: PASSWORD });
      const res = await anon.request('POST', '/api/v1/auth/login', { rawBody: body, headers: { 'Content-Type': 'text/plain' } });
      expectProblem(res, 415, 'unsupported_media_type', '/api/v1/auth/login');
      const { client } = await server.signedIn();
      const hh = await client.request('POST', '/api/v1/households', { rawBody: '{"name":"Plain"}', headers: { 'Content-Type': 'text/plain;charset=UTF-8' } });
      expectProblem(hh, 415, 'unsupported_media_type');
      expect((await me(client)).memberships).to.deep.equal([]);
    });

    it('accepts application/json with a charset parameter', async () => {
      const { client } = await server.signedIn();
      const res = await client.request('POST', '/api/v1/households', { rawBody: '{"name":"Charset"}', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
      expect(res.status, res.text).to.equal(201);
    });
  });

  describe('closed by default', () => {
    const fill = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID());

    it('every signed-in route answers 401 unauthenticated without a cookie (or a token where it takes one)', async () => {
      const routes = server.runtime.routes.filter((r) => r.auth !== 'public');
      expect(routes.length).to.be.at.least(5);
      expect(routes.map((r) => `${r.method} ${r.path}`)).to.include.members(['GET /api/v1/me', 'POST /api/v1/households']);
      for (const route of routes) {
        const path = fill(route.path);
        const res = route.method === 'GET' ? await anon.get(path) : await anon.request(route.method, path, { body: {} });
        expect(res.status, `${route.method} ${route.path}: ${res.text}`).to.equal(401);
        expectProblem(res, 401, 'unauthenticated', path);
      }
    });

    it('every signed-in route answers 401 to a cookie that names no session', async () => {
      const stranger = server.client();
      stranger.cookie = 'Zm9yZ2VkLXNlc3Npb24tdG9rZW4tdGhhdC1kb2VzLW5vdA';
      for (const route of server.runtime.routes.filter((r) => r.auth !== 'public')) {
        const path = fill(route.path);
        const res = route.method === 'GET' ? await stranger.get(path) : await stranger.request(route.method, path, { body: {} });
        expectProblem(res, 401, 'unauthenticated', path);
      }
    });

    it('every public route answers without asking for a session', async () => {
      const routes = server.runtime.routes.filter((r) => r.auth === 'public');
      expect(routes.map((r) => `${r.method} ${r.path}`)).to.include.members(['GET /health', 'POST /api/v1/auth/login', 'POST /api/v1/auth/register']);
      for (const route of routes) {
        const path = fill(route.path);
        const res = route.method === 'GET' ? await anon.get(path) : await anon.request(route.method, path, { body: {} });
        expect(res.status, `${route.method} ${route.path}: ${res.text}`).to.not.equal(401);
        expect(res.status).to.be.below(500);
      }
    });

    it('marks Public only the routes that need no session by rule', () => {
      const publicPaths = [
        /^\/health(\/live|\/ready)?$/,
        /^\/robots\.txt$/,
        /^\/api\/v1\/app\/version$/,
        /^\/api\/v1\/auth\/(register|login|confirm-email|confirm-email-change|forgot-password|reset-password|providers|challenge\/\{[^}]+\}|external-callback|exchange|idp\/native)$/,
        /^\/api\/v1\/calendar\/\{[^}]+\}(\.ics)?$/,
        // an invite link's household and inviter, by its code.
        /^\/api\/v1\/invites\/\{code\}$/,
        /^\/api\/v1\/data\//,
        /^\/api\/v1\/billing\/webhook$/,
        // the waitlist and its confirm link.
        /^\/api\/v1\/waitlist(\/confirm)?$/,
        /^\/api\/v1\/openapi\.json$/,
        /^\/api\/docs$/,
      ];
      for (const route of server.runtime.routes.filter((r) => r.auth === 'public')) {
        expect(publicPaths.some((p) => p.test(route.path)), `${route.method} ${route.path} is public`).to.equal(true);
      }
      expect(server.runtime.routes.find((r) => r.path === '/api/v1/auth/logout')?.auth).to.equal('session');
      expect(server.runtime.routes.find((r) => r.path === '/api/v1/time-zones')?.auth).to.equal('session');
    });
  });

  describe('cross-site guard', () => {
    it('refuses a cookie-carrying POST with a foreign Origin → 403 cross_site_request', async () => {
      const { client } = await server.signedIn();
      const res = await client.post('/api/v1/households', { name: 'Evil' }, { headers: { Origin: 'https://evil.example' } });
      expectProblem(res, 403, 'cross_site_request', '/api/v1/households');
      expect((await me(client)).memberships).to.deep.equal([]);
    });

    it('refuses a cookie-carrying POST with Sec-Fetch-Site: cross-site → 403', async () => {
      const { client } = await server.signedIn();
      const res = await client.post('/api/v1/households', { name: 'Evil' }, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
      expectProblem(res, 403, 'cross_site_request');
      const patch = await client.patch('/api/v1/me', { displayName: 'Hijacked' }, { headers: { Origin: 'https://evil.example' } });
      expectProblem(patch, 403, 'cross_site_request');
      const state = await me(client);
      expect(state.memberships).to.deep.equal([]);
      expect(state.displayName).to.equal('Test Person');
    });

    it('lets the same request through without Origin (the phone apps) → 201', async () => {
      const { client } = await server.signedIn();
      const res = await client.post('/api/v1/households', { name: 'Phone' });
      expect(res.status, res.text).to.equal(201);
      expect(res.json.name).to.equal('Phone');
    });

    it('lets same-origin requests through', async () => {
      const { client } = await server.signedIn();
      const own = await client.post('/api/v1/households', { name: 'Own' }, { headers: { Origin: server.url } });
      expect(own.status, own.text).to.equal(201);
      const pub = await client.post('/api/v1/households', { name: 'Public' }, { headers: { Origin: new URL(server.config.publicBaseUrl).origin, 'Sec-Fetch-Site': 'same-origin' } });
      expect(pub.status, pub.text).to.equal(201);
    });

    it('does not refuse cross-site requests that carry no cookie', async () => {
      const { email, password } = await server.signedIn();
      const fresh = server.client();
      const res = await fresh.post('/api/v1/auth/login', { email, password }, { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
      expect(res.status, res.text).to.equal(200);
    });

    it('does not apply to GET', async () => {
      const { client } = await server.signedIn();
      const res = await client.get('/api/v1/me', { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
      expect(res.status).to.equal(200);
    });
  });

  describe('sessions that ended', () => {
    it('a cookie whose session was logged out gives 401 afterwards', async () => {
      const { client } = await server.signedIn();
      const cookie = client.cookie!;
      expect((await client.get('/api/v1/me')).status).to.equal(200);
      const out = await client.post('/api/v1/auth/logout');
      expect(out.status, out.text).to.equal(204);
      expect(client.cookie, 'logout clears the cookie').to.equal(undefined);
      const replay = server.client();
      replay.cookie = cookie;
      expectProblem(await replay.get('/api/v1/me'), 401, 'unauthenticated');
      expectProblem(await replay.post('/api/v1/households', { name: 'Ghost' }), 401, 'unauthenticated');
    });

    it('logout ends the other sessions of the account too', async () => {
      const { client, email, password } = await server.signedIn();
      const second = server.client();
      expect((await second.post('/api/v1/auth/login', { email, password })).status).to.equal(200);
      expect((await second.get('/api/v1/me')).status).to.equal(200);
      expect((await client.post('/api/v1/auth/logout')).status).to.equal(204);
      expectProblem(await second.get('/api/v1/me'), 401, 'unauthenticated');
    });
  });

  describe('an unexpected failure', () => {
    let broken: TestServer;
    const logLines: Record<string, unknown>[] = [];

    before(async () => {
      const logger = jsonLogger('error', (line) => {
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      });
      broken = await startTestServer(server.kind, {}, { logger });
    });

    after(async () => {
      await broken?.stop();
    });

    it('answers 500 internal_error without leaking a stack or SQL, and logs it under the trace id', async () => {
      const { client } = await signedInClient(broken.url);
      const created = await client.post('/api/v1/households', { name: 'Doomed' });
      expect(created.status, created.text).to.equal(201);
      const path = `/api/v1/households/${created.json.id}`;
      const { knex } = broken.runtime.db;
      await knex.schema.renameTable('households', 'households_gone');
      let res: Answer;
      try {
        res = await client.get(path);
      } finally {
        await knex.schema.renameTable('households_gone', 'households');
      }
      expectProblem(res, 500, 'internal_error', path);
      const text = res.text.toLowerCase();
      for (const leak of ['households_gone', 'select', 'sqlite', 'relation', 'knex', 'node_modules', '.ts:', '.js:']) {
        expect(text, `body leaks "${leak}"`).to.not.include(leak);
      }
      expect(res.text).to.not.match(/\bat\s+\S+\s+\(/);
      expect(res.text).to.not.match(/\n\s+at /);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      parseServerTiming(res.headers.get('server-timing'));
      const logged = logLines.find((l) => l['level'] === 'error' && l['traceId'] === res.json.traceId);
      expect(logged, 'an error log line with the trace id').to.not.equal(undefined);
      // Once the table is back, the same call works again: the failure was the database's.
      const again = await client.get(path);
      expect(again.status, again.text).to.equal(200);
    });
  });
});
