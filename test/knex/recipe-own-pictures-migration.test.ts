import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../adapters/knex/database.js';
import { migrationSource, migrations, type Migration } from '../../adapters/knex/migrations/index.js';
import { knexStores } from '../../bootstrap/stores.js';
import { at } from '../contracts/fixtures.js';
import { databaseKinds } from '../support/databases.js';

const before0047: Knex.MigrationSource<Migration> = {
  ...migrationSource,
  getMigrations: async () => migrations.slice(0, migrations.findIndex((m) => m.name === '0047_recipe_own_pictures')),
};

/** Every byte value, so that a copy that read the bytes as text would show it. */
const bytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);

// SQLite only: there the table is rebuilt (its rows copied), which is what may lose something. Postgres drops the
// NOT NULL in place, and its table after the migration is what the contract and HTTP suites run on.
for (const kind of databaseKinds().filter((k) => k.name === 'sqlite')) {
  describe(`migration 0047: a recipe's own picture has no address [${kind.name}]`, () => {
    it('keeps the pictures kept before it byte for byte, takes one without an address, and a picture still goes with its recipe', async () => {
      const database = await kind.create({ empty: true });
      const db = openDatabase(database.target, database.schema ? { schema: database.schema } : {});
      try {
        await db.knex.migrate.latest({ migrationSource: before0047 });
        // Written as rows, as a database of then holds them: the stores of now may write columns it does not have yet.
        const h = randomUUID();
        const fetched = randomUUID();
        const own = randomUUID();
        const when = at('2026-05-01T00:00:00.000Z').toISOString();
        await db.knex('households').insert({ id: h, name: 'Hansen', time_zone_id: 'Europe/Oslo', language: 'nb', country: 'NO', dinner_time: '18:00', chains: '[]', plan: 'Free', created_at: when, updated_at: when });
        for (const [id, title] of [[fetched, 'Taco'], [own, 'Fiskesuppe']] as const) {
          await db.knex('recipes').insert({ id, household_id: h, title, title_key: title.toLowerCase(), servings: 4, steps: '[]', created_at: when, updated_at: when });
        }
        const image = { sourceUrl: 'https://img.example/taco.webp', mediaType: 'image/webp' as const, bytes, etag: '"a"' };
        await db.knex('recipe_images').insert({ recipe_id: fetched, household_id: h, source_url: image.sourceUrl, media_type: image.mediaType, bytes: Buffer.from(bytes), etag: image.etag });
        await db.migrate();
        const s = knexStores(db.knex);

        expect(await s.recipeImages.get(h, fetched)).to.deep.equal(image);
        const ownImage = { ...image, sourceUrl: null, etag: '"b"' };
        expect(await s.recipeImages.put(h, own, ownImage)).to.equal(true);
        expect(await s.recipeImages.get(h, own)).to.deep.equal(ownImage);
        // The copy SQLite was rebuilt from kept its foreign key: the picture goes with its recipe.
        expect(await s.recipes.delete(h, own, at('2026-05-02T00:00:00.000Z'))).to.equal(true);
        expect(await db.knex('recipe_images').where({ recipe_id: own }).first()).to.equal(undefined);
        expect(await db.knex('recipe_images').where({ recipe_id: fetched }).first('recipe_id')).to.deep.equal({ recipe_id: fetched });
        // Its key too: a second row for one recipe is refused.
        const again = await db.knex('recipe_images')
          .insert({ recipe_id: fetched, household_id: h, source_url: null, media_type: 'image/png', bytes: Buffer.from([1]), etag: '"c"' })
          .then(() => 'inserted', () => 'refused');
        expect(again).to.equal('refused');
      } finally {
        await db.close();
        await database.cleanup();
      }
    });
  });
}
