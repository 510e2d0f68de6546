/**
 * The database out of reach while the process runs. Postgres: the service talks to it through a TCP proxy that
 * the test cuts (listener closed, open sockets destroyed) and restores. While cut, `/health/ready` answers 503
 * `not_ready` and ordinary requests a clean 503 `store_unavailable` with Retry-After, quickly (no 500, no hang);
 * once restored, the same process answers 200 again without a restart. The same holds when the proxy takes
 * connections in and never answers (a network dropping packets): the pg connect timeout (3 s) turns that into the
 * same 503 instead of a wait for knex's 10 s acquire timeout. And when the network goes silent under connections
 * already open (frozen: nothing passes, nothing closes), a statement unanswered within DATABASE_QUERY_TIMEOUT_MS
 * fails the same way, its connection is not used again, and the read cache stops answering from memory.
 *
 * SQLite: the one connection holds the file open for the life of the process, so deleting, renaming or chmod-ing
 * the file does not cut it off (the open descriptor keeps working, and the suite may run as root). What reaches a
 * running SQLite service is an I/O failure of the disk (SQLITE_IOERR_*) or a file that cannot be opened when the
 * connection is made (SQLITE_CANTOPEN); those cannot be caused from a test without a faulty file system, so their
 * translation into the same 503 is checked at the store boundary (`translated`) below, with the drivers' codes.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { StoreBusyError, StoreUnavailableError } from '../../ports/store-errors.js';
import { translated } from '../../adapters/knex/errors.js';
import { freshEmail } from '../support/client.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { killAllStarted, postgresFaultDatabase, startService, type FaultDatabase, type Service } from './service.js';

/** No answer within this is a hang: the point is a fast, clean refusal. */
const ANSWER_WITHIN_MS = 5000;
/** The service's statement time limit here (DATABASE_QUERY_TIMEOUT_MS; 30 s by default). */
const QUERY_TIMEOUT_MS = 1500;

interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown> | undefined;
  text: string;
}

const pgUrl = process.env['DATABASE_URL_PG'];
if (!pgUrl && process.env['CI'] === 'true') throw new Error('CI runs the fault suite on Postgres too: set DATABASE_URL_PG');

