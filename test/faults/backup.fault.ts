import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import knexFactory from 'knex';
import { restoreBackup } from '../../adapters/knex/backup/restore.js';
import { takeBackup } from '../../adapters/knex/backup/take.js';
import { canonical, file, seed, sourceOf } from '../support/backup.js';
import { databaseKinds } from '../support/databases.js';
import { startTestServer } from '../support/server.js';

const kinds = databaseKinds();
const sqlite = kinds.find((k) => k.name === 'sqlite')!;

// The backup under load and killed half-way: about 50 s, so run with the other faults (npm run test:faults, in CI)
// rather than in npm test.
describe('backup under write load, and killed half-way', function () {
  this.timeout(120_000);

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
});
