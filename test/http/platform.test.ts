/**
 * Platform behaviour shared by every route (health, errors, limits, versioning, configuration): health probes,
 * robots.txt, app/version, time-zones, the version gate, rate limits, the OpenAPI document and JSON logs.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config/config.js';
import { createRuntime } from '../../bootstrap/runtime.js';
import { listen, type RunningServer } from '../../bootstrap/server.js';
import { jsonLogger } from '../../adapters/log/json-logger.js';
import { eachDatabase, httpService } from '../support/http-suite.js';
import { captureLog, startTestServer, type TestServer } from '../support/server.js';
import { Client, freshEmail, type Answer } from '../support/client.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Every rate-limit class tiny, so that a limit is met within a handful of requests. */
const TINY = 'auth=1/60,anonymous-per-ip=1/60,data-per-ip=1/60,dinner-price-signup-per-ip=1/60,backstop=1/60';
const GENEROUS = 'auth=10000/60,anonymous-per-ip=10000/60,data-per-ip=10000/60,dinner-price-signup-per-ip=10000/60,backstop=10000/60';

/** What the API's conventions and the browser-safety headers put on every response. */
function expectEveryResponseHeaders(headers: Headers): void {
  expect(headers.get('x-trace-id'), 'X-Trace-Id').to.match(/^[0-9a-f]{32}$/);
  expect(headers.get('server-timing') ?? '', 'Server-Timing').to.match(/(^|,\s*)total;dur=/);
  expect(headers.get('x-content-type-options'), 'X-Content-Type-Options').to.equal('nosniff');
  expect(headers.get('referrer-policy'), 'Referrer-Policy').to.equal('no-referrer');
}

function expectProblem(res: Answer, status: number, code: string): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type') ?? '').to.match(/^application\/problem\+json/);
  expect(res.json).to.be.an('object');
  expect(res.json.code).to.equal(code);
  expect(res.json.status).to.equal(status);
  expect(res.json.traceId).to.be.a('string').and.equal(res.headers.get('x-trace-id'));
  expectEveryResponseHeaders(res.headers);
}

function expectRateLimited(res: Answer, maxSeconds: number): void {
  expectProblem(res, 429, 'rate_limited');
  expect(String(res.json.type)).to.match(/\/rate_limited$/);
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter, 'Retry-After').to.match(/^[1-9]\d*$/);
  expect(Number(retryAfter)).to.be.at.most(maxSeconds);
}

function expectHealth(res: Answer, buildId: string): void {
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get('content-type') ?? '').to.match(/^application\/json/);
  expect(res.json).to.deep.equal({ status: 'ok', version: PACKAGE_VERSION, buildId });
  expectEveryResponseHeaders(res.headers);
}

async function stopQuietly(server: TestServer | undefined): Promise<void> {
  if (!server) return;
  try {
    await server.stop();
  } catch {
    // The database connection may already be gone (the readiness test destroys it); still drop what the suite made.
    await server.database.cleanup();
  }
}

