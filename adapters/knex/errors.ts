import type { Knex } from 'knex';
import { walSyncOf } from './wal-sync.js';
import { speedOf } from './speed/index.js';
import { runStoreCall } from './store-calls.js';
import { committedAnything } from './commit-watch.js';

export { isBusy, isForeignKeyViolation, isUnavailable, isUniqueViolation, storeError } from './store-error.js';

/**
 * Wraps every method of a store over `knex` so that driver contention surfaces as the port's StoreBusyError and a
 * database out of reach as StoreUnavailableError: no layer above the adapter ever sees a raw SQLITE_BUSY or
 * ECONNREFUSED. On SQLite, a call that wrote answers only once its own commits are on disk (adapters/knex/wal-sync.ts);
 * on Postgres, the read cache learns when a call that wrote a cached table has ended (adapters/knex/speed/).
 *
 * `reads` names methods that only read, and only through `cachedRead` (adapters/knex/speed/), which translates
 * the errors of its reads of the database itself: they are passed through as they are. They need no store call,
 * whose context only tells what a call wrote, and a value answered from memory needs no translation. These are the
 * reads every signed-in request makes, where a store call's context was a measurable share of GET /me's time and
 * each wrapper two promises more (W1; docs/performance.md, figures from code comments).
 */
export function translated<T extends object>(knex: Knex, store: T, reads: readonly (keyof T & string)[] = []): T {
  const sync = walSyncOf(knex);
  const speed = speedOf(knex);
  const out = {} as Record<string, unknown>;
  const readOnly = new Set<string>(reads);
  for (const [name, fn] of Object.entries(store)) {
    if (readOnly.has(name)) {
      out[name] = fn;
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
                    committedAnything(knex, speed.accessMayHaveChanged);
                  }
                  // Postgres: the read cache holds back while a call that wrote a cached table is under way.
                  const settled = speed.settled(call);
                  if (settled) await settled;
                }
              } catch (err) {
                throw speed.storeError(err);
              }
            })
        : fn;
  }
  return out as T;
}
