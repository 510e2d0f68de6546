import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../adapters/knex/database.js';
import { migrationSource, migrations, type Migration } from '../../adapters/knex/migrations/index.js';
import { knexStores } from '../../bootstrap/stores.js';
import { at } from '../contracts/fixtures.js';
import { databaseKinds } from '../support/databases.js';

const before0046: Knex.MigrationSource<Migration> = {
  ...migrationSource,
  getMigrations: async () => migrations.slice(0, migrations.findIndex((m) => m.name === '0046_member_age_groups')),
};

for (const kind of databaseKinds()) {
  describe(`migration 0046: members' age groups [${kind.name}]`, () => {
    it('makes every member written before it an Adult, each counted as a whole portion as before', async () => {
      const database = await kind.create({ empty: true });
      const db = openDatabase(database.target, database.schema ? { schema: database.schema } : {});
      try {
        await db.knex.migrate.latest({ migrationSource: before0046 });
        // Rows as the service wrote them then (its stores now write the new column).
        const h = randomUUID();
        const when = (day: string) => at(`2026-05-0${day}T00:00:00.000Z`).toISOString();
        await db.knex('households').insert({ id: h, name: 'Hansen', time_zone_id: 'Europe/Oslo', language: 'nb', country: 'NO', dinner_time: '18:00', chains: '[]', plan: 'Free', created_at: when('1'), updated_at: when('1') });
        await db.knex('household_members').insert([
          { id: randomUUID(), household_id: h, account_id: null, display_name: 'Kari', role: 'Owner', created_at: when('1') },
          { id: randomUUID(), household_id: h, account_id: null, display_name: 'Lille', role: 'Junior', created_at: when('2') },
        ]);
        await db.migrate();
        const s = knexStores(db.knex);
        expect((await s.households.byId(h))!.members.map((m) => [m.displayName, m.ageGroup])).to.deep.equal([
          ['Kari', 'Adult'],
          ['Lille', 'Adult'],
        ]);
      } finally {
        await db.close();
        await database.cleanup();
      }
    });
  });
}
