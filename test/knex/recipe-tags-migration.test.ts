import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../adapters/knex/database.js';
import { migrationSource, migrations, type Migration } from '../../adapters/knex/migrations/index.js';
import { knexStores } from '../../bootstrap/stores.js';
import { recipeSearchKey } from '../../core/recipes/tags.js';
import { at } from '../contracts/fixtures.js';
import { databaseKinds } from '../support/databases.js';

const before0045: Knex.MigrationSource<Migration> = {
  ...migrationSource,
  getMigrations: async () => migrations.slice(0, migrations.findIndex((m) => m.name === '0045_recipe_tags')),
};

for (const kind of databaseKinds()) {
  describe(`migration 0045: recipe tags and the search text [${kind.name}]`, () => {
    it('makes the search text of recipes written before it from their titles and lines, so search finds them by either', async () => {
      const database = await kind.create({ empty: true });
      const db = openDatabase(database.target, database.schema ? { schema: database.schema } : {});
      try {
        await db.knex.migrate.latest({ migrationSource: before0045 });
        const s = knexStores(db.knex);
        // A household as the service wrote it then (its stores now write columns of later migrations).
        const h = randomUUID();
        const when = at('2026-05-01T00:00:00.000Z').toISOString();
        await db.knex('households').insert({ id: h, name: 'Hansen', time_zone_id: 'Europe/Oslo', language: 'nb', country: 'NO', dinner_time: '18:00', chains: '[]', plan: 'Free', created_at: when, updated_at: when });
        // More recipes than one round of the migration takes (500), the lines of some of them in another order.
        const written = Array.from({ length: 503 }, (_, i) => ({ id: randomUUID(), title: i === 7 ? '  ØRRET  i   ovn ' : `Rett ${i}` }));
        for (let i = 0; i < written.length; i += 100) {
          await db.knex('recipes').insert(
            written.slice(i, i + 100).map((r) => ({
              id: r.id,
              household_id: h,
              title: r.title,
              title_key: r.title.toLowerCase(),
              servings: 4,
              steps: '[]',
              created_at: at('2026-05-01T00:00:00.000Z').toISOString(),
              updated_at: at('2026-05-01T00:00:00.000Z').toISOString(),
            })),
          );
        }
        const trout = written[7]!;
        const line = (position: number, display_name: string) => ({ recipe_id: trout.id, position, household_id: h, display_name, food_key: display_name.toLowerCase(), optional: false });
        await db.knex('recipe_ingredients').insert([line(1, 'Sitron'), line(0, 'Røkt Laks')]);
        await db.migrate();

        const row = (await db.knex('recipes').where({ id: trout.id }).first('search_text')) as { search_text: string };
        expect(row.search_text).to.equal('ørret i ovn\nrøkt laks\nsitron');
        const empty = (await db.knex('recipes').where({ search_text: '' }).count<{ n: number | string }[]>({ n: '*' })) as { n: number | string }[];
        expect(Number(empty[0]!.n)).to.equal(0);
        const found = async (q: string) => (await s.recipes.page(h, { titleKeyContains: null, textContains: recipeSearchKey(q), tag: null, after: null, limit: 10 })).items.map((r) => r.id);
        expect(await found('RØKT')).to.deep.equal([trout.id]);
        expect(await found('ørret')).to.deep.equal([trout.id]);
        expect(await found('Rett 502')).to.deep.equal([written[502]!.id]);
        expect((await s.recipes.byId(h, trout.id))!.tags).to.deep.equal([]);
      } finally {
        await db.close();
        await database.cleanup();
      }
    });
  });
}
