import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { freshSchema } from '../support/databases.js';
import { TEST_RATE_LIMITS } from '../support/server.js';
import { freePort, spawnService } from '../support/service-process.js';

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

/** Starts the service with only these settings (and what a shell needs, and `settings`) and resolves once it listens. */
export async function startService(databaseUrl: string, scratchDir: string, settings: Record<string, string> = {}): Promise<Service> {
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
    ...settings,
  };
  const p = spawnService(env);
  const { child, exited } = p;
  const listening = p.logLine((line) => line['msg'] === 'listening');
  const service: Service = {
    child,
    url: `http://127.0.0.1:${port}`,
    exited,
    output: () => p.stdout() + p.stderr(),
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
  const { schema, drop } = await freshSchema(baseUrl, 'fault');
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
      await drop();
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
