/**
 * A small cluster for tests: two real server processes (`node --import tsx bootstrap/main.ts`) on one fresh
 * Postgres schema, behind a round-robin HTTP proxy on a loopback port. The proxy picks the backend per request,
 * not per connection, so fetch's keep-alive to the proxy never pins a client on one process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { freshSchema } from '../support/databases.js';
import { freePort, spawnService, stopProcess, type ServiceProcess } from '../support/service-process.js';

/** The response header naming the process that answered (set by the proxy). */
export const BACKEND_HEADER = 'x-cluster-backend';

export interface Backend extends ServiceProcess {
  readonly name: string;
  readonly port: number;
}

export interface Cluster {
  /** The round-robin's base URL. */
  readonly url: string;
  readonly schema: string;
  readonly backends: readonly [Backend, Backend];
  /** A connection to the cluster's schema, for looking at the tables. */
  readonly db: Knex;
  /** The backend of every request the proxy forwarded, in order. */
  readonly served: string[];
  stop(): Promise<void>;
}

function startBackend(name: string, port: number, env: Record<string, string>): Backend {
  return { ...spawnService({ ...env, PORT: String(port) }, `process ${name}`), name, port };
}

const stopBackend = async (b: Backend): Promise<void> => void (await stopProcess(b));


/** Forwards each request to the next backend in turn and names it in BACKEND_HEADER. */
async function roundRobin(backends: readonly Backend[], served: string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const backend = backends[next++ % backends.length]!;
    served.push(backend.name);
    // A connection of its own per forwarded request: nothing pools behind the proxy either.
    const upstream = http.request(
      { host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode!, { ...answer.headers, [BACKEND_HEADER]: backend.name });
        answer.pipe(res);
      },
    );
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', [BACKEND_HEADER]: backend.name });
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The DATABASE_URL of a process that works in `schema`: through the connection's search_path, as an operator would set it. */
export const schemaUrl = (pgUrl: string, schema: string): string => `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

/**
 * Starts the cluster on a schema of its own in the database of `pgUrl`. `env` adds to the settings both processes
 * get (RATE_LIMITS, LOCKOUT, ...).
 */
export async function startCluster(pgUrl: string, env: Record<string, string> = {}): Promise<Cluster> {
  const { schema, drop } = await freshSchema(pgUrl, 'cluster');
  const dir = mkdtempSync(join(tmpdir(), 'dinner-cluster-'));
  const url = schemaUrl(pgUrl, schema);
  const common: Record<string, string> = {
    DATABASE_URL: url,
    LOG_LEVEL: 'info',
    OUTBOX_DIR: join(dir, 'outbox'),
    BUILD_ID: 'cluster-test',
    ...env,
  };
  const backends: Backend[] = [];
  const db = knexFactory({ client: 'pg', connection: pgUrl, searchPath: [schema], pool: { min: 0, max: 2 } });
  const served: string[] = [];
  let proxy: { url: string; close(): Promise<void> } | undefined;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(backends.map(stopBackend));
    await db.destroy();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Both start at once on the fresh schema, as an orchestrator starts replicas: both migrate it.
    for (const name of ['a', 'b']) backends.push(startBackend(name, await freePort(), common));
    await Promise.all(backends.map((b) => b.logLine((line) => line['msg'] === 'listening')));
    proxy = await roundRobin(backends, served);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: proxy.url, schema, backends: backends as unknown as [Backend, Backend], db, served, stop };
}
