import type { Knex } from 'knex';
import type { DinnerPriceMeasurement, DinnerPricePublication, HouseholdType } from '../../core/dinnerprices/types.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface MeasurementRow {
  household_type: string;
  week: string;
  week_start: string;
  seed: number | string;
  recipe_set_version: string;
  prices_synced_at: Date | string | null;
  recipes_drawn: number | string;
  weeks_drawn: number | string;
  weeks_priced: number | string;
  median_week_price: number | string | null;
  coverage: number | string;
  chains: number | string;
  measured_at: Date | string;
}

interface PublicationRow {
  name: string;
  generated_at: Date | string;
  json: string;
  csv: string;
}

const PUBLICATION = 'dinner-prices';

const toMeasurement = (r: MeasurementRow): DinnerPriceMeasurement => ({
  householdType: r.household_type as HouseholdType,
  week: r.week,
  weekStart: r.week_start,
  seed: Number(r.seed),
  recipeSetVersion: r.recipe_set_version,
  pricesSyncedAt: r.prices_synced_at === null ? null : toDate(r.prices_synced_at),
  recipesDrawn: Number(r.recipes_drawn),
  weeksDrawn: Number(r.weeks_drawn),
  weeksPriced: Number(r.weeks_priced),
  medianWeekPrice: r.median_week_price === null ? null : Number(r.median_week_price),
  coverage: Number(r.coverage),
  chains: Number(r.chains),
  measuredAt: toDate(r.measured_at),
});

const toRow = (m: DinnerPriceMeasurement): MeasurementRow => ({
  household_type: m.householdType,
  week: m.week,
  week_start: m.weekStart,
  seed: m.seed,
  recipe_set_version: m.recipeSetVersion,
  prices_synced_at: m.pricesSyncedAt === null ? null : iso(m.pricesSyncedAt),
  recipes_drawn: m.recipesDrawn,
  weeks_drawn: m.weeksDrawn,
  weeks_priced: m.weeksPriced,
  median_week_price: m.medianWeekPrice,
  coverage: m.coverage,
  chains: m.chains,
  measured_at: iso(m.measuredAt),
});

export function knexDinnerPriceStore(knex: Knex): DinnerPriceStore {
  return translated<DinnerPriceStore>(knex, {
    async recordMeasurement(m) {
      // The first writer's row stands; a concurrent or later one writes nothing.
      const written = (await knex('dinner_price_measurements').insert(toRow(m)).onConflict(['household_type', 'week']).ignore().returning('week')) as unknown[];
      return written.length > 0;
    },
    async measurementOf(householdType, week) {
      const row = (await knex<MeasurementRow>('dinner_price_measurements').where({ household_type: householdType, week }).first()) as MeasurementRow | undefined;
      return row ? toMeasurement(row) : null;
    },
    async measurementsBefore(beforeWeekStart) {
      const rows = (await knex<MeasurementRow>('dinner_price_measurements')
        .where('week_start', '<', beforeWeekStart)
        .orderBy([{ column: 'week_start' }, { column: 'household_type' }])) as MeasurementRow[];
      return rows.map(toMeasurement);
    },
    async savePublication(p) {
      await knex('dinner_price_publications')
        .insert({ name: PUBLICATION, generated_at: iso(p.generatedAt), json: p.json, csv: p.csv })
        .onConflict('name')
        .merge(['generated_at', 'json', 'csv']);
    },
    async publication(): Promise<DinnerPricePublication | null> {
      const row = (await knex<PublicationRow>('dinner_price_publications').where({ name: PUBLICATION }).first()) as PublicationRow | undefined;
      return row ? { generatedAt: toDate(row.generated_at), json: row.json, csv: row.csv } : null;
    },
  });
}