(pgUrl ? describe : describe.skip)('database unreachable [postgres]', function () {
  this.timeout(60_000);
  let db: FaultDatabase;
  let proxy: TcpProxy;
  let service: Service;
  let cookie = '';
  let householdId: string;

  let slowestMs = 0;
  async function call(method: string, path: string, body?: unknown): Promise<Reply> {
    const t0 = performance.now();
    const res = await fetch(service.url + path, {
      method,
      headers: { ...(cookie ? { Cookie: `app_session=${cookie}` } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    for (const c of res.headers.getSetCookie()) cookie = /^app_session=([^;]*)/.exec(c)?.[1] ?? cookie;
    const text = await res.text();
    slowestMs = Math.max(slowestMs, performance.now() - t0);
    let json: Record<string, unknown> | undefined;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  }
  /** After a restore: /health/ready answers 200 within 5 s (the pool and the listening connection reconnect). */
  async function readyAgain(): Promise<void> {
    let ready = await call('GET', '/health/ready');
    for (let i = 0; i < 20 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      ready = await call('GET', '/health/ready');
    }
    expect(ready.status, ready.text).to.equal(200);
  }
  const observation = () => call('POST', `/api/v1/households/${householdId}/inventory/observations`, { foodKey: 'salt', observationType: 'Purchased', quantity: 1, unit: 'stk', storageLocation: 'Pantry' });

  function expectProblem(res: Reply, status: number, code: string) {
    expect(res.status, res.text + service.output().split('\n').filter((l) => l.includes('unhandled')).slice(-2).join('\n')).to.equal(status);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(res.json).to.include({ status, code });
    expect(res.json!['traceId']).to.be.a('string');
    // No driver detail leaks: the answer names the fault, not the socket.
    expect(res.text).to.not.match(/ECONN|Knex|Connection terminated|search_path|:5432/);
  }

  before(async () => {
    const target = new URL(pgUrl!);
    db = await postgresFaultDatabase(pgUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    service = await startService(db.serviceUrl(proxy.port), db.dir, { DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) });
    const reg = await call('POST', '/api/v1/auth/register', { email: freshEmail('unreachable'), password: 'correct horse battery', displayName: 'Owner' });
    expect(reg.status, reg.text).to.equal(200);
    const h = await call('POST', '/api/v1/households', { name: 'Cut off' });
    expect(h.status, h.text).to.equal(201);
    householdId = h.json!['id'] as string;
  });

  after(async () => {
    await killAllStarted();
    await proxy?.close();
    await db?.cleanup();
  });

  it('answers 503 not_ready and 503 store_unavailable with Retry-After while cut, and 200 again once restored, in the same process', async () => {
    expect((await call('GET', '/health/ready')).status).to.equal(200);
    expect((await call('GET', '/api/v1/me')).status).to.equal(200);
    expect((await observation()).status).to.equal(200);

    await proxy.cut();
    slowestMs = 0;

    expectProblem(await call('GET', '/health/ready'), 503, 'not_ready');
    // The session lookup itself needs the database: signed-in reads and writes alike meet the outage.
    for (const res of [await call('GET', '/api/v1/me'), await observation(), await call('GET', `/api/v1/households/${householdId}/inventory`)]) {
      expectProblem(res, 503, 'store_unavailable');
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    }
    // Still cut: a second wave meets the same answer (no connection is left half-alive in the pool).
    expectProblem(await call('GET', '/api/v1/me'), 503, 'store_unavailable');

    const slowestWhileCut = slowestMs;
    await proxy.restore();
    const restoredAt = performance.now();

    await readyAgain();
    console.log(`      [postgres] while cut the slowest answer took ${Math.round(slowestWhileCut)} ms; ready again ${Math.round(performance.now() - restoredAt)} ms after the restore`);
    const me = await call('GET', '/api/v1/me');
    expect(me.status, me.text).to.equal(200);
    const written = await observation();
    expect(written.status, written.text).to.equal(200);
    expect(service.child.exitCode, 'no restart').to.equal(null);
    expect(service.output(), 'the outage was never answered as an internal error').to.not.contain('"internal_error"');
  });

  it('a database that takes connections in and never answers (dropped packets) gives 503 after the connect timeout, not a hang, and recovers', async () => {
    expect((await call('GET', '/api/v1/me')).status).to.equal(200);
    await proxy.stall();
    slowestMs = 0;
    expectProblem(await call('GET', '/health/ready'), 503, 'not_ready');
    const [me, written] = await Promise.all([call('GET', '/api/v1/me'), observation()]);
    for (const res of [me, written]) {
      expectProblem(res, 503, 'store_unavailable');
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    }
    const slowestWhileStalled = slowestMs;
    await proxy.restore();
    await readyAgain();
    console.log(`      [postgres] while stalled the slowest answer took ${Math.round(slowestWhileStalled)} ms`);
    expect((await call('GET', '/api/v1/me')).status).to.equal(200);
    expect((await observation()).status).to.equal(200);
    expect(service.child.exitCode, 'no restart').to.equal(null);
  });

  it('a network that goes silent under open connections (frozen) gives 503 after the query timeout, not a hang, and recovers', async () => {
    // Warm: the pool holds open connections, the read cache holds the session.
    expect((await call('GET', '/api/v1/me')).status).to.equal(200);
    expect((await observation()).status).to.equal(200);
    proxy.freeze();
    slowestMs = 0;
    // A write meets a connection that never answers: 503 once its statement has waited out the limit.
    const written = await observation();
    expectProblem(written, 503, 'store_unavailable');
    expect(Number(written.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(slowestMs, 'waited out the query timeout, not the kernel').to.be.within(QUERY_TIMEOUT_MS - 100, ANSWER_WITHIN_MS);
    // That told the read cache the database is out of reach: the session is not answered from memory, and the
    // timed-out connection is not handed out again (a new one meets the connect timeout).
    expectProblem(await call('GET', '/api/v1/me'), 503, 'store_unavailable');
    expectProblem(await call('GET', '/health/ready'), 503, 'not_ready');
    const slowestWhileFrozen = slowestMs;
    await proxy.restore();
    await readyAgain();
    console.log(`      [postgres] while frozen the slowest answer took ${Math.round(slowestWhileFrozen)} ms`);
    // Every connection works again: as many requests at once as the pool has connections.
    const again = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? observation() : call('GET', `/api/v1/households/${householdId}/inventory`))));
    for (const res of again) expect(res.status, res.text).to.equal(200);
    expect(service.child.exitCode, 'no restart').to.equal(null);
    expect(service.output(), 'the outage was never answered as an internal error').to.not.contain('"internal_error"');
  });
});

describe('store fault translation (translated)', () => {
  // A store over a database registered with neither group commit nor a read cache (nor ever connected): only the
  // error translation is under test here.
  let knex: Knex;
  before(() => {
    knex = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  });
  after(() => knex.destroy());
  const failing = (err: unknown) =>
    translated(knex, {
      async read(): Promise<never> {
        throw err;
      },
    });
  const withCode = (code: string, message = 'driver error') => Object.assign(new Error(message), { code });

  const unavailable: [string, unknown][] = [
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['connect timed out', withCode('ETIMEDOUT')],
    ['refused on every address (AggregateError)', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed')],
    ['knex gave up acquiring a connection', Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' })],
    ['pg: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg: connect timeout', new Error('timeout expired')],
    ['Postgres admin shutdown (57P01)', withCode('57P01')],
    ['Postgres starting up (57P03)', withCode('57P03')],
    ['Postgres connection failure (08006)', withCode('08006')],
    ['Postgres cannot establish (08001)', withCode('08001')],
    ['SQLite disk I/O error', withCode('SQLITE_IOERR_WRITE')],
    ['SQLite file cannot be opened', withCode('SQLITE_CANTOPEN')],
    ['wrapped in a cause', new Error('query failed', { cause: withCode('ECONNRESET') })],
  ];
  for (const [what, err] of unavailable) {
    it(`${what} → StoreUnavailableError`, async () => {
      const thrown = await failing(err).read().catch((e: unknown) => e);
      expect(thrown).to.be.instanceOf(StoreUnavailableError);
      expect((thrown as Error).cause).to.equal(err);
    });
  }

  it('contention stays StoreBusyError; a constraint or a bug passes through untouched', async () => {
    expect(await failing(withCode('SQLITE_BUSY')).read().catch((e: unknown) => e)).to.be.instanceOf(StoreBusyError);
    expect(await failing(withCode('40001')).read().catch((e: unknown) => e)).to.be.instanceOf(StoreBusyError);
    for (const err of [withCode('23505'), withCode('SQLITE_CONSTRAINT_UNIQUE'), withCode('42P01'), new TypeError('x is undefined')]) {
      expect(await failing(err).read().catch((e: unknown) => e)).to.equal(err);
    }
  });
});
