import type { Knex } from 'knex';

export const name = '0008_recipes';

export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.config.client === 'pg';
  if (!(await knex.schema.hasTable('recipes'))) {
    await knex.schema.createTable('recipes', (t) => {
      // Named `recipes` with key `id`: plan_days.recipe_id points here (ON DELETE SET NULL).
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.string('title', 200).notNullable();
      // recipeTitleKey(title): NFKC, lower case. Lists sort and filter on it in code point order, which SQLite's
      // BINARY collation gives; on Postgres the column takes collation "C" so that both (and memory) agree.
      if (postgres) t.specificType('title_key', 'text collate "C"').notNullable();
      else t.text('title_key').notNullable();
      t.integer('servings').notNullable();
      t.integer('active_minutes').nullable();
      t.integer('total_minutes').nullable();
      t.text('steps').notNullable(); // JSON array of strings, in order
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['household_id', 'title_key', 'id']);
    });
  }
  if (!(await knex.schema.hasTable('recipe_ingredients'))) {
    await knex.schema.createTable('recipe_ingredients', (t) => {
      t.uuid('recipe_id').notNullable().references('id').inTable('recipes').onDelete('CASCADE');
      t.integer('position').notNullable();
      // The recipe's household, so that the base links of a household are read without a join.
      t.uuid('household_id').notNullable();
      t.string('display_name', 200).notNullable();
      t.text('food_key').notNullable();
      t.double('quantity').nullable();
      t.string('unit', 32).nullable();
      t.boolean('optional').notNullable();
      // Deleting a base turns the line into a named reference first (the store does); SET NULL is the backstop.
      t.uuid('base_recipe_id').nullable().references('id').inTable('recipes').onDelete('SET NULL');
      t.string('reference', 200).nullable();
      t.primary(['recipe_id', 'position']);
      t.index(['household_id', 'base_recipe_id']);
      t.index(['base_recipe_id']);
    });
  }
}
