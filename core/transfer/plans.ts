import type { PlanRow } from '../../ports/plan-store.js';
import { isIsoDate, weekDates, weekStartOf } from '../kernel/dates.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { invalid, renamer, type Into, type Invalid, type Renamer } from './checks.js';
import type { HouseholdDocument } from './document.js';

export interface PlansIn {
  readonly plans: readonly PlanRow[];
  readonly planIds: Renamer;
  readonly dayIds: Renamer;
  /** The plan (old id) of each day (old id). */
  readonly dayPlan: ReadonlyMap<string, string>;
}

/** The plans: one a week, a Monday, its seven days, each day's recipe one of the document's. */
export function checkPlans(doc: HouseholdDocument['plans'], recipeIds: Renamer, into: Into): Result<PlansIn, Invalid> {
  const planIds = renamer(into.ids);
  const dayIds = renamer(into.ids);
  const dayPlan = new Map<string, string>();
  const weeks = new Set<string>();
  for (const [i, p] of doc.entries()) {
    if (!planIds.add(p.id)) return fail(invalid(`plans.${i}.id`, 'this id is given twice'));
    if (!isIsoDate(p.weekStart) || weekStartOf(p.weekStart) !== p.weekStart) return fail(invalid(`plans.${i}.weekStart`, 'is not a Monday'));
    if (weeks.has(p.weekStart)) return fail(invalid(`plans.${i}.weekStart`, 'another plan has this week'));
    weeks.add(p.weekStart);
    const dates = weekDates(p.weekStart);
    const given = p.days.map((d) => d.date).sort();
    if (given.length !== 7 || given.some((d, k) => d !== dates[k])) return fail(invalid(`plans.${i}.days`, 'must be the seven days of its week, each once'));
    for (const [j, d] of p.days.entries()) {
      if (!dayIds.add(d.id)) return fail(invalid(`plans.${i}.days.${j}.id`, 'this id is given twice'));
      dayPlan.set(d.id, p.id);
      if (d.recipeId !== null && !recipeIds.has(d.recipeId)) return fail(invalid(`plans.${i}.days.${j}.recipeId`, 'names no recipe of the document'));
      if (d.leftoversOf !== null && (d.recipeId !== null || !(d.leftoversOf < d.date))) return fail(invalid(`plans.${i}.days.${j}.leftoversOf`, 'must be an earlier day, of a day with no dish'));
    }
  }
  const plans: PlanRow[] = doc.map((p) => ({
    id: planIds.get(p.id),
    householdId: into.householdId,
    weekStart: p.weekStart,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    days: p.days.map((d) => ({ ...d, id: dayIds.get(d.id), recipeId: d.recipeId === null ? null : recipeIds.get(d.recipeId) })),
  }));
  return ok({ plans, planIds, dayIds, dayPlan });
}
