import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import knexFactory from 'knex';
import { BackupRefused, readBackup } from '../adapters/knex/backup/format.js';
import { restoreBackup, type RestoreTarget } from '../adapters/knex/backup/restore.js';
import { DERIVED_COLUMNS, DERIVED_TABLES, RESTORED_REVISION_JUMP } from '../adapters/knex/backup/shape.js';
import { takeBackup, type BackupSource } from '../adapters/knex/backup/take.js';
import { migrationSource, migrations } from '../adapters/knex/migrations/index.js';
import { jobsOf, runExclusive } from '../bootstrap/jobs.js';
import { Client, signedInClient } from './support/client.js';
import { databaseKinds, type TestDatabase } from './support/databases.js';
import { startTestServer, type TestServer } from './support/server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const dir = mkdtempSync(join(tmpdir(), 'dinner-backup-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => join(dir, `${name}-${randomUUID().slice(0, 8)}`);

const sourceOf = (d: TestDatabase): BackupSource & RestoreTarget =>
  d.target.kind === 'sqlite' ? { kind: 'sqlite', file: d.target.filename } : { kind: 'postgres', url: d.target.url, schema: d.schema! };

/** Every table's rows, sorted, as a backup holds them, without what the database's triggers keep. */
async function canonical(backup: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  let columns: { name: string }[] = [];
  let table = '';
  for await (const line of readBackup(backup)) {
    if (line.kind === 'table') {
      table = line.table;
      columns = [...line.columns];
      if (!DERIVED_TABLES.includes(table)) out[table] = [];
    } else if (line.kind === 'row' && !DERIVED_TABLES.includes(table)) {
      const skip = DERIVED_COLUMNS[table] ?? [];
      out[table]!.push(JSON.stringify(Object.fromEntries(columns.map((c, i) => [c.name, line.values[i]]).filter(([name]) => !skip.includes(name as string)).sort())));
    }
  }
  for (const rows of Object.values(out)) rows.sort();
  return out;
}

