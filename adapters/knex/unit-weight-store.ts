import type { Knex } from 'knex';
import type { UnitWeight } from '../../core/pantry/types.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

export interface UnitWeightRow {
  household_id: string;
  food_key: string;
  unit: string;
  display_name: string;
  grams: number | string;
  updated_at: Date | string;
}

export const toWeight = (r: UnitWeightRow): UnitWeight => ({
  householdId: r.household_id,
  foodKey: r.food_key,
  unit: r.unit,
  displayName: r.display_name,
  grams: Number(r.grams),
  updatedAt: toDate(r.updated_at),
});

export function knexUnitWeightStore(knex: Knex): UnitWeightStore {
  return translated<UnitWeightStore>(knex, {
    async list(householdId, foodKey) {
      const q = knex<UnitWeightRow>('unit_weights').where({ household_id: householdId });
      if (foodKey !== null) q.andWhere({ food_key: foodKey });
      return ((await q.orderBy([{ column: 'food_key' }, { column: 'unit' }])) as UnitWeightRow[]).map(toWeight);
    },
    async get(householdId, foodKey, unit) {
      const row = (await knex<UnitWeightRow>('unit_weights').where({ household_id: householdId, food_key: foodKey, unit }).first()) as UnitWeightRow | undefined;
      return row ? toWeight(row) : null;
    },
    async put(w) {
      const row: UnitWeightRow = {
        household_id: w.householdId,
        food_key: w.foodKey,
        unit: w.unit,
        display_name: w.displayName,
        grams: w.grams,
        updated_at: iso(w.updatedAt),
      };
      // One statement: concurrent puts of one food and unit meet at the primary key, the last one wins.
      await knex('unit_weights').insert(row).onConflict(['household_id', 'food_key', 'unit']).merge(['display_name', 'grams', 'updated_at']);
      return toWeight(row);
    },
    async remove(householdId, foodKey, unit) {
      return (await knex('unit_weights').where({ household_id: householdId, food_key: foodKey, unit }).delete()) > 0;
    },
  });
}
