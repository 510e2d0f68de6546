import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { TEST_RATE_LIMITS } from '../support/server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The real entry point (`node --import tsx bootstrap/main.ts`) as a child process. */
export interface Service {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly output: () => string;
  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions die where they are. */
  kill9(): Promise<void>;
  /** SIGTERM and wait (graceful). */
  stop(): Promise<void>;
}

const running = new Set<Service>();

/** Starts the service with only these settings (and what a shell needs) and resolves once it listens. */
export async function startService(databaseUrl: string, scratchDir: string): Promise<Service> {
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    RATE_LIMITS: TEST_RATE_LIMITS,
    BUILD_ID: 'fault-suite',
    OUTBOX_DIR: join(scratchDir, 'outbox'),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      out += chunk;
      if (out.includes('"msg":"listening"')) resolve();
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    void exited.then(({ code, signal }) => reject(new Error(`the service exited (code ${code}, signal ${signal}) before listening\n${out.slice(-4000)}`)));
  });
  const service: Service = {
    child,
    url: `http://127.0.0.1:${port}`,
    exited,
    output: () => out,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      running.delete(service);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      running.delete(service);
    },
  };
  running.add(service);
  await listening;
  return service;
}

/** For an `after` hook: no child outlives the suite, whatever failed. */
export async function killAllStarted(): Promise<void> {
  for (const s of [...running]) await s.kill9();
}

/**
 * The database the service is started on: a SQLite file in a temp dir, or a fresh Postgres schema that the
 * service reaches through search_path in its URL (the entry point takes no schema setting).
 */
export interface FaultDatabase {
  readonly name: 'sqlite' | 'postgres';
  readonly dir: string;
  /** DATABASE_URL for the service; `viaPort` routes a Postgres URL through another local port (a proxy). */
  serviceUrl(viaPort?: number): string;
  /** A direct knex connection for inspecting rows. */
  inspect(): Knex;
  cleanup(): Promise<void>;
}

export function sqliteFaultDatabase(): FaultDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-faults-'));
  const file = join(dir, 'dinner.db');
  return {
    name: 'sqlite',
    dir,
    serviceUrl: () => `sqlite:${file}`,
    inspect: () => knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true }),
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresFaultDatabase(baseUrl: string): Promise<FaultDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-faults-'));
  const schema = `fault_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('create schema ??', [schema]);
  } finally {
    await admin.destroy();
  }
  const urlFor = (viaPort?: number) => {
    const u = new URL(baseUrl);
    if (viaPort !== undefined) {
      u.hostname = '127.0.0.1';
      u.port = String(viaPort);
    }
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  };
  return {
    name: 'postgres',
    dir,
    serviceUrl: urlFor,
    inspect: () => knexFactory({ client: 'pg', connection: baseUrl, searchPath: [schema], pool: { min: 0, max: 2 } }),
    async cleanup() {
      const a = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
      try {
        await a.raw('drop schema if exists ?? cascade', [schema]);
      } finally {
        await a.destroy();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SQLite always; Postgres when DATABASE_URL_PG is set (CI sets it). */
export function faultDatabases(): { name: 'sqlite' | 'postgres'; create: () => Promise<FaultDatabase> }[] {
  const kinds: { name: 'sqlite' | 'postgres'; create: () => Promise<FaultDatabase> }[] = [{ name: 'sqlite', create: async () => sqliteFaultDatabase() }];
  const pg = process.env['DATABASE_URL_PG'];
  if (!pg && process.env['CI'] === 'true') throw new Error('CI runs the fault suite on Postgres too: set DATABASE_URL_PG');
  if (pg) kinds.push({ name: 'postgres', create: () => postgresFaultDatabase(pg) });
  return kinds;
}
