import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalRefColumn } from '../schema-kit.js';

export const name = '0048_dinner_rules';

/**
 * A household's dinner rules (core/plans/dinner-rules.ts): a fixed dish on a weekday, a tag a number of times a
 * week, a dish not again within a number of days. They go with the household; a rule naming a recipe goes with it.
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'dinner_rules', (t) => {
    idColumn(t);
    householdColumn(t);
    // FixedDish, TagPerWeek or Spacing.
    t.string('kind', 16).notNullable();
    // A FixedDish rule's weekday (Monday … Sunday); null for the other kinds, so that the unique key below holds one
    // fixed dish per weekday (both databases let nulls repeat in a unique key).
    t.string('fixed_weekday', 9).nullable();
    // The recipe of a FixedDish rule, or of a Spacing rule for one recipe.
    optionalRefColumn(t, 'recipe_id', 'recipes', 'CASCADE');
    // A TagPerWeek rule's tag (in tag form) and times a week.
    t.string('tag', 32).nullable();
    t.integer('times_per_week').nullable();
    // A Spacing rule's days.
    t.integer('days').nullable();
    instants(t, 'created_at', 'updated_at');
    t.unique(['household_id', 'fixed_weekday']);
    t.index(['household_id', 'created_at']);
  });
}
