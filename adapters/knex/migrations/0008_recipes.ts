import type { Knex } from 'knex';
import { codePointColumn, createTableOnce, householdColumn, idColumn, instants, optionalRefColumn, ownerColumn } from '../schema-kit.js';

export const name = '0008_recipes';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'recipes', (t) => {
    // Named `recipes` with key `id`: plan_days.recipe_id points here (ON DELETE SET NULL).
    idColumn(t);
    householdColumn(t);
    t.string('title', 200).notNullable();
    // recipeTitleKey(title): NFKC, lower case. Lists sort and filter on it in code point order, which SQLite's
    // BINARY collation gives; on Postgres the column takes collation "C" so that both (and memory) agree.
    codePointColumn(knex, t, 'title_key').notNullable();
    t.integer('servings').notNullable();
    t.integer('active_minutes').nullable();
    t.integer('total_minutes').nullable();
    t.text('steps').notNullable(); // JSON array of strings, in order
    instants(t, 'created_at', 'updated_at');
    t.index(['household_id', 'title_key', 'id']);
  });
  await createTableOnce(knex, 'recipe_ingredients', (t) => {
    ownerColumn(t, 'recipe_id', 'recipes');
    t.integer('position').notNullable();
    // The recipe's household, so that the base links of a household are read without a join.
    t.uuid('household_id').notNullable();
    t.string('display_name', 200).notNullable();
    t.text('food_key').notNullable();
    t.double('quantity').nullable();
    t.string('unit', 32).nullable();
    t.boolean('optional').notNullable();
    // Deleting a base turns the line into a named reference first (the store does); SET NULL is the backstop.
    optionalRefColumn(t, 'base_recipe_id', 'recipes');
    t.string('reference', 200).nullable();
    t.primary(['recipe_id', 'position']);
    t.index(['household_id', 'base_recipe_id']);
    t.index(['base_recipe_id']);
  });
}
