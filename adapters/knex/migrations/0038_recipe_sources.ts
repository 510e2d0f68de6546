import type { Knex } from 'knex';
import { addColumnsOnce, createTableOnce, ownerKeyColumn } from '../schema-kit.js';

export const name = '0038_recipe_sources';

/**
 * Where a recipe came from (issue 28): the page it was imported from and the address of its picture, both as the
 * household saved them; and the picture itself, fetched through the outbound guard and kept only when its bytes
 * are a JPEG, PNG or WebP of at most 5 MB. The bytes live in a table of their own, so that reading recipes never
 * reads pictures; deleting a recipe deletes its picture.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'recipes', 'source_url', (t) => {
    t.text('source_url').nullable();
    t.text('image_url').nullable();
  });
  await createTableOnce(knex, 'recipe_images', (t) => {
    ownerKeyColumn(t, 'recipe_id', 'recipes');
    t.uuid('household_id').notNullable();
    t.text('source_url').notNullable();
    t.string('media_type', 16).notNullable();
    t.binary('bytes').notNullable();
    t.string('etag', 64).notNullable();
    t.index(['household_id', 'recipe_id']);
  });
}
