import type { Knex } from 'knex';
import { addColumnsOnce, createTableOnce, ownerColumn } from '../schema-kit.js';

export const name = '0045_recipe_tags';

/**
 * Search finds recipes by title, ingredient and tag (issue 45).
 *
 * Tags live in a table of their own, one row per tag of a recipe, rather than as a JSON column of recipes: the
 * exact-tag filter and the household's tags with their counts are then an indexed equality and a GROUP BY on both
 * databases, where a JSON column would have to be read and parsed for every recipe of the household. A tag goes
 * with its recipe (cascade), and carries the recipe's household so that the household's tags are read without a
 * join. Tags are kept in one form (NFKC, trimmed, lower case: core/recipes/tags.ts), so equality is the match.
 *
 * `search_text` is what `q` is looked for in: the title, every line's name and every tag, lower-cased by the
 * service (one per line). SQLite's LIKE folds the case of ASCII letters only and Postgres's none, so text lower-cased
 * before it is stored, and a `q` lower-cased the same way, match "Ørret" by "ørret" and "ØRRET" on both. Existing
 * recipes have no tags; their search text is made here from their titles and lines, in the form the service made it
 * when this migration landed (written out below, so that a later change of that form cannot change this migration).
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'recipe_tags', (t) => {
    ownerColumn(t, 'recipe_id', 'recipes');
    t.integer('position').notNullable();
    t.uuid('household_id').notNullable();
    t.string('tag', 32).notNullable();
    t.primary(['recipe_id', 'position']);
    t.unique(['recipe_id', 'tag']);
    t.index(['household_id', 'tag']);
  });
  await addColumnsOnce(knex, 'recipes', 'search_text', (t) => {
    t.text('search_text').notNullable().defaultTo('');
  });
  await fillSearchText(knex);
}

const searchKey = (text: string): string => text.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, ' ');

/** Writes the search text of every recipe that has none yet, a few hundred recipes at a time. */
async function fillSearchText(knex: Knex): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const page = knex('recipes').where('search_text', '');
    // On Postgres id is a uuid: only a uuid compares with it.
    if (after !== null) page.andWhere('id', '>', after);
    const recipes = (await page.orderBy('id').limit(500).select('id', 'title')) as { id: string; title: string }[];
    if (recipes.length === 0) return;
    const lines = (await knex('recipe_ingredients')
      .whereIn(
        'recipe_id',
        recipes.map((r) => r.id),
      )
      .orderBy([{ column: 'recipe_id' }, { column: 'position' }])
      .select('recipe_id', 'display_name')) as { recipe_id: string; display_name: string }[];
    const names = new Map<string, string[]>();
    for (const l of lines) (names.get(l.recipe_id) ?? names.set(l.recipe_id, []).get(l.recipe_id)!).push(l.display_name);
    for (const r of recipes) {
      await knex('recipes')
        .where({ id: r.id })
        .update({ search_text: [r.title, ...(names.get(r.id) ?? [])].map(searchKey).join('\n') });
    }
    after = recipes[recipes.length - 1]!.id;
  }
}
