/**
 * The real entry point as an operator runs it (`node --import tsx bootstrap/main.ts`): configuration checked at
 * start, a fresh SQLite file created and migrated, and a graceful shutdown on
 * SIGTERM that finishes in-flight requests, refuses new connections and exits 0.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import { migrations } from '../adapters/knex/migrations/index.js';
import { freePort, spawnService, type ServiceProcess } from './support/service-process.js';

type Service = ServiceProcess;

const started: ChildProcess[] = [];
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-process-'));
  tempDirs.push(dir);
  return dir;
}

/** Starts the entry point with only the given settings (and what a shell needs), never the test runner's. */
function startService(env: Record<string, string>): Service {
  const service = spawnService(env);
  started.push(service.child);
  return service;
}

interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/** A response handler that reads the reply whole, then resolves with it. */
const readReply = (resolve: (r: Reply) => void, reject: (e: Error) => void) => (res: http.IncomingMessage) => {
  let text = '';
  res.setEncoding('utf8').on('data', (c: string) => (text += c));
  res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
  res.on('error', reject);
};

/** One request on a connection of its own (no pooling, so nothing lingers on the server). */
function request(port: number, method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent: false, headers: body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {} },
      readReply(resolve, reject),
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Resolves with the error code of a refused connection, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
  });
}

const listening = (line: Record<string, unknown>) => line['msg'] === 'listening';

describe('the process (bootstrap/main.ts)', function () {
  this.timeout(60000);

  after(async () => {
    for (const child of started) {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('a malformed variable stops the process at start, naming the variable', () => {
    const cases: [variable: string, value: string][] = [
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['DATABASE_URL', 'mysql://x'],
      ['RATE_LIMITS', 'auth=abc'],
      ['RATE_LIMITS', 'bogus=1/60'],
      ['APP_VERSION_FLOOR', 'ios=two'],
      ['APP_VERSION_LATEST', 'windows=1.0.0'],
      ['LOG_LEVEL', 'loud'],
      ['TRUST_PROXY', 'maybe'],
      ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ];
    for (const [variable, value] of cases) {
      it(`${variable}=${value}`, async () => {
        const dir = tempDir();
        const env: Record<string, string> = { PORT: String(await freePort()), DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, LOG_LEVEL: 'info', [variable]: value };
        const service = startService(env);
        const { code, signal } = await service.exited;
        expect(signal, service.stderr()).to.equal(null);
        expect(code, service.stderr()).to.be.a('number').and.not.equal(0);
        expect(service.stderr()).to.contain(variable);
        expect(service.stdout(), 'it never listened').to.not.contain('"listening"');
        expect(existsSync(join(dir, 'x.db')), 'no database was opened').to.equal(false);
      });
    }
  });

  describe('start on a fresh SQLite path', () => {
    let service: Service;
    let port: number;
    let metricsPort: number;
    let file: string;
    before(async () => {
      file = join(tempDir(), 'x.db');
      port = await freePort();
      metricsPort = await freePort();
      service = startService({ PORT: String(port), DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'info', METRICS_PORT: String(metricsPort) });
      await service.logLine(listening);
    });
    after(async () => {
      if (service.child.exitCode === null) {
        service.child.kill('SIGTERM');
        await service.exited;
      }
    });

    it('creates the database file, applies every migration, and reports ready', async () => {
      expect(existsSync(file), 'the database file').to.equal(true);
      const ready = await request(port, 'GET', '/health/ready');
      expect(ready.status, ready.text).to.equal(200);
      const health = await request(port, 'GET', '/health');
      expect(health.status).to.equal(200);
      expect(JSON.parse(health.text)).to.include({ status: 'ok' });

      const reader = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
      try {
        const applied = ((await reader('knex_migrations').select('name').orderBy('id')) as { name: string }[]).map((r) => r.name);
        expect(applied).to.deep.equal(migrations.map((m) => m.name));
      } finally {
        await reader.destroy();
      }
    });

    it('serves its metrics on METRICS_PORT, and says where', async () => {
      expect((await service.logLine(listening))['metrics']).to.equal(`http://127.0.0.1:${metricsPort}/metrics`);
      await request(port, 'GET', '/health');
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.match(/^http_request_duration_seconds_count\{method="GET",route="\/health",status_class="2xx"\} [1-9]/m);
      expect((await request(port, 'GET', '/metrics')).status).to.equal(404);
    });

    it('writes its log as JSON lines on stdout', async () => {
      const line = await service.logLine(listening);
      expect(line['url']).to.equal(`http://127.0.0.1:${port}`);
      for (const text of service.stdout().split('\n').filter((l) => l.trim() !== '')) expect(() => JSON.parse(text), text).to.not.throw();
    });
  });

  describe('graceful shutdown on SIGTERM', () => {
    let service: Service;
    let port: number;
    before(async () => {
      port = await freePort();
      service = startService({ PORT: String(port), DATABASE_URL: `sqlite:${join(tempDir(), 'x.db')}`, LOG_LEVEL: 'info' });
      await service.logLine(listening);
    });

    it('finishes the in-flight request, refuses new connections, and exits 0', async () => {
      const body = JSON.stringify({ email: 'nobody-here@example.com', password: 'not the right password' });
      const half = Math.floor(body.length / 2);
      let req!: http.ClientRequest;
      const reply = new Promise<Reply>((resolve, reject) => {
        req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/auth/login',
            agent: false,
            headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
          },
          readReply(resolve, reject),
        );
        req.on('error', reject);
      });
      // The headers and half the body reach the server...
      await new Promise<void>((resolve, reject) => req.write(body.slice(0, half), (err) => (err ? reject(err) : resolve())));
      // ...and a request on a second connection, accepted after the first, has been answered, so the server
      // has taken the first connection in and is reading its request.
      expect((await request(port, 'GET', '/health/live')).status).to.equal(200);

      service.child.kill('SIGTERM');
      await service.logLine((line) => line['msg'] === 'shutting down');

      req.end(body.slice(half));
      const answer = await reply;
      expect(answer.status, answer.text).to.equal(401);
      expect(answer.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(Buffer.byteLength(answer.text), 'the whole body').to.equal(Number(answer.headers['content-length']));
      const problem = JSON.parse(answer.text) as Record<string, unknown>;
      expect(problem['code']).to.equal('invalid_credentials');
      expect(problem['traceId']).to.equal(answer.headers['x-trace-id']);

      // The server stopped listening when the signal came (before this answer was written).
      expect(await tryConnect(port)).to.equal('ECONNREFUSED');

      const { code, signal } = await service.exited;
      expect(signal, service.stderr()).to.equal(null);
      expect(code, service.stderr()).to.equal(0);
      await service.logLine((line) => line['msg'] === 'stopped');
      expect(await tryConnect(port)).to.equal('ECONNREFUSED');
    });
  });
});
