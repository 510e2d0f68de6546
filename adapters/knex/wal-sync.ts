import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Knex } from 'knex';
import { currentStoreCall, runStoreCall } from './store-calls.js';

/**
 * Group commit for SQLite: an acknowledged write is on disk, without an fsync on the event loop.
 *
 * SQLite runs WAL with synchronous=NORMAL: a commit writes its frames to the WAL file (the kernel's page cache)
 * and returns without an fsync, and SQLite itself syncs the WAL before each checkpoint, so the database never
 * corrupts. What NORMAL alone could lose on power loss is the last commits. So a store call that wrote does not
 * answer until an fdatasync of the WAL file has completed after its commit; the fdatasync runs on libuv's thread
 * pool, and one covers every commit made before it started (commits that come while it runs wait for the next).
 * The guarantee is that of synchronous=FULL, where every commit fsyncs on the event loop and nothing else runs
 * meanwhile (docs/performance.md, W6, and its figures from code comments).
 *
 * A write counts for the store call it ran under (`call`; adapters/knex/store-calls.ts), so
 * only that call waits: a read that runs meanwhile answers at once, however long the flush takes. (Counting every
 * write made during a call, as before, put each GET /me beside a sign-in behind its flush: W7, docs/performance.md.)
 */
export interface WalSync {
  /** A statement that may have changed the database (or ended a transaction) ran on the writer connection. */
  wrote(): void;
  /** How many such statements have run. */
  readonly written: number;
  /** Resolves once every write counted until now is on disk (at once when it already is). */
  durable(): Promise<void>;
  /** Runs a store call; should it have written, it answers once its writes are on disk. */
  call<T>(run: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Makes the WAL (and, once, its directory) durable: fdatasync of the file, reopened should it be gone. */
export function walFileSync(walPath: string): { flush(): Promise<void>; close(): Promise<void> } {
  let file: FileHandle | null = null;
  return {
    async flush() {
      if (file === null) {
        try {
          file = await open(walPath, 'r');
        } catch (err) {
          // No WAL file: nothing was written since the last connection closed (the file goes with it).
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw err;
        }
        // A WAL file created since: its name in the directory must be durable too.
        const dir = await open(dirname(walPath), 'r');
        try {
          await dir.sync();
        } finally {
          await dir.close();
        }
      }
      await file.datasync();
    },
    async close() {
      await file?.close().catch(() => undefined);
      file = null;
    },
  };
}

/** Anything written outside a store call (a scheduled job's bookkeeping) is on disk within this time anyway. */
const BACKGROUND_SYNC_MS = 200;

export function walSync(file: { flush(): Promise<void>; close(): Promise<void> }): WalSync {
  let written = 0;
  let synced = 0;
  let running: Promise<void> | null = null;
  let background: NodeJS.Timeout | null = null;
  const syncOnce = async () => {
    // Every write counted now has committed (better-sqlite3 runs each statement to its end before counting it).
    const upTo = written;
    await file.flush();
    synced = Math.max(synced, upTo);
  };
  const durable = async (): Promise<void> => {
    const target = written;
    while (synced < target) {
      running ??= syncOnce().finally(() => (running = null));
      await running;
    }
  };
  return {
    wrote() {
      written++;
      const call = currentStoreCall();
      if (call) call.wrote = true;
      // Made outside any store call (or by one that ends before it), a write is still flushed soon.
      background ??= setTimeout(() => {
        background = null;
        durable().catch(() => undefined); // a failing sync fails the next store call that waits for one
      }, BACKGROUND_SYNC_MS).unref();
    },
    get written() {
      return written;
    },
    durable,
    call(run) {
      return runStoreCall(async (call) => {
        const result = await run();
        if (call.wrote) await durable();
        return result;
      });
    },
    async close() {
      if (background) clearTimeout(background);
      background = null;
      await running?.catch(() => undefined);
      await file.close();
    },
  };
}

const syncs = new WeakMap<Knex, WalSync>();

/** Makes the stores of `knex` (the database's own instance) wait for `sync` after a call that wrote. */
export function registerWalSync(knex: Knex, sync: WalSync): void {
  syncs.set(knex, sync);
}

export const walSyncOf = (knex: Knex): WalSync | undefined => syncs.get(knex);
