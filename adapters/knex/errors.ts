import { StoreBusyError } from '../../ports/store-errors.js';

const codeOf = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;

/** A unique index refused the row (SQLite or Postgres). */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Lock contention that outlived the busy timeout, or a Postgres serialization failure or deadlock. */
export function isBusy(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED' || code === '40001' || code === '40P01';
}

/**
 * Wraps every method of a store so that driver contention surfaces as the port's StoreBusyError:
 * no layer above the adapter ever sees a raw SQLITE_BUSY.
 */
export function translated<T extends object>(store: T): T {
  const out = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(store)) {
    out[name] =
      typeof fn === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
            } catch (err) {
              throw isBusy(err) ? new StoreBusyError(err) : err;
            }
          }
        : fn;
  }
  return out as T;
}
