import type { PlanDayRow, PlanRow, PlanStore } from '../../ports/plan-store.js';
import { weekDates, weekStartOf } from '../../core/kernel/dates.js';
import type { MemoryPushOutbox } from './invites.js';
import { bumpRevision, type MemoryTables } from './stores.js';

export function memoryPlanStore(t: MemoryTables, outbox: MemoryPushOutbox): PlanStore {
  const plans = new Map<string, PlanRow>();
  t.onRecipeDeleted.push((householdId, recipeId) => {
    for (const [id, p] of plans) {
      if (p.householdId === householdId && p.days.some((d) => d.recipeId === recipeId)) {
        plans.set(id, { ...p, days: p.days.map((d) => (d.recipeId === recipeId ? { ...d, recipeId: null } : d)) });
        bumpRevision(t, householdId);
      }
    }
  });
  const alive = (p: PlanRow) => t.households.has(p.householdId);
  const find = (pred: (p: PlanRow) => boolean) => {
    const p = [...plans.values()].find((x) => alive(x) && pred(x));
    return p ? structuredClone(p) : null;
  };
  /** As the knex store: the days eating the leftovers of `date` stop being leftovers (its dish changed). */
  const clearLeftoversOf = (householdId: string, date: string) => {
    for (const [id, p] of plans) {
      if (p.householdId === householdId && p.days.some((d) => d.leftoversOf === date)) plans.set(id, { ...p, days: p.days.map((d) => (d.leftoversOf === date ? { ...d, leftoversOf: null } : d)) });
    }
  };
  /** The day with its dish written: a day given a dish is not leftovers, and a changed dish takes its leftovers with it. */
  const withDish = (householdId: string, d: PlanDayRow, recipeId: string | null): PlanDayRow => {
    if (d.recipeId !== recipeId) clearLeftoversOf(householdId, d.date);
    return { ...d, recipeId, leftoversOf: recipeId !== null ? null : d.leftoversOf };
  };
  const replaceDays = (planId: string, at: Date, change: (d: PlanDayRow) => PlanDayRow): PlanRow => {
    const p = plans.get(planId)!;
    const next = { ...p, updatedAt: at, days: p.days.map(change) };
    plans.set(planId, next);
    bumpRevision(t, p.householdId);
    return next;
  };
  return {
    async getOrCreate(householdId, weekStart, fresh) {
      const existing = find((p) => p.householdId === householdId && p.weekStart === weekStart);
      if (existing) return existing;
      const plan: PlanRow = {
        id: fresh.planId,
        householdId,
        weekStart,
        createdAt: fresh.at,
        updatedAt: fresh.at,
        days: weekDates(weekStart).map((date, i) => ({ id: fresh.dayIds[i]!, date, recipeId: null, portionsOverride: null, note: null, leftoversOf: null })),
      };
      plans.set(plan.id, plan);
      bumpRevision(t, householdId);
      return structuredClone(plan);
    },
    async byId(householdId, planId) {
      return find((p) => p.householdId === householdId && p.id === planId);
    },
    async byWeek(householdId, weekStart) {
      return find((p) => p.householdId === householdId && p.weekStart === weekStart);
    },
    async weeksBetween(householdId, fromWeek, toWeek) {
      return [...plans.values()]
        .filter((p) => alive(p) && p.householdId === householdId && p.weekStart >= fromWeek && p.weekStart <= toWeek)
        .sort((a, b) => a.weekStart.localeCompare(b.weekStart))
        .map((p) => structuredClone(p));
    },
    async setDay(householdId, planId, date, day, at) {
      const p = plans.get(planId);
      if (!p || !alive(p) || p.householdId !== householdId) return null;
      const current = p.days.find((d) => d.date === date);
      if (!current) return null;
      const updated = { ...withDish(householdId, current, day.recipeId), portionsOverride: day.portionsOverride, note: day.note };
      replaceDays(planId, at, (d) => (d.date === date ? updated : d));
      return { ...updated };
    },
    async setDishes(householdId, planId, dishes, at, push) {
      const p = plans.get(planId);
      if (!p || !alive(p) || p.householdId !== householdId) return { refused: 'plan-not-found' };
      if (dishes.some((d) => !p.days.some((x) => x.date === d.date))) return { refused: 'date-outside-week' };
      if (dishes.some((d) => d.recipeId !== null && t.recipeHouseholds.get(d.recipeId) !== householdId)) return { refused: 'recipe-not-found' };
      // The push first: one the outbox refuses leaves the plan as it was, as the transaction would.
      if (push) outbox.insert(push);
      // Each dish in turn (clearing the leftovers of a changed one reaches this plan too), then the days of leftovers.
      for (const dish of dishes) {
        const written = withDish(householdId, plans.get(planId)!.days.find((d) => d.date === dish.date)!, dish.recipeId);
        replaceDays(planId, at, (d) => (d.date === dish.date ? written : d));
      }
      const leftovers = new Map(dishes.filter((d) => d.leftoversOf).map((d) => [d.date, d.leftoversOf!]));
      return structuredClone(replaceDays(planId, at, (d) => (leftovers.has(d.date) ? { ...d, recipeId: null, leftoversOf: leftovers.get(d.date)! } : d)));
    },
    async setLeftovers(householdId, planId, date, leftoversOf, at) {
      const p = plans.get(planId);
      if (!p || !alive(p) || p.householdId !== householdId) return null;
      const current = p.days.find((d) => d.date === date);
      if (!current) return null;
      const updated = { ...(leftoversOf !== null ? withDish(householdId, current, null) : current), leftoversOf };
      replaceDays(planId, at, (d) => (d.date === date ? updated : d));
      return { ...updated };
    },
  };
}
