import type { Knex } from 'knex';
import * as m0001 from './0001_accounts_and_sessions.js';
import * as m0002 from './0002_households.js';
import * as m0003 from './0003_rate_limits.js';
import * as m0004 from './0004_account_tokens_and_throttle.js';
import * as m0005 from './0005_identities.js';
import * as m0006 from './0006_invites_and_push_outbox.js';
import * as m0007 from './0007_feedback_and_referrals.js';
import * as m0008 from './0008_recipes.js';
import * as m0009 from './0009_meal_events.js';
import * as m0010 from './0010_plans.js';
import * as m0011 from './0011_pantry_observations.js';
import * as m0012 from './0012_pantry_merges_and_unit_weights.js';
import * as m0013 from './0013_food_table_and_receipts.js';
import * as m0014 from './0014_shopping_lists.js';
import * as m0015 from './0015_shopping_trips.js';
import * as m0016 from './0016_household_revisions.js';
import * as m0017 from './0017_calendar_feeds.js';
import * as m0018 from './0018_dinner_calendar_links.js';
import * as m0019 from './0019_push_devices.js';
import * as m0020 from './0020_public_data_files.js';
import * as m0021 from './0021_dinner_prices.js';
import * as m0022 from './0022_dinner_price_subscribers.js';
import * as m0023 from './0023_billing.js';
import * as m0024 from './0024_job_runs.js';
import * as m0025 from './0025_rate_limits_unlogged.js';
import * as m0026 from './0026_cached_tables.js';
import * as m0027 from './0027_cached_tables_inserts.js';
import * as m0028 from './0028_household_changes.js';
import * as m0029 from './0029_pantry_food_revisions.js';
import * as m0030 from './0030_billing_event_kinds.js';
import * as m0031 from './0031_referral_redeemer.js';
import * as m0032 from './0032_pantry_best_before.js';
import * as m0033 from './0033_shopping_settings.js';
import * as m0034 from './0034_household_dislikes.js';
import * as m0035 from './0035_list_asks.js';
import * as m0036 from './0036_waitlist.js';
import * as m0037 from './0037_dinner_price_mailings.js';
import * as m0038 from './0038_recipe_sources.js';
import * as m0039 from './0039_idempotency_keys.js';
import * as m0040 from './0040_planner.js';
import * as m0042 from './0042_aisle_orders.js';
import * as m0043 from './0043_line_packages.js';
import * as m0044 from './0044_line_changes.js';
import * as m0045 from './0045_recipe_tags.js';
import * as m0046 from './0046_member_age_groups.js';
import * as m0047 from './0047_recipe_own_pictures.js';
import * as m0048 from './0048_dinner_rules.js';
import * as m0049 from './0049_leftovers.js';
import * as m0050 from './0050_mail_outbox.js';
import * as m0051 from './0051_access_tokens.js';

export interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
}

/**
 * Forward-only: a new change is a new file appended here. A landed migration's source changes only where the schema
 * it makes on both databases stays exactly the same (its name is all a database records of it).
 */
export const migrations: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013, m0014, m0015, m0016, m0017, m0018, m0019, m0020, m0021, m0022, m0023, m0024, m0025, m0026, m0027, m0028, m0029, m0030, m0031, m0032, m0033, m0034, m0035, m0036, m0037, m0038, m0039, m0040, m0042, m0043, m0044, m0045, m0046, m0047, m0048, m0049, m0050, m0051];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({
    up: m.up,
    down: async () => {
      throw new Error(`migration ${m.name} is forward-only`);
    },
  }),
};
