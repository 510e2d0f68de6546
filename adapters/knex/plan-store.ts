import type { Knex } from 'knex';
import type { PlanDayRow, PlanRow, PlanStore } from '../../ports/plan-store.js';
import { weekDates } from '../../core/kernel/dates.js';
import { isUniqueViolation, translated } from './errors.js';
import { speedOf } from './speed/index.js';
import { outboxRow } from './push-outbox.js';
import { iso, toDate } from './rows.js';

export interface PlanTableRow {
  id: string;
  household_id: string;
  week_start: string;
  created_at: Date | string;
  updated_at: Date | string;
}
export interface DayTableRow {
  id: string;
  plan_id: string;
  date: string;
  recipe_id: string | null;
  portions_override: number | null;
  note: string | null;
  leftovers_of: string | null;
}

export const toDay = (r: DayTableRow): PlanDayRow => ({ id: r.id, date: r.date, recipeId: r.recipe_id, portionsOverride: r.portions_override, note: r.note, leftoversOf: r.leftovers_of });

/** The days of the household that eat the leftovers of `date` stop being leftovers (its dish changed). */
const clearLeftoversOf = (trx: Knex.Transaction, householdId: string, date: string) =>
  trx('plan_days')
    .whereIn('plan_id', trx('plans').select('id').where({ household_id: householdId }))
    .where({ leftovers_of: date })
    .update({ leftovers_of: null });

/** The day's dish is written: a day given a dish is not leftovers, and a changed dish takes its leftovers with it. */
async function writeDish(trx: Knex.Transaction, householdId: string, planId: string, current: Pick<DayTableRow, 'date' | 'recipe_id'>, recipeId: string | null, rest: Record<string, unknown> = {}) {
  if (current.recipe_id !== recipeId) await clearLeftoversOf(trx, householdId, current.date);
  return trx('plan_days')
    .where({ plan_id: planId, date: current.date })
    .update({ recipe_id: recipeId, ...(recipeId !== null ? { leftovers_of: null } : {}), ...rest });
}

