import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { walSync, walSyncOf } from '../../adapters/knex/wal-sync.js';
import { knexStores } from '../../bootstrap/stores.js';
import { databaseKinds, withDatabase } from '../support/databases.js';
import { createdAccount, newAccount } from '../contracts/fixtures.js';

/** A WAL "file" whose flushes wait until the test lets each one finish. */
function heldFile() {
  const pending: (() => void)[] = [];
  let flushes = 0;
  return {
    file: {
      flush: () => {
        flushes++;
        return new Promise<void>((resolve) => pending.push(resolve));
      },
      close: async () => {},
    },
    flushes: () => flushes,
    waiting: () => pending.length,
    /** Lets the oldest flush under way finish. */
    finishOne() {
      pending.shift()!();
    },
  };
}

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('group commit (walSync)', () => {
  it('answers a write once a flush that started after it has finished; one flush covers every write before it', async () => {
    const held = heldFile();
    const sync = walSync(held.file);
    expect(await settled(sync.durable()), 'nothing written: nothing to wait for').to.equal(true);
    expect(held.flushes()).to.equal(0);

    sync.wrote();
    sync.wrote();
    const first = sync.durable();
    const alsoFirst = sync.durable();
    expect(held.flushes(), 'two waiters, one flush').to.equal(1);
    sync.wrote(); // written while the flush runs: that flush does not cover it
    const second = sync.durable();
    expect(await settled(first)).to.equal(false);

    held.finishOne();
    expect(await settled(first)).to.equal(true);
    expect(await settled(alsoFirst)).to.equal(true);
    expect(await settled(second), 'the third write waits for a flush of its own').to.equal(false);
    expect(held.flushes()).to.equal(2);
    held.finishOne();
    expect(await settled(second)).to.equal(true);
    expect(await settled(sync.durable())).to.equal(true);
    expect(held.flushes()).to.equal(2);
    await sync.close();
  });

  it('makes a call wait for its own writes only: a call that wrote nothing answers while another call\'s flush runs', async () => {
    const held = heldFile();
    const sync = walSync(held.file);
    let letWriterOn!: () => void;
    const writerMidway = new Promise<void>((resolve) => (letWriterOn = resolve));
    let readerWaits!: () => void;
    const readerMidway = new Promise<void>((resolve) => (readerWaits = resolve));
    // The reader is under way before the writer writes and answers after the write: the two overlap.
    const reading = sync.call(async () => {
      readerWaits();
      await writerMidway;
      return 'read';
    });
    const writing = sync.call(async () => {
      await readerMidway;
      sync.wrote();
      letWriterOn();
      return 'wrote';
    });
    expect(await settled(reading), 'the reader does not wait for the writer\'s flush').to.equal(true);
    expect(await reading).to.equal('read');
    expect(held.waiting()).to.equal(1);
    expect(await settled(writing)).to.equal(false);
    held.finishOne();
    expect(await writing).to.equal('wrote');

    // A write of no call (a job's bookkeeping) makes no call wait, and is flushed in the background.
    sync.wrote();
    expect(await settled(sync.call(async () => 'read'))).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(held.waiting(), 'the background flush started').to.equal(1);
    held.finishOne();
    await sync.close();
  });

  it('fails the waiting write when the flush fails, and tries again for the next', async () => {
    let fail = true;
    const sync = walSync({ flush: async () => (fail ? Promise.reject(Object.assign(new Error('I/O error'), { code: 'EIO' })) : undefined), close: async () => {} });
    sync.wrote();
    expect(await sync.durable().catch((e: Error) => e.message)).to.equal('I/O error');
    fail = false;
    await sync.durable();
    await sync.close();
  });
});

const sqlite = databaseKinds().find((k) => k.name === 'sqlite')!;

describe('SQLite stores and group commit', () => {
  it('runs WAL with synchronous=NORMAL, and a store call that wrote answers only after the WAL is flushed', async () => {
    const held = heldFile();
    await withDatabase(sqlite, async (db) => {
      try {
        const pragma = async (name: string) => Object.values((await db.knex.raw(`pragma ${name}`))[0] as Record<string, unknown>)[0];
        expect(await pragma('journal_mode')).to.equal('wal');
        expect(await pragma('synchronous')).to.equal(1); // NORMAL: durability comes from the flush
        expect(walSyncOf(db.knex)).to.not.equal(undefined);
        const stores = knexStores(db.knex);

        const account = newAccount();
        const creating = stores.accounts.create(account);
        expect(await settled(creating), 'the insert committed, but is not on disk yet').to.equal(false);
        // Meanwhile reads answer (and see the committed row), without waiting for the flush.
        expect((await stores.accounts.byId(account.id))?.id).to.equal(account.id);
        expect(held.waiting()).to.equal(1);
        held.finishOne();
        expect(await settled(creating)).to.equal(true);

        // A transaction (household and first member) waits for a flush after its COMMIT.
        const household = stores.households.create(
          { id: randomUUID(), name: 'H', timeZoneId: 'UTC', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], plan: 'Free', createdAt: new Date() },
          { id: randomUUID(), displayName: 'O', role: 'Owner', accountId: account.id, createdAt: new Date() },
        );
        expect(await settled(household)).to.equal(false);
        held.finishOne();
        const householdId = (await household).id;

        // The COMMIT counts as a write of its own: a flush that began inside the transaction does not cover it.
        const sync = walSyncOf(db.knex)!;
        let midway!: Promise<void>;
        await db.knex.transaction(async (trx) => {
          await trx('households').where({ id: householdId }).update({ name: 'Renamed' });
          midway = sync.durable();
        });
        held.finishOne();
        await midway;
        const afterCommit = sync.durable();
        expect(await settled(afterCommit), 'the COMMIT came after that flush began').to.equal(false);
        held.finishOne();
        expect(await settled(afterCommit)).to.equal(true);

        // A read-only call never waits.
        const flushes = held.flushes();
        expect(await settled(stores.households.membershipsOf(account.id))).to.equal(true);
        expect(held.flushes()).to.equal(flushes);

        // Nor for a write that commits while it is under way: here the read waits for knex's one connection,
        // held by a transaction that writes and commits meanwhile.
        let reading!: Promise<unknown>;
        await db.knex.transaction(async (trx) => {
          reading = stores.accounts.byId(account.id);
          await trx('households').where({ id: householdId }).update({ name: 'Renamed again' });
        });
        expect(held.waiting(), 'the commit is being flushed (in the background: no call made it)').to.be.at.most(1);
        expect(await settled(reading), 'the read answered without waiting for that flush').to.equal(true);
        expect(((await reading) as { id: string } | null)?.id).to.equal(account.id);
      } finally {
        // Closing waits for a flush under way.
        while (held.waiting() > 0) held.finishOne();
      }
    }, { walFile: () => held.file });
  });

  it('flushes the real WAL file with fdatasync by default', async () => {
    await withDatabase(sqlite, async (db, database) => {
      const stores = knexStores(db.knex);
      const account = await createdAccount(stores);
      if (database.target.kind !== 'sqlite') throw new Error('sqlite expected');
      expect(existsSync(`${database.target.filename}-wal`)).to.equal(true);
      const sync = walSyncOf(db.knex)!;
      expect(sync.written).to.be.greaterThan(0);
      expect(await settled(sync.durable()), 'the write was flushed before its call answered').to.equal(true);
    });
  });
});
