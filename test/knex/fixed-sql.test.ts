import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { WAL_INDEX_HEADER, type SqliteFixedSql } from '../../adapters/knex/speed/fixed-sql.js';
import { fixedSqlOf, speedOf } from '../../adapters/knex/speed/index.js';
import { currentMetrics, runWithMetrics, type RequestMetrics } from '../../adapters/observability/request-context.js';
import { knexStores } from '../../bootstrap/stores.js';
import { databaseKinds, withDatabase, withTwoConnections } from '../support/databases.js';
import { ownedHousehold } from '../contracts/fixtures.js';

const NAME_SQL = 'select name from households where id = ?';
const rawRows = <T>(knex: Knex, sql: string, bindings: readonly Knex.Value[]) => speedOf(knex).fixedRows<T>(sql, bindings);

for (const kind of databaseKinds()) {
  describe(`fixed SQL reads [${kind.name}]`, () => {
    it('run on the driver for the database, and read what is committed, never a transaction still open', async () => {
      await withDatabase(kind, async (db) => {
        expect(fixedSqlOf(db.knex), 'the database registers its fixed reads').to.not.equal(null);
        const { id } = await ownedHousehold(knexStores(db.knex));
        expect(await rawRows<{ name: string }>(db.knex, NAME_SQL, [id])).to.deep.equal([{ name: 'Hansen' }]);

        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let readInside!: (rows: { name: string }[]) => void;
        const inside = new Promise<{ name: string }[]>((resolve) => (readInside = resolve));
        const trx = db.knex.transaction(async (t) => {
          await t('households').where({ id }).update({ name: 'Renamed' });
          // On the transaction, fixedRows reads through it and sees its own change.
          readInside(await rawRows<{ name: string }>(t, NAME_SQL, [id]));
          await held;
        });
        try {
          expect(await inside).to.deep.equal([{ name: 'Renamed' }]);
          // The transaction is open: a fixed read sees the committed name, and does not wait for the transaction.
          expect(await rawRows<{ name: string }>(db.knex, NAME_SQL, [id])).to.deep.equal([{ name: 'Hansen' }]);
        } finally {
          release();
          await trx;
        }
        expect(await rawRows<{ name: string }>(db.knex, NAME_SQL, [id])).to.deep.equal([{ name: 'Renamed' }]);
      });
    });

    if (kind.name === 'sqlite') {
      it('read the WAL-index header without a lock: the same while nothing is committed, another after any commit of any connection', async () => {
        await withTwoConnections(kind, async (a, b) => {
          const { id } = await ownedHousehold(knexStores(a.knex));
          const reader = fixedSqlOf(a.knex) as SqliteFixedSql;
          expect(await rawRows<{ name: string }>(a.knex, NAME_SQL, [id])).to.deep.equal([{ name: 'Hansen' }]);
          const header = () => {
            const into = Buffer.alloc(WAL_INDEX_HEADER);
            expect(reader.walIndexHeader(into), 'readable').to.equal(true);
            return into.toString('hex');
          };
          const first = header();
          await rawRows(a.knex, NAME_SQL, [id]);
          expect(header(), 'reads commit nothing').to.equal(first);
          // Another connection (another process, to SQLite) commits.
          await b.knex('households').where({ id }).update({ name: 'Renamed' });
          const second = header();
          expect(second).to.not.equal(first);
          // An open transaction changes nothing until it commits.
          let release!: () => void;
          const held = new Promise<void>((resolve) => (release = resolve));
          let wrote!: () => void;
          const written = new Promise<void>((resolve) => (wrote = resolve));
          const trx = a.knex.transaction(async (t) => {
            await t('households').where({ id }).update({ name: 'Again' });
            wrote();
            await held;
          });
          await written;
          expect(header(), 'not yet committed').to.equal(second);
          release();
          await trx;
          expect(header()).to.not.equal(second);
        });
      });
    }

    it('answer alike past the number of texts kept prepared (IN lists of every length)', async () => {
      await withDatabase(kind, async (db) => {
        const { id } = await ownedHousehold(knexStores(db.knex));
        for (let k = 1; k <= 230; k++) {
          const ids = [id, ...Array.from({ length: k - 1 }, () => randomUUID())];
          const sql = `select name from households where id in (${ids.map(() => '?').join(', ')})`;
          expect(await rawRows<{ name: string }>(db.knex, sql, ids), `${k} values`).to.deep.equal([{ name: 'Hansen' }]);
        }
      });
    });

    it('count as queries of the request they ran for (Server-Timing), and take dates, numbers and no rows alike', async () => {
      await withDatabase(kind, async (db) => {
        const metrics: RequestMetrics = { traceId: 't', spanId: 's', startedAt: process.hrtime.bigint(), dbMs: 0, dbQueries: 0, steps: [] };
        const rows = await runWithMetrics(metrics, async () => {
          expect(currentMetrics()).to.equal(metrics);
          await rawRows(db.knex, NAME_SQL, [randomUUID()]);
          return rawRows<{ n: number | string }>(db.knex, 'select count(*) as n from households where created_at < ? and 1 = ?', [new Date('2100-01-01').toISOString(), 1]);
        });
        expect(Number(rows[0]!.n)).to.equal(0);
        expect(metrics.dbQueries).to.equal(2);
        expect(metrics.dbMs).to.be.greaterThan(0);
      });
    });
  });
}
