import type { Knex } from 'knex';

export const name = '0047_recipe_own_pictures';

/**
 * A household's own photo of a recipe (issue 45): a picture it uploaded has no address it was fetched from, so
 * recipe_images.source_url may be null (null: the household's own; an address: fetched from the recipe's imageUrl).
 * Postgres drops the column's NOT NULL in place; SQLite cannot, and Knex rebuilds the table there (a copy of its
 * rows under the same name, key, foreign key and index). Nothing references recipe_images, so the copy breaks no
 * link. Run again on a column already nullable, it changes nothing.
 */
export async function up(knex: Knex): Promise<void> {
  if (await sourceUrlNullable(knex)) return;
  await knex.schema.alterTable('recipe_images', (t) => {
    t.text('source_url').nullable().alter();
  });
}

async function sourceUrlNullable(knex: Knex): Promise<boolean> {
  const info = (await knex('recipe_images').columnInfo('source_url')) as { nullable?: boolean };
  return info.nullable === true;
}
