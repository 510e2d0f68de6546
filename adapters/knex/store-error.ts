import { StoreBusyError, StoreUnavailableError } from '../../ports/store-errors.js';

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
  // pg's own words: a dropped connection, a client unusable after one, its connect timeout ("timeout expired"), and
  // a statement unanswered within the query timeout (knex puts the statement's text before it).
  if (typeof message === 'string' && /^Connection terminated|^Client has encountered a connection error|^timeout expired$|(?:^| - )Query read timeout$/.test(message)) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isUnavailable(e, depth + 1))) return true;
  return 'cause' in err && isUnavailable((err as { cause: unknown }).cause, depth + 1);
}

/**
 * A driver's error as the port's: contention as StoreBusyError, a database out of reach as StoreUnavailableError,
 * anything else as it is (one already translated stays as it is).
 */
export function storeError(err: unknown): unknown {
  if (err instanceof StoreBusyError || err instanceof StoreUnavailableError) return err;
  return isBusy(err) ? new StoreBusyError(err) : isUnavailable(err) ? new StoreUnavailableError(err) : err;
}
