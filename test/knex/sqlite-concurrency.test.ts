import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { knexAccountStore } from '../../adapters/knex/account-store.js';
import { StoreBusyError } from '../../ports/store-errors.js';
import { databaseKinds, withDatabase, type TestDatabase } from '../support/databases.js';
import { startTestServer } from '../support/server.js';
import { Client, freshEmail } from '../support/client.js';
import { newAccount } from '../contracts/fixtures.js';

const sqlite = databaseKinds().find((k) => k.name === 'sqlite')!;

const fileOf = (database: TestDatabase): string => {
  if (database.target.kind !== 'sqlite') throw new Error('sqlite expected');
  return database.target.filename;
};

/** Another process that takes SQLite's write lock and holds it for `ms`, then commits. */
function holdWriteLock(filename: string, ms: number): Promise<{ child: ChildProcess; done: Promise<number> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("insert into accounts (id, email, email_normalized, email_confirmed, display_name, password_hash, security_stamp, created_at, updated_at) values (?, ?, ?, 0, 'Other process', null, 's', ?, ?)")
      .run('${randomUUID()}', 'other@example.com', 'other@example.com', new Date().toISOString(), new Date().toISOString());
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
    db.exec('COMMIT');
    db.close();`;
  const child = spawn(process.execPath, ['-e', script, filename], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve({ child, done }));
    child.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
}

describe('SQLite under concurrent writers', function () {
  this.timeout(30_000);

  it('runs in WAL mode with synchronous=NORMAL (made durable by group commit, test/knex/wal-sync.test.ts), foreign keys on and a busy timeout', async () => {
    await withDatabase(sqlite, async (db) => {
      const pragma = async (name: string) => Object.values((await db.knex.raw(`pragma ${name}`))[0] as Record<string, unknown>)[0];
      expect(await pragma('journal_mode')).to.equal('wal');
      expect(await pragma('synchronous')).to.equal(1); // NORMAL
      expect(await pragma('foreign_keys')).to.equal(1);
      expect(await pragma('busy_timeout')).to.equal(1234);
    }, { busyTimeoutMs: 1234 });
  });

  it('a writer waits for another process to release the lock instead of failing', async () => {
    await withDatabase(sqlite, async (db, database) => {
      const holder = await holdWriteLock(fileOf(database), 400);
      const mine = newAccount();
      const created = await knexAccountStore(db.knex).create(mine);
      expect(created).to.not.equal('email-taken');
      expect(await holder.done).to.equal(0);
      expect((await db.knex('accounts').count({ n: '*' }))[0]!['n']).to.equal(2);
    }, { busyTimeoutMs: 10_000 });
  });

  it('a lock held past the busy timeout surfaces as StoreBusyError, never the raw SQLITE_BUSY', async () => {
    await withDatabase(sqlite, async (db, database) => {
      const holder = await holdWriteLock(fileOf(database), 1500);
      let caught: unknown;
      try {
        await knexAccountStore(db.knex).create(newAccount());
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(StoreBusyError);
      await holder.done;
    }, { busyTimeoutMs: 50 });
  });

  it('over HTTP the request answers 503 store_busy with Retry-After, not 500', async () => {
    const server = await startTestServer(sqlite, { SQLITE_BUSY_TIMEOUT_MS: '50' });
    try {
      const holder = await holdWriteLock(fileOf(server.database), 2000);
      const res = await new Client(server.url).post('/api/v1/auth/register', { email: freshEmail(), password: 'long enough', displayName: 'X' });
      expect(res.status).to.equal(503);
      expect(res.headers.get('content-type')).to.equal('application/problem+json');
      expect(res.json.code).to.equal('store_busy');
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(res.text).to.not.match(/SQLITE/i);
      await holder.done;
      // Once the lock is gone the same request succeeds.
      expect((await new Client(server.url).post('/api/v1/auth/register', { email: freshEmail(), password: 'long enough', displayName: 'X' })).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });
});