/** A household with a bit of everything: members, a recipe with its picture's bytes, a week, events, the pantry, a list, feedback with a screenshot. */
async function seed(server: TestServer) {
  const { client, email, password } = await signedInClient(server.url, 'Kari');
  const h = (await client.post('/api/v1/households', { name: 'Hansen' })).json;
  const base = `/api/v1/households/${h.id}`;
  await client.post(`${base}/members`, { displayName: 'Lille', role: 'Junior' });
  await client.patch(base, { dislikes: ['sopp'], libraryRecipesOn: true });
  const recipe = (await client.post(`${base}/recipes`, { title: 'Fiskesuppe «æøå»', servings: 4, activeMinutes: 20, totalMinutes: 40, steps: ['Kok'], ingredients: [{ displayName: 'Torsk', quantity: 400, unit: 'g', optional: false, baseRecipeId: null, reference: null }, { displayName: 'Fløte', quantity: 0.3, unit: 'l', optional: true, baseRecipeId: null, reference: null }] })).json;
  const plan = (await client.put(`${base}/plans/week/2026-11-23`)).json;
  await client.put(`${base}/plans/${plan.id}/days/2026-11-24`, { recipeId: recipe.id, portions: 3, note: 'Bursdag' });
  await client.post(`${base}/events`, { date: '2026-11-25', eventType: 'Guests', servingTime: '17:30', availableCookingMinutes: 30, notes: null, guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: 'Vegetar', avoids: ['nøtter'] }], memberAttendance: null });
  for (const displayName of ['Melk', 'Egg', 'Smør']) await client.post(`${base}/inventory/observations`, { displayName, observationType: 'Purchased', quantity: 1.5, unit: 'stk', storageLocation: 'Fridge' });
  await client.post(`${base}/plans/${plan.id}/shopping-list/generate`);
  const form = new FormData();
  form.set('report', JSON.stringify({ message: 'Hei', screen: 'week', build: null, householdId: h.id, failedCalls: [] }));
  form.set('screenshot', new Blob([PNG], { type: 'image/png' }), 'shot.png');
  expect((await fetch(`${server.url}/api/v1/feedback`, { method: 'POST', headers: { Cookie: `app_session=${client.cookie!}` }, body: form })).status).to.equal(200);
  return { client, email, password, householdId: h.id as string };
}

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

  for (const kind of kinds) {
    it(`takes a backup while 4 writers run, holding every write acknowledged before it began [${kind.name}]`, async () => {
      const server = await startTestServer(kind);
      const into = await sqlite.create();
      try {
        const { client, householdId } = await seed(server);
        const acknowledged: string[] = [];
        let stop = false;
        const writer = async (w: number) => {
          for (let i = 0; !stop; i++) {
            const res = await client.post(`/api/v1/households/${householdId}/inventory/observations`, { displayName: `Vare ${w}-${i}`, observationType: 'Purchased', quantity: 1, unit: 'stk', storageLocation: 'Pantry' });
            if (res.status === 200) acknowledged.push(`Vare ${w}-${i}`);
          }
        };
        const writers = [0, 1, 2, 3].map(writer);
        await new Promise((r) => setTimeout(r, 5_000));
        const before = [...acknowledged];
        const backup = file('busy.backup.gz');
        await takeBackup(sourceOf(server.database), backup, new Date());
        await new Promise((r) => setTimeout(r, 5_000));
        stop = true;
        await Promise.all(writers);
        expect(before.length).to.be.greaterThan(20);
        await restoreBackup(backup, sourceOf(into));
        const k = knexFactory({ client: 'better-sqlite3', connection: { filename: (into.target as { filename: string }).filename }, useNullAsDefault: true });
        try {
          expect(((await k.raw('pragma integrity_check')) as { integrity_check: string }[])[0]!.integrity_check).to.equal('ok');
          const names = new Set(((await k('pantry_observations').select('display_name')) as { display_name: string }[]).map((r) => r.display_name));
          expect(before.filter((n) => !names.has(n))).to.deep.equal([]);
        } finally {
          await k.destroy();
        }
      } finally {
        await server.stop();
        await into.cleanup();
      }
    });
  }

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

  it('leaves the previous backup whole when a backup is killed half-way (kill -9)', async function () {
    const server = await startTestServer(sqlite);
    try {
      const { householdId } = await seed(server);
      // Enough rows that a backup takes a few seconds: written straight into the file, beside the running service.
      const k = knexFactory({ client: 'better-sqlite3', connection: { filename: (server.database.target as { filename: string }).filename }, useNullAsDefault: true });
      try {
        await k.transaction(async (trx) => {
          for (let b = 0; b < 120; b++) {
            await trx('pantry_observations').insert(
              Array.from({ length: 500 }, (_, i) => ({
                id: randomUUID(),
                household_id: householdId,
                food_key: `vare ${b}-${i}`,
                display_name: `Vare ${b}-${i}`,
                observation_type: 'Seen',
                quantity: 1,
                unit: 'stk',
                storage_location: 'Pantry',
                confidence: 0.9,
                observed_at: '2026-11-20T10:00:00.000Z',
              })),
            );
          }
        });
      } finally {
        await k.destroy();
      }
      const target = file('kept.backup.gz');
      await takeBackup(sourceOf(server.database), target, new Date());
      const hash = createHash('sha256').update(readFileSync(target)).digest('hex');
      const env = { ...process.env, DATABASE_URL: `sqlite:${(server.database.target as { filename: string }).filename}`, LOG_LEVEL: 'silent' };
      for (const delay of [300, 900, 1500]) {
        const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/backup-cli.ts', 'backup', '--to', target], { env, stdio: 'ignore' });
        await new Promise((r) => setTimeout(r, delay));
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        expect(createHash('sha256').update(readFileSync(target)).digest('hex')).to.equal(hash);
      }
      // And a backup let run replaces it with a whole one.
      const done = await new Promise<number | null>((resolve) => spawn(process.execPath, ['--import', 'tsx', 'bootstrap/backup-cli.ts', 'backup', '--to', target], { env, stdio: 'ignore' }).once('exit', resolve));
      expect(done).to.equal(0);
      expect(existsSync(target)).to.equal(true);
      expect((await canonical(target))['pantry_observations']!.length).to.be.greaterThan(60_000);
    } finally {
      await server.stop();
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
