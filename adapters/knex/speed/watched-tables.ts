/**
 * What the speed layer watches, in its own words. The database's triggers (migrations 0016, 0026 to 0028) announce
 * the writes to these tables; the layer reads the announcements and the statements it sees against these lists.
 * A migration is never edited after it lands, so the lists are written here rather than imported from one:
 * test/knex/watched-tables.test.ts holds them against the migrations, so a new trigger that the layer does not
 * know of fails a test instead of serving a stale value.
 */

/**
 * Read on nearly every request and seldom written, kept in the process: the session with its account, the
 * caller's memberships with their households' names, a household's pantry merges. A write to one may change any
 * value kept, of any household.
 */
export const CACHED_TABLES: readonly string[] = ['accounts', 'sessions', 'households', 'household_members', 'pantry_merges'];

/**
 * Of those, the tables whose plain inserts change no value kept: a session is kept only once found, and a household
 * reaches a caller's memberships only with its member row. Their triggers do not announce an insert.
 */
export const INSERTS_CHANGE_NOTHING: readonly string[] = ['accounts', 'sessions', 'households'];

/**
 * The tables a household's shopping list is derived from: a write to one moves the household's revision, and
 * changes only values kept for that household.
 */
export const LIST_INPUT_TABLES: readonly string[] = [
  'households',
  'household_members',
  'recipes',
  'recipe_ingredients',
  'meal_events',
  'meal_event_participants',
  'plans',
  'plan_days',
  'pantry_observations',
  'pantry_merges',
  'unit_weights',
];

/** The tables that hold a list's own state: the household's revision, the list's stamp, the prices' sync. */
export const LIST_STATE_TABLES: readonly string[] = ['household_revisions', 'shopping_lists', 'food_table_syncs'];

/** Postgres: where a write to a cached table is announced at commit (payload: the schema). */
export const CACHED_TABLES_CHANNEL = 'dinner_cached_tables';

/** Postgres: where a household's change is announced at commit (payload: `<schema> <household id>`, or `<schema> *`). */
export const HOUSEHOLD_CHANGES_CHANNEL = 'dinner_household_changed';
