/**
 * `npm run backup -- --to FILE` and `npm run restore -- FILE [--force]`: the configured database (DATABASE_URL),
 * beside running servers for a backup, into an empty database (or with --force, one whose contents go) for a
 * restore. What they do: adapters/knex/backup/. Exit statuses: 0 done, 1 refused or failed (one line), 64 usage,
 * 78 bad settings.
 */
import { BackupRefused } from '../adapters/knex/backup/format.js';
import { restoreBackup } from '../adapters/knex/backup/restore.js';
import { takeBackup } from '../adapters/knex/backup/take.js';
import type { DatabaseTarget } from '../config/config.js';
import { configOrExit } from './entry.js';

const USAGE = 'usage: npm run backup -- --to FILE    |    npm run restore -- FILE [--force]';

const where = (d: DatabaseTarget) => (d.kind === 'sqlite' ? { kind: 'sqlite' as const, file: d.filename } : { kind: 'postgres' as const, url: d.url });

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const config = configOrExit();
  if (config.database.kind === 'sqlite' && config.database.filename === ':memory:') {
    process.stderr.write('a database in memory has nothing to back up or restore\n');
    return 64;
  }
  if (command === 'backup') {
    const to = args[0] === '--to' ? args[1] : undefined;
    if (!to || args.length !== 2) {
      process.stderr.write(`${USAGE}\n`);
      return 64;
    }
    const r = await takeBackup(where(config.database), to, new Date());
    process.stdout.write(`backup of ${r.tables} tables, ${r.rows} rows written to ${to} (mode 0600)\n`);
    return 0;
  }
  if (command === 'restore') {
    const force = args.includes('--force');
    const files = args.filter((a) => a !== '--force');
    if (files.length !== 1 || files[0]!.startsWith('--')) {
      process.stderr.write(`${USAGE}\n`);
      return 64;
    }
    const r = await restoreBackup(files[0]!, where(config.database), { force });
    process.stdout.write(
      `restored ${r.rows} rows of ${r.tables} tables from a ${r.source} backup taken ${r.createdAt}` +
        (r.migratedForward > 0 ? `; ran ${r.migratedForward} later migration${r.migratedForward === 1 ? '' : 's'}` : '') +
        '\n',
    );
    return 0;
  }
  process.stderr.write(`${USAGE}\n`);
  return 64;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof BackupRefused ? 'refused' : 'failed'}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