describe('rate-limit configuration (RATE_LIMITS)', () => {
  it('accepts every rate-limit class, data-per-ip, dinner-price-signup-per-ip, token, recipe-import- and planner-per-household included', () => {
    const config = loadConfig({ RATE_LIMITS: 'auth=3/60,anonymous-per-ip=2/60,data-per-ip=7/30,dinner-price-signup-per-ip=4/1800,backstop=9/10,token=8/20,recipe-import-per-household=5/600,planner-per-household=6/60' });
    expect(config.rateLimits).to.deep.equal({
      auth: { points: 3, durationSec: 60 },
      'anonymous-per-ip': { points: 2, durationSec: 60 },
      'data-per-ip': { points: 7, durationSec: 30 },
      'dinner-price-signup-per-ip': { points: 4, durationSec: 1800 },
      backstop: { points: 9, durationSec: 10 },
      token: { points: 8, durationSec: 20 },
      'recipe-import-per-household': { points: 5, durationSec: 600 },
      'planner-per-household': { points: 6, durationSec: 60 },
    });
  });

  it('keeps the defaults of classes not named, the dinner-price signup at 5 an hour, recipe import at 30 an hour', () => {
    const config = loadConfig({ RATE_LIMITS: 'data-per-ip=1/60' });
    expect(config.rateLimits['data-per-ip']).to.deep.equal({ points: 1, durationSec: 60 });
    expect(config.rateLimits['dinner-price-signup-per-ip']).to.deep.equal({ points: 5, durationSec: 3600 });
    expect(config.rateLimits['recipe-import-per-household']).to.deep.equal({ points: 30, durationSec: 3600 });
    expect(config.rateLimits['planner-per-household']).to.deep.equal({ points: 240, durationSec: 3600 });
    expect(loadConfig({}).rateLimits['dinner-price-signup-per-ip']).to.deep.equal({ points: 5, durationSec: 3600 });
  });

  for (const bad of ['bogus=1/60', 'auth=3/60,per-ip=1/60', 'auth=abc', 'auth=3', 'data-per-ip=0/60', 'backstop=1/0']) {
    it(`rejects RATE_LIMITS=${bad} naming the variable`, () => {
      let caught: unknown;
      try {
        loadConfig({ RATE_LIMITS: bad });
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(ConfigError);
      expect((caught as ConfigError).variable).to.equal('RATE_LIMITS');
      expect((caught as ConfigError).message).to.contain('RATE_LIMITS');
    });
  }
});

eachDatabase('platform: health, robots, app version, time zones, version gate, rate limits, OpenAPI, logs', function (kind) {
  this.timeout(60000);

  describe('health probes', () => {
    const server = httpService(kind, { env: { BUILD_ID: 'build-42', RATE_LIMITS: TINY } });

    it('GET /health and /health/live answer HealthResponse with the version and BUILD_ID', async () => {
      const client = server.client();
      expectHealth(await client.get('/health'), 'build-42');
      expectHealth(await client.get('/health/live'), 'build-42');
    });

    it('GET /health/ready answers 200 with no body on a migrated database', async () => {
      const res = await server.client().get('/health/ready');
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.equal('');
      expectEveryResponseHeaders(res.headers);
    });

    it('the probes are never rate-limited, even with every class at 1 request a minute and spent', async () => {
      const client = server.client();
      // Spend the anonymous-per-ip allowance, so that a probe counted by it would be refused.
      expect((await client.get('/robots.txt')).status).to.equal(200);
      expectRateLimited(await client.get('/robots.txt'), 60);
      for (let i = 0; i < 15; i++) {
        expectHealth(await client.get('/health'), 'build-42');
        expectHealth(await client.get('/health/live'), 'build-42');
        expect((await client.get('/health/ready')).status).to.equal(200);
      }
      // The limiter is still refusing the counted route.
      expectRateLimited(await client.get('/robots.txt'), 60);
    });
  });

  describe('GET /health/ready when the database is not ready', () => {
    const server = httpService(kind);

    it('answers 503 problem+json while a migration of the build is not applied, and 200 once it is', async () => {
      const knex = server.runtime.db.knex;
      const [last] = (await knex('knex_migrations').orderBy('id', 'desc').limit(1)) as { name: string }[];
      expect(last, 'a recorded migration').to.not.equal(undefined);
      await knex('knex_migrations').where({ name: last!.name }).del();
      expectProblem(await server.client().get('/health/ready'), 503, 'not_ready');
      await server.runtime.db.migrate();
      expect((await server.client().get('/health/ready')).status).to.equal(200);
    });

    it('answers 503 problem+json when the database does not answer; /health stays 200', async () => {
      await server.runtime.db.knex.destroy();
      const client = server.client();
      expectProblem(await client.get('/health/ready'), 503, 'not_ready');
      expectHealth(await client.get('/health'), 'test-build');
      expectHealth(await client.get('/health/live'), 'test-build');
    });
  });

  describe('robots.txt, app/version and time-zones', () => {
    const server = httpService(kind, { env: { APP_VERSION_FLOOR: 'ios=2.3.0', APP_VERSION_LATEST: 'ios=2.5.0' } });

    it('GET /robots.txt is text/plain, disallows every path and signals no', async () => {
      const res = await server.client().get('/robots.txt');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type') ?? '').to.match(/^text\/plain/);
      const lines = res.text.split(/\r?\n/).map((l) => l.trim());
      expect(lines).to.include('Disallow: /');
      expect(lines).to.include('User-agent: *');
      const signal = lines.find((l) => /^Content-Signal:/i.test(l));
      expect(signal, 'a Content-Signal line').to.be.a('string');
      expect(signal!).to.match(/=\s*no\b/);
      expect(signal!).to.not.match(/=\s*yes\b/);
    });

    it('GET /api/v1/app/version is public, cached 60 s, and gives floor and latest per platform', async () => {
      const res = await server.client().get('/api/v1/app/version');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('public, max-age=60');
      expect(res.json).to.deep.equal({
        ios: { minimumVersion: '2.3.0', latestVersion: '2.5.0' },
        android: { minimumVersion: null, latestVersion: null },
      });
    });

    it('GET /api/v1/time-zones without a session is 401', async () => {
      expectProblem(await server.client().get('/api/v1/time-zones'), 401, 'unauthenticated');
    });

    it('GET /api/v1/time-zones with a session lists zones, Europe/Oslo and UTC among them, cached privately a day', async () => {
      const { client } = await server.signedIn();
      const res = await client.get('/api/v1/time-zones');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('private, max-age=86400');
      expect(Object.keys(res.json)).to.deep.equal(['timeZones']);
      const zones = res.json.timeZones as unknown[];
      expect(zones).to.be.an('array').with.length.above(100);
      for (const z of zones) expect(z).to.be.a('string');
      expect(new Set(zones).size, 'no duplicates').to.equal(zones.length);
      expect(zones).to.include.members(['Europe/Oslo', 'UTC']);
    });

    it('household update accepts exactly the listed zones and refuses an unknown one with 400 time_zone_unknown', async () => {
      const { client } = await server.signedIn();
      const zones = (await client.get('/api/v1/time-zones')).json.timeZones as string[];
      const created = await client.post('/api/v1/households', { name: 'Zones' });
      expect(created.status, created.text).to.equal(201);
      const id = created.json.id as string;

      const other = zones.find((z) => z !== 'Europe/Oslo' && z !== 'UTC')!;
      const changed = await client.patch(`/api/v1/households/${id}`, { timeZoneId: other });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.json.timeZoneId).to.equal(other);
      expect((await client.get(`/api/v1/households/${id}`)).json.timeZoneId).to.equal(other);

      // Every listed zone is accepted ("exactly what household update accepts").
      const refused: string[] = [];
      // One at a time: each answer must show its own change.
      for (const zone of zones) {
        const res = await client.patch(`/api/v1/households/${id}`, { timeZoneId: zone });
        if (res.status !== 200 || res.json.timeZoneId !== zone) refused.push(`${zone}: ${res.status} ${res.json?.timeZoneId ?? res.text}`);
      }
      expect(refused, 'listed zones refused by household update').to.deep.equal([]);

      const before = (await client.get(`/api/v1/households/${id}`)).json.timeZoneId as string;
      const unknown = await client.patch(`/api/v1/households/${id}`, { timeZoneId: 'Mars/Olympus' });
      expectProblem(unknown, 400, 'time_zone_unknown');
      expect(String(unknown.json.type)).to.match(/\/time_zone_unknown$/);
      expect((await client.get(`/api/v1/households/${id}`)).json.timeZoneId, 'unchanged after the refusal').to.equal(before);
    });
  });

  describe('version gate (APP_VERSION_FLOOR=ios=2.3.0,android=2.1.0)', () => {
    const server = httpService(kind, { env: { APP_VERSION_FLOOR: 'ios=2.3.0,android=2.1.0' } });
    let signedIn: Client;
    before(async () => {
      signedIn = (await server.signedIn()).client;
    });

    const gated = (res: Answer) => {
      expectProblem(res, 426, 'app_version_unsupported');
      expect(String(res.json.type)).to.match(/\/app-version-unsupported$/);
    };
    const v = (version: string) => ({ headers: { 'X-App-Version': version } });

    it('426 app-version-unsupported below the floor on GET /api/v1/me (signed in or not)', async () => {
      gated(await signedIn.get('/api/v1/me', v('ios/2.0.0')));
      gated(await server.client().get('/api/v1/me', v('ios/2.0.0')));
    });

    it('426 on POST /api/v1/auth/login, before the credentials are looked at', async () => {
      gated(await server.client().post('/api/v1/auth/login', { email: freshEmail(), password: 'whatever-password' }, v('ios/2.0.0')));
    });

    it('426 on an unknown route (404 without the header)', async () => {
      gated(await server.client().get('/api/v1/no-such-route', v('ios/2.0.0')));
      expectProblem(await server.client().get('/api/v1/no-such-route'), 404, 'not_found');
    });

    it('never gates /api/v1/app/version or the health probes', async () => {
      const client = server.client();
      const version = await client.get('/api/v1/app/version', v('ios/2.0.0'));
      expect(version.status, version.text).to.equal(200);
      expect(version.json.ios.minimumVersion).to.equal('2.3.0');
      expect(version.json.android.minimumVersion).to.equal('2.1.0');
      for (const path of ['/health', '/health/live', '/health/ready']) {
        const res = await client.get(path, v('ios/2.0.0'));
        expect(res.status, `${path}: ${res.text}`).to.equal(200);
      }
    });

    it('serves app/version and the probes at exactly one spelling, which is never gated', async () => {
      const client = server.client();
      // Routing is exact (no trailing slash, case-sensitive), so no other spelling reaches an exempt route.
      for (const path of ['/api/v1/app/version/', '/API/V1/App/Version', '/health/', '/Health', '/health/live/', '/HEALTH/LIVE', '/health/ready/']) {
        const plain = await client.get(path);
        expect(plain.status, `${path} without the header: ${plain.text}`).to.equal(404);
      }
      for (const path of ['/api/v1/app/version', '/health', '/health/live', '/health/ready']) {
        expect((await client.get(path, v('ios/2.0.0'))).status, path).to.equal(200);
      }
    });

    it('lets the floor itself and higher versions pass, compared numerically (2.10.0 > 2.3.0)', async () => {
      for (const version of ['ios/2.3.0', 'ios/2.10.0', 'ios/2.3.1', 'ios/3.0.0', 'ios/10.0.0', 'android/2.1.0', 'android/2.10.0']) {
        const res = await signedIn.get('/api/v1/me', v(version));
        expect(res.status, `${version}: ${res.text}`).to.equal(200);
      }
    });

    it('gates versions below the floor per platform, compared numerically', async () => {
      for (const version of ['ios/2.2.9', 'ios/1.99.99', 'ios/0.0.1', 'android/2.0.9', 'android/1.10.0']) {
        gated(await signedIn.get('/api/v1/me', v(version)));
      }
    });

    it('never gates a caller without the header', async () => {
      expect((await signedIn.get('/api/v1/me')).status).to.equal(200);
    });

    it('treats a malformed header as absent', async () => {
      for (const version of ['ios/2', 'ios-2.0.0', 'garbage', 'ios/2.0', 'ios/two.0.0', '']) {
        const res = await signedIn.get('/api/v1/me', v(version));
        expect(res.status, `"${version}": ${res.text}`).to.equal(200);
      }
    });

    it('does not gate an unknown platform', async () => {
      const res = await signedIn.get('/api/v1/me', v('windows/1.0.0'));
      expect(res.status, res.text).to.equal(200);
    });
  });

  describe('rate limit auth=3/60: all /api/v1/auth/* share one per-IP counter', () => {
    const server = httpService(kind, { env: { RATE_LIMITS: GENEROUS.replace('auth=10000/60', 'auth=3/60') } });

    it('the 4th auth request of the IP, login and register mixed, is 429 rate_limited with Retry-After', async () => {
      const client = server.client();
      const email = freshEmail();
      const register = await client.post('/api/v1/auth/register', { email, password: 'correct horse battery', displayName: 'Rate' });
      expect(register.status, register.text).to.equal(200);
      const wrong = await server.client().post('/api/v1/auth/login', { email, password: 'not the password' });
      expectProblem(wrong, 401, 'invalid_credentials');
      const again = await server.client().post('/api/v1/auth/register', { email: freshEmail(), password: 'correct horse battery', displayName: 'Rate 2' });
      expect(again.status, again.text).to.equal(200);

      expectRateLimited(await server.client().post('/api/v1/auth/login', { email, password: 'correct horse battery' }), 60);
      expectRateLimited(await server.client().post('/api/v1/auth/register', { email: freshEmail(), password: 'correct horse battery', displayName: 'Rate 3' }), 60);
    });

    it('other classes are counted apart: with auth spent, robots.txt and the probes still answer', async () => {
      expectRateLimited(await server.client().post('/api/v1/auth/login', { email: freshEmail(), password: 'whatever-password' }), 60);
      expect((await server.client().get('/robots.txt')).status).to.equal(200);
      expect((await server.client().get('/health')).status).to.equal(200);
    });
  });

  describe('rate limit anonymous-per-ip=2/60', () => {
    const server = httpService(kind, { env: { RATE_LIMITS: GENEROUS.replace('anonymous-per-ip=10000/60', 'anonymous-per-ip=2/60') } });

    it('the 3rd GET /robots.txt of the IP is 429 with Retry-After', async () => {
      expect((await server.client().get('/robots.txt')).status).to.equal(200);
      expect((await server.client().get('/robots.txt')).status).to.equal(200);
      expectRateLimited(await server.client().get('/robots.txt'), 60);
      // The other public anonymous routes share the class and the counter.
      expectRateLimited(await server.client().get('/api/v1/app/version'), 60);
      // Probes and auth routes are not counted by it.
      expect((await server.client().get('/health')).status).to.equal(200);
    });
  });

  describe('the client IP of the per-IP limits (TRUST_PROXY)', () => {
    const limits = GENEROUS.replace('anonymous-per-ip=10000/60', 'anonymous-per-ip=2/60');
    const direct = httpService(kind, { env: { RATE_LIMITS: limits } });
    const proxied = httpService(kind, { env: { RATE_LIMITS: limits, TRUST_PROXY: 'true' } });
    const robots = (url: string, forwardedFor: string) => new Client(url).get('/robots.txt', { headers: { 'X-Forwarded-For': forwardedFor } });

    it('TRUST_PROXY=false: a client-sent X-Forwarded-For does not escape the limit', async () => {
      expect((await robots(direct.url, '203.0.113.1')).status).to.equal(200);
      expect((await robots(direct.url, '203.0.113.2')).status).to.equal(200);
      expectRateLimited(await robots(direct.url, '203.0.113.3'), 60);
    });

    it('TRUST_PROXY=true: X-Forwarded-For names the client, each counted on its own', async () => {
      expect((await robots(proxied.url, '203.0.113.1')).status).to.equal(200);
      expect((await robots(proxied.url, '203.0.113.1')).status).to.equal(200);
      expectRateLimited(await robots(proxied.url, '203.0.113.1'), 60);
      expect((await robots(proxied.url, '203.0.113.2')).status).to.equal(200);
    });
  });

  describe('rate limit backstop=3/60: per signed-in account', () => {
    const server = httpService(kind, { env: { RATE_LIMITS: GENEROUS.replace('backstop=10000/60', 'backstop=3/60') } });

    it('the 4th GET /api/v1/me of one account is 429, while a second account from the same IP still gets 200', async () => {
      const first = (await server.signedIn('First')).client;
      const second = (await server.signedIn('Second')).client;
      for (let i = 0; i < 3; i++) {
        const res = await first.get('/api/v1/me');
        expect(res.status, res.text).to.equal(200);
      }
      expectRateLimited(await first.get('/api/v1/me'), 60);
      const other = await second.get('/api/v1/me');
      expect(other.status, other.text).to.equal(200);
      expect(other.json.user.displayName).to.equal('Second');
      // The backstop counts every signed-in route of the account, not only /me.
      expectRateLimited(await first.get('/api/v1/time-zones'), 60);
    });
  });

  describe('rate limit backstop=40/60: counted in batches far from the limit, exactly at it', () => {
    const server = httpService(kind, { env: { RATE_LIMITS: GENEROUS.replace('backstop=10000/60', 'backstop=40/60') } });

    it('admits exactly 40 of 60 concurrent GET /api/v1/me of one account and refuses the rest with Retry-After', async () => {
      // 40 points leave a slack of 2: the first requests are admitted in the process, the last ones ask the counter.
      const { client } = await server.signedIn('Busy');
      const answers = await Promise.all(Array.from({ length: 60 }, () => client.get('/api/v1/me')));
      expect(answers.filter((r) => r.status === 200)).to.have.length(40);
      const limited = answers.filter((r) => r.status !== 200);
      expect(limited).to.have.length(20);
      for (const res of limited) expectRateLimited(res, 60);
    });
  });

  if (kind.name === 'postgres') {
    describe('rate limits shared by two processes over one Postgres database', () => {
      let server: TestServer;
      let second: RunningServer | undefined;
      before(async () => {
        server = await startTestServer(kind, { RATE_LIMITS: GENEROUS.replace('auth=10000/60', 'auth=4/60') });
        const runtime = await createRuntime(server.config, { logger: captureLog().logger, ...(server.database.schema ? { schema: server.database.schema } : {}) });
        second = await listen(runtime, 0, '127.0.0.1');
      });
      after(async () => {
        if (second) await second.stop();
        await stopQuietly(server);
      });

      it('requests split across both servers meet the limit together', async () => {
        const urls = [server.url, second!.url];
        expect(urls[0]).to.not.equal(urls[1]);
        const login = (url: string) => new Client(url).post('/api/v1/auth/login', { email: freshEmail(), password: 'not a real password' });
        for (let i = 0; i < 4; i++) {
          const res = await login(urls[i % 2]!);
          expectProblem(res, 401, 'invalid_credentials');
        }
        // Each server alone has seen only two requests; the shared counter holds four.
        expectRateLimited(await login(urls[0]!), 60);
        expectRateLimited(await login(urls[1]!), 60);
        // The count lives in the database both processes share, not in either process.
        const rows = (await server.runtime.db.knex('rate_limits').where('key', 'like', 'auth%')) as { key: string; points: number }[];
        expect(rows, 'one shared counter for the IP').to.have.length(1);
        expect(Number(rows[0]!.points)).to.be.at.least(4);
      });
    });
  }

  describe('requests the HTTP parser refuses', () => {
    const server = httpService(kind);

    /** Writes raw bytes on a connection of its own and reads until the server closes it. */
    const raw = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(server.url);
        const socket = connect(Number(port), hostname, () => socket.write(bytes, 'latin1'));
        let data = '';
        socket.setEncoding('latin1');
        socket.on('data', (c: string) => (data += c));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });

    for (const [name, bytes] of [
      ['a NUL in a header value', 'GET /health HTTP/1.1\r\nHost: x\r\nX-Note: a\u0000b\r\n\r\n'],
      ['a broken request line', 'NOT AN HTTP REQUEST\r\n\r\n'],
    ] as const) {
      it(`${name}: 400 problem+json validation_failed with the headers of every response`, async () => {
        const text = await raw(bytes);
        const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
        const [statusLine, ...headerLines] = head.split('\r\n');
        expect(statusLine).to.match(/^HTTP\/1\.1 400 /);
        const headers = new Headers(headerLines.map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
        expect(headers.get('content-type') ?? '').to.match(/^application\/problem\+json/);
        const problem = JSON.parse(body) as Record<string, unknown>;
        expect(problem['code']).to.equal('validation_failed');
        expect(problem['status']).to.equal(400);
        expect(problem['traceId']).to.equal(headers.get('x-trace-id'));
        expectEveryResponseHeaders(headers);
      });
    }
  });

  describe('OpenAPI document and reference page', () => {
    const server = httpService(kind);

    it('GET /api/v1/openapi.json is public OpenAPI 3.1 and documents every route', async () => {
      const res = await server.client().get('/api/v1/openapi.json');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type') ?? '').to.match(/^application\/json/);
      const doc = res.json;
      expect(String(doc.openapi)).to.match(/^3\.1(\.|$)/);
      expect(doc.info.version).to.equal('1.0.0');
      const routes = server.runtime.routes;
      expect(routes.length).to.be.above(5);
      for (const route of routes) {
        const op = doc.paths?.[route.path]?.[route.method.toLowerCase()];
        expect(op, `${route.method} ${route.path}`).to.be.an('object');
        expect(op.responses, `${route.method} ${route.path} responses`).to.be.an('object').that.is.not.empty;
        for (const name of [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
          const param = (op.parameters ?? []).find((p: { name: string; in: string }) => p.name === name && p.in === 'path');
          expect(param, `${route.method} ${route.path} parameter ${name}`).to.be.an('object');
          expect(param.required).to.equal(true);
        }
        if (route.body) {
          const schema = op.requestBody?.content?.['application/json']?.schema;
          expect(schema, `${route.method} ${route.path} request body schema`).to.be.an('object');
          // An object, or a union of objects told apart by a field (a dinner rule of one kind: oneOf its kinds).
          for (const option of (schema.oneOf ?? schema.anyOf ?? [schema]) as { type?: string; properties?: unknown }[]) {
            expect(option.type, `${route.method} ${route.path} request body type`).to.equal('object');
            expect(option.properties, `${route.method} ${route.path} request body properties`).to.be.an('object');
          }
        }
      }
      // Nothing documented that is not served.
      const served = new Set(routes.map((r) => `${r.method.toLowerCase()} ${r.path}`));
      for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(ops)) expect(served.has(`${method} ${path}`), `${method} ${path} is served`).to.equal(true);
      }
      const login = doc.paths['/api/v1/auth/login'].post.requestBody.content['application/json'].schema;
      expect(login.properties).to.have.all.keys('email', 'password');
      expect(login.required).to.have.members(['email', 'password']);
      const problem = doc.components?.schemas?.Problem;
      expect(problem, 'Problem schema').to.be.an('object');
      expect(problem.properties).to.include.all.keys('type', 'title', 'status', 'detail', 'instance', 'code', 'traceId');
    });

    it('GET /api/docs is public HTML naming every route path', async () => {
      const res = await server.client().get('/api/docs');
      expect(res.status, res.text.slice(0, 200)).to.equal(200);
      expect(res.headers.get('content-type') ?? '').to.match(/^text\/html/);
      for (const route of server.runtime.routes) expect(res.text, route.path).to.contain(route.path);
    });
  });

  describe('JSON log lines with the trace id', () => {
    const lines: string[] = [];
    const server = httpService(kind, { runtime: { logger: jsonLogger('info', (line) => lines.push(line)) } });

    const parsed = (from: number) =>
      lines.slice(from).map((line) => {
        expect(line.endsWith('\n'), 'one line per entry').to.equal(true);
        expect(line.trimEnd(), 'a single line').to.not.contain('\n');
        return JSON.parse(line) as Record<string, unknown>;
      });

    it('every line written during a request is JSON, and the request line carries the X-Trace-Id', async () => {
      const from = lines.length;
      const res = await server.client().get('/health');
      expect(res.status).to.equal(200);
      const traceId = res.headers.get('x-trace-id');
      expect(traceId).to.match(/^[0-9a-f]{32}$/);
      const entries = parsed(from);
      expect(entries.length).to.be.above(0);
      for (const e of entries) {
        expect(e['time']).to.be.a('string');
        expect(e['level']).to.be.a('string');
        expect(e['msg']).to.be.a('string');
      }
      const access = entries.find((e) => e['msg'] === 'request' && e['path'] === '/health');
      expect(access, 'the access line').to.be.an('object');
      expect(access!['traceId']).to.equal(traceId);
      expect(access!['status']).to.equal(200);
      // The request's own id: the span it answers in its traceparent header.
      expect(access!['requestId']).to.equal(res.headers.get('traceparent')!.split('-')[2]);
    });

    it('a problem answer logs under the same trace id it reports', async () => {
      const from = lines.length;
      const res = await server.client().get('/api/v1/me');
      expectProblem(res, 401, 'unauthenticated');
      const entries = parsed(from);
      const access = entries.find((e) => e['msg'] === 'request' && e['path'] === '/api/v1/me');
      expect(access, 'the access line').to.be.an('object');
      expect(access!['traceId']).to.equal(res.json.traceId);
      expect(access!['status']).to.equal(401);
    });

    it('a valid incoming traceparent is continued in X-Trace-Id and in the log', async () => {
      const from = lines.length;
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await server.client().get('/health/live', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
      expect(res.headers.get('x-trace-id')).to.equal(traceId);
      const access = parsed(from).find((e) => e['msg'] === 'request' && e['path'] === '/health/live');
      expect(access!['traceId']).to.equal(traceId);
    });
  });
});
