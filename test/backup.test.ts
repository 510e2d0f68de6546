import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import knexFactory from 'knex';
import { BackupRefused } from '../adapters/knex/backup/format.js';
import { restoreBackup } from '../adapters/knex/backup/restore.js';
import { RESTORED_REVISION_JUMP } from '../adapters/knex/backup/shape.js';
import { takeBackup } from '../adapters/knex/backup/take.js';
import { migrationSource, migrations } from '../adapters/knex/migrations/index.js';
import { jobsOf, runExclusive } from '../bootstrap/jobs.js';
import { Client } from './support/client.js';
import { databaseKinds } from './support/databases.js';
import { startTestServer } from './support/server.js';
import { canonical, dir, file, PNG, seed, sourceOf } from './support/backup.js';

// The backup under write load and killed half-way run with the faults (test/faults/backup.fault.ts).

const kinds = databaseKinds();
const sqlite = kinds.find((k) => k.name === 'sqlite')!;
const postgres = kinds.find((k) => k.name === 'postgres') ?? null;

describe('backup and restore', function () {
  this.timeout(120_000);

  it('writes a consistent file with mode 0600, readable line by line, and a SQLite → Postgres → SQLite round trip keeps every table', async function () {
    const server = await startTestServer(sqlite);
    try {
      const seeded = await seed(server);
      const first = file('first.backup.gz');
      const report = await takeBackup(sourceOf(server.database), first, new Date());
      expect(statSync(first).mode & 0o777).to.equal(0o600);
      expect(report.tables).to.be.greaterThan(40);
      expect(report.rows).to.be.greaterThan(20);
      const original = await canonical(first);
      expect(original['feedback_reports']!.join()).to.contain(PNG.toString('base64'));

      // Through Postgres when it is here, else through a second SQLite file.
      const middle = postgres ? await postgres.create() : await sqlite.create();
      const back = await sqlite.create();
      try {
        const into = await restoreBackup(first, sourceOf(middle));
        expect(into).to.include({ tables: report.tables, migratedForward: 0, source: 'sqlite' });
        // Postgres has no cached_tables_revision (SQLite's change counter for the read cache; Postgres notifies): its one row stays behind.
        expect(into.rows).to.equal(report.rows - (postgres ? 1 : 0));
        const second = file('second.backup.gz');
        await takeBackup(sourceOf(middle), second, new Date());
        expect(await canonical(second)).to.deep.equal(original);
        await restoreBackup(second, sourceOf(back));
        const third = file('third.backup.gz');
        await takeBackup(sourceOf(back), third, new Date());
        expect(await canonical(third)).to.deep.equal(original);

        // The restored database serves: the same password signs in, the household is there, revisions moved far on.
        const restored = await startTestServer({ ...sqlite, create: async () => back });
        try {
          const c = new Client(restored.url);
          expect((await c.post('/api/v1/auth/login', { email: seeded.email, password: seeded.password })).status).to.equal(200);
          const h = await c.get(`/api/v1/households/${seeded.householdId}`);
          expect(h.json).to.include({ name: 'Hansen', libraryRecipesOn: true });
          expect((await c.get(`/api/v1/households/${seeded.householdId}/recipes`)).json.items[0].title).to.equal('Fiskesuppe «æøå»');
          const revision = (await restored.runtime.db.knex('household_revisions').where({ household_id: seeded.householdId }).first()) as { revision: number | string };
          expect(Number(revision.revision)).to.be.greaterThan(RESTORED_REVISION_JUMP);
        } finally {
          await restored.stop();
        }
      } finally {
        await middle.cleanup();
      }
    } finally {
      await server.stop();
    }
  });

  it('refuses a database that holds data without --force, a newer backup, a damaged row and a file cut short, writing nothing', async () => {
    const server = await startTestServer(sqlite);
    const target = await sqlite.create();
    try {
      await seed(server);
      const good = file('good.backup.gz');
      await takeBackup(sourceOf(server.database), good, new Date());
      await restoreBackup(good, sourceOf(target));
      const snapshot = file('target.backup.gz');
      await takeBackup(sourceOf(target), snapshot, new Date());
      const refused = async (backup: string, reason: RegExp, force = false) => {
        let error: unknown = null;
        await restoreBackup(backup, sourceOf(target), { force }).catch((e: unknown) => (error = e));
        expect(error, String(error)).to.be.instanceOf(BackupRefused);
        expect((error as Error).message).to.match(reason);
        const now = file('after.backup.gz');
        await takeBackup(sourceOf(target), now, new Date());
        expect(await canonical(now)).to.deep.equal(await canonical(snapshot));
      };
      await refused(good, /holds accounts or households.*--force/);
      const lines = gunzipSync(readFileSync(good)).toString('utf8').split('\n');
      const rewrite = (name: string, edit: (lines: string[]) => string[]) => {
        const f = file(name);
        writeFileSync(f, gzipSync(edit([...lines]).join('\n')));
        return f;
      };
      const newer = rewrite('newer', (l) => {
        const h = JSON.parse(l[0]!);
        h.migrations.push('9999_from_the_future');
        return [JSON.stringify(h), ...l.slice(1)];
      });
      await refused(newer, /newer than this code: it was taken after migration 9999_from_the_future/, true);
      const damaged = rewrite('damaged', (l) => {
        const at = l.findIndex((x) => x.startsWith('{"table":"accounts"'));
        const row = JSON.parse(l[at + 1]!);
        row[0] = null;
        l[at + 1] = JSON.stringify(row);
        return l;
      });
      await refused(damaged, /^line \d+: accounts\.\w+ is null, and the column is not$/, true);
      const short = rewrite('short', (l) => l.slice(0, Math.floor(l.length / 2)));
      await refused(short, /cut short/, true);
      const other = file('other');
      writeFileSync(other, gzipSync('{"hello":"world"}\n'));
      await refused(other, /not a backup of this service/, true);
      // With --force, a good backup replaces what is there.
      expect((await restoreBackup(good, sourceOf(target), { force: true })).rows).to.be.greaterThan(20);
    } finally {
      await server.stop();
      await target.cleanup();
    }
  });

  it('runs the later migrations when the backup is older than the code', async () => {
    const old = await sqlite.create({ empty: true });
    const into = await sqlite.create();
    try {
      const k = knexFactory({ client: 'better-sqlite3', connection: { filename: (old.target as { filename: string }).filename }, useNullAsDefault: true });
      try {
        for (let i = 0; i < migrations.length - 1; i++) await k.migrate.up({ migrationSource });
        await k('accounts').insert({ id: randomUUID(), email: 'old@example.com', email_normalized: 'old@example.com', email_confirmed: 1, display_name: 'Old', password_hash: null, security_stamp: 's', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });
      } finally {
        await k.destroy();
      }
      const backup = file('old.backup.gz');
      await takeBackup(sourceOf(old), backup, new Date());
      const r = await restoreBackup(backup, sourceOf(into));
      // The account, and the one row a migration itself writes (cached_tables_revision).
      expect(r).to.include({ migratedForward: 1, rows: 2 });
    } finally {
      await old.cleanup();
      await into.cleanup();
    }
  });

  it('takes scheduled backups into BACKUP_DIR and keeps the newest BACKUP_KEEP', async () => {
    const backups = mkdtempSync(join(dir, 'scheduled-'));
    const server = await startTestServer(sqlite, { BACKUP_DIR: backups, BACKUP_KEEP: '2', BACKUP_HOUR: '4' });
    try {
      await seed(server);
      const job = jobsOf(server.runtime).find((j) => j.name === 'backup')!;
      expect(job.cron).to.equal('41 4 * * *');
      for (let i = 0; i < 3; i++) {
        expect(await runExclusive(server.runtime.db, server.runtime.logger, job)).to.equal(true);
        await new Promise((r) => setTimeout(r, 5));
      }
      const files = readdirSync(backups).sort();
      expect(files).to.have.length(2);
      for (const f of files) {
        expect(f).to.match(/^dinner-\d{4}-\d{2}-\d{2}T[\d-]+Z\.backup\.gz$/);
        expect(statSync(join(backups, f)).mode & 0o777).to.equal(0o600);
      }
      expect(Object.keys(await canonical(join(backups, files[1]!)))).to.include('households');
    } finally {
      await server.stop();
    }
    const none = await startTestServer(sqlite);
    try {
      expect(jobsOf(none.runtime).map((j) => j.name)).to.not.include('backup');
    } finally {
      await none.stop();
    }
  });
});
