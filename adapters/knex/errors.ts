import type { Knex } from 'knex';
import { StoreBusyError, StoreUnavailableError } from '../../ports/store-errors.js';
import { walSyncOf } from './wal-sync.js';
import { readCacheOf } from './read-cache.js';
import { runStoreCall } from './store-calls.js';
import { committedAnything } from './commit-watch.js';

const codeOf = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;

/** A unique index refused the row (SQLite or Postgres). */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A foreign key refused the row: the row it names is gone (SQLite or Postgres). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Lock contention that outlived the busy timeout, or a Postgres serialization failure or deadlock. */
export function isBusy(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED' || code === '40001' || code === '40P01';
}

// Socket-level failures of the connection to Postgres (Node's net errors, also on an AggregateError of several addresses).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// Postgres: admin_shutdown, crash_shutdown, cannot_connect_now; class 08 is connection exceptions.
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03']);

/**
 * The database cannot be reached: refused, reset or timed-out connections, knex giving up acquiring one, pg's
 * "Connection terminated" and connect timeout, Postgres shutting down or not accepting connections, or an I/O
 * failure of the SQLite file. Looks through `cause` chains and AggregateError members, as drivers wrap these
 * differently.
 */
export function isUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const code = codeOf(err);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_IOERR')) return true;
  }
  const { name, message } = err as { name?: unknown; message?: unknown };
  if (name === 'KnexTimeoutError') return true;
  // pg's own words: a dropped connection, a client unusable after one, and its connect timeout ("timeout expired").
  if (typeof message === 'string' && /^Connection terminated|^Client has encountered a connection error|^timeout expired$/.test(message)) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isUnavailable(e, depth + 1))) return true;
  return 'cause' in err && isUnavailable((err as { cause: unknown }).cause, depth + 1);
}

/**
 * Wraps every method of a store over `knex` so that driver contention surfaces as the port's StoreBusyError and a
 * database out of reach as StoreUnavailableError: no layer above the adapter ever sees a raw SQLITE_BUSY or
 * ECONNREFUSED. On SQLite, a call that wrote answers only once its own commits are on disk (adapters/knex/wal-sync.ts);
 * on Postgres, the read cache learns when a call that wrote a cached table has ended (adapters/knex/read-cache.ts).
 *
 * `reads` names methods that only ever read (SELECT, or the read cache): they need no store call of their own,
 * whose context only tells what a call wrote, and get only the translation of errors. These are the reads every
 * signed-in request makes, where the store call's context was a twentieth of GET /me's time (W1).
 */
export function translated<T extends object>(knex: Knex, store: T, reads: readonly (keyof T & string)[] = []): T {
  const sync = walSyncOf(knex);
  const cache = readCacheOf(knex);
  const out = {} as Record<string, unknown>;
  const readOnly = new Set<string>(reads);
  for (const [name, fn] of Object.entries(store)) {
    if (readOnly.has(name) && typeof fn === 'function') {
      out[name] = async (...args: unknown[]) => {
        try {
          return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
        } catch (err) {
          throw isBusy(err) ? new StoreBusyError(err) : isUnavailable(err) ? new StoreUnavailableError(err) : err;
        }
      };
      continue;
    }
    out[name] =
      typeof fn === 'function'
        ? // One async function per call (each promise more costs every request the request context's hooks).
          (...args: unknown[]) =>
            runStoreCall(async (call) => {
              try {
                try {
                  return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
                } finally {
                  // SQLite: what this call wrote is on disk before it answers (group commit).
                  if (sync && call.wrote) {
                    await sync.durable();
                    // The live stream hears of it (Postgres tells through its notifications instead).
                    committedAnything(knex);
                  }
                  // Postgres: the read cache holds back while a call that wrote a cached table is under way.
                  const settled = cache?.settled(call);
                  if (settled) await settled;
                }
              } catch (err) {
                throw isBusy(err) ? new StoreBusyError(err) : isUnavailable(err) ? new StoreUnavailableError(err) : err;
              }
            })
        : fn;
  }
  return out as T;
}