export function knexPlanStore(knex: Knex): PlanStore {
  /** Plans with their days, two queries whatever their number. */
  const withDays = async (db: Knex | Knex.Transaction, rows: PlanTableRow[]): Promise<PlanRow[]> => {
    if (rows.length === 0) return [];
    const days = (await db<DayTableRow>('plan_days')
      .whereIn('plan_id', rows.map((r) => r.id))
      .orderBy('date')) as DayTableRow[];
    return rows.map((r) => ({
      id: r.id,
      householdId: r.household_id,
      weekStart: r.week_start,
      createdAt: toDate(r.created_at),
      updatedAt: toDate(r.updated_at),
      days: days.filter((d) => d.plan_id === r.id).map(toDay),
    }));
  };
  const one = async (db: Knex | Knex.Transaction, where: Record<string, string>) => {
    const row = (await db<PlanTableRow>('plans').where(where).first()) as PlanTableRow | undefined;
    return row ? (await withDays(db, [row]))[0]! : null;
  };
  return translated<PlanStore>(knex, {
    async getOrCreate(householdId, weekStart, fresh) {
      const existing = await one(knex, { household_id: householdId, week_start: weekStart });
      if (existing) return existing;
      try {
        await knex.transaction(async (trx) => {
          await trx('plans').insert({ id: fresh.planId, household_id: householdId, week_start: weekStart, created_at: iso(fresh.at), updated_at: iso(fresh.at) });
          await trx('plan_days').insert(weekDates(weekStart).map((date, i) => ({ id: fresh.dayIds[i]!, plan_id: fresh.planId, date, recipe_id: null, portions_override: null, note: null, leftovers_of: null })));
        });
      } catch (err) {
        // Another request made the week's plan first: answer that one.
        if (!isUniqueViolation(err)) throw err;
      }
      return (await one(knex, { household_id: householdId, week_start: weekStart }))!;
    },
    // GET plans/{planId} and the list's derivation: kept by the read cache for the household, dropped with any write
    // to its plans or days (list inputs: watched-tables.ts), by whichever process. Frozen: every reader gets the same one.
    byId: (householdId, planId) => speedOf(knex).cachedRead(`plan:${householdId}:${planId}`, () => one(knex, { household_id: householdId, id: planId }), () => true, householdId),
    byWeek: (householdId, weekStart) => one(knex, { household_id: householdId, week_start: weekStart }),
    // The weeks around a plan (leftovers eaten the week after): kept as byId is.
    weeksBetween: (householdId, fromWeek, toWeek) =>
      speedOf(knex).cachedRead(`plans:${householdId}:${fromWeek}:${toWeek}`,
        async () => {
          const rows = (await knex<PlanTableRow>('plans')
            .where({ household_id: householdId })
            .andWhere('week_start', '>=', fromWeek)
            .andWhere('week_start', '<=', toWeek)
            .orderBy('week_start')) as PlanTableRow[];
          return withDays(knex, rows);
        },
        () => true,
        householdId,
      ),
    async setDay(householdId, planId, date, day, at) {
      return knex.transaction(async (trx) => {
        const plan = await trx('plans').where({ household_id: householdId, id: planId }).first('id');
        if (!plan) return null;
        const current = (await trx<DayTableRow>('plan_days').where({ plan_id: planId, date }).first()) as DayTableRow | undefined;
        if (!current) return null;
        await writeDish(trx, householdId, planId, current, day.recipeId, { portions_override: day.portionsOverride, note: day.note });
        await trx('plans').where({ id: planId }).update({ updated_at: iso(at) });
        const row = (await trx<DayTableRow>('plan_days').where({ plan_id: planId, date }).first()) as DayTableRow;
        return toDay(row);
      });
    },
    async setDishes(householdId, planId, dishes, at, push) {
      return knex.transaction(async (trx) => {
        const plan = (await trx<PlanTableRow>('plans').where({ household_id: householdId, id: planId }).first()) as PlanTableRow | undefined;
        if (!plan) return { refused: 'plan-not-found' as const };
        const dates = new Set(weekDates(plan.week_start));
        if (dishes.some((d) => !dates.has(d.date))) return { refused: 'date-outside-week' as const };
        const wanted = [...new Set(dishes.map((d) => d.recipeId).filter((r): r is string => r !== null))];
        const found = wanted.length === 0 ? [] : ((await trx('recipes').where({ household_id: householdId }).whereIn('id', wanted).select('id')) as { id: string }[]);
        if (found.length !== wanted.length) return { refused: 'recipe-not-found' as const };
        const before = (await trx<DayTableRow>('plan_days').where({ plan_id: planId })) as DayTableRow[];
        for (const d of dishes) await writeDish(trx, householdId, planId, before.find((b) => b.date === d.date)!, d.recipeId);
        for (const d of dishes) if (d.leftoversOf) await trx('plan_days').where({ plan_id: planId, date: d.date }).update({ recipe_id: null, leftovers_of: d.leftoversOf });
        await trx('plans').where({ id: planId }).update({ updated_at: iso(at) });
        if (push) await trx('push_outbox').insert(outboxRow(push));
        return (await withDays(trx, [{ ...plan, updated_at: iso(at) }]))[0]!;
      });
    },
    async setLeftovers(householdId, planId, date, leftoversOf, at) {
      return knex.transaction(async (trx) => {
        const plan = await trx('plans').where({ household_id: householdId, id: planId }).first('id');
        if (!plan) return null;
        const current = (await trx<DayTableRow>('plan_days').where({ plan_id: planId, date }).first()) as DayTableRow | undefined;
        if (!current) return null;
        if (leftoversOf !== null) await writeDish(trx, householdId, planId, current, null);
        await trx('plan_days').where({ plan_id: planId, date }).update({ leftovers_of: leftoversOf });
        await trx('plans').where({ id: planId }).update({ updated_at: iso(at) });
        return toDay((await trx<DayTableRow>('plan_days').where({ plan_id: planId, date }).first()) as DayTableRow);
      });
    },
  }, ['byId', 'weeksBetween']);
}
