import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { readBackup } from '../../adapters/knex/backup/format.js';
import type { RestoreTarget } from '../../adapters/knex/backup/restore.js';
import { DERIVED_COLUMNS, DERIVED_TABLES } from '../../adapters/knex/backup/shape.js';
import type { BackupSource } from '../../adapters/knex/backup/take.js';
import { signedInClient } from './client.js';
import type { TestDatabase } from './databases.js';
import type { TestServer } from './server.js';

// What the backup tests (test/backup.test.ts) and the backup faults (test/faults/backup.fault.ts) share.

export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
export const dir = mkdtempSync(join(tmpdir(), 'dinner-backup-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
export const file = (name: string) => join(dir, `${name}-${randomUUID().slice(0, 8)}`);

export const sourceOf = (d: TestDatabase): BackupSource & RestoreTarget =>
  d.target.kind === 'sqlite' ? { kind: 'sqlite', file: d.target.filename } : { kind: 'postgres', url: d.target.url, schema: d.schema! };

/** Every table's rows, sorted, as a backup holds them, without what the database's triggers keep. */
export async function canonical(backup: string): Promise<Record<string, string[]>> {
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
export async function seed(server: TestServer) {
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
