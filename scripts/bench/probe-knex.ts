/**
 * npx tsx scripts/bench/probe-knex.ts [--n 10000]
 * What one signed-in request's session lookup costs on SQLite through each layer: the knex query builder, knex.raw
 * with the same SQL, and the better-sqlite3 statement directly (both of the latter prepared once by the service's
 * statement cache). Sequential, one process, a fresh migrated database; prints microseconds per query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../adapters/knex/database.js';
import { arg } from './lib.js';

const n = arg('n', 10_000);
const dir = mkdtempSync(join(tmpdir(), 'dinner-probe-knex-'));
const db = openDatabase({ kind: 'sqlite', filename: join(dir, 'probe.db') });
await db.migrate();
const k = db.knex;
const sql = 'select a.id, s.token_hash from sessions as s inner join accounts as a on a.id = s.account_id where s.token_hash = ? limit 1';

async function time(name: string, once: () => unknown): Promise<void> {
  for (let i = 0; i < n / 5; i++) await once(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await once();
  console.log(`${name.padEnd(34)} ${(Number(process.hrtime.bigint() - t0) / 1e3 / n).toFixed(1).padStart(6)} µs/query`);
}

try {
  await time('knex query builder', () => k('sessions as s').join('accounts as a', 'a.id', 's.account_id').where('s.token_hash', 'x').first('a.id', 's.token_hash'));
  await time('knex.raw, same SQL', () => k.raw(sql, ['x']));
  const conn = (await k.client.acquireConnection()) as { prepare(sql: string): { get(...v: unknown[]): unknown } };
  const statement = conn.prepare(sql);
  await time('better-sqlite3 statement', () => statement.get('x'));
  await k.client.releaseConnection(conn);
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
