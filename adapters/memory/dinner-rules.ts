import type { DinnerRule } from '../../core/plans/dinner-rules.js';
import type { DinnerRuleStore } from '../../ports/dinner-rule-store.js';
import type { MemoryTables } from './stores.js';

/** The household's dinner rules in memory; a rule naming a recipe goes with it, as the database's cascade does. */
export function memoryDinnerRuleStore(t: MemoryTables): DinnerRuleStore {
  const rows = new Map<string, DinnerRule>();
  t.onRecipeDeleted.push((householdId, recipeId) => {
    for (const [id, r] of rows) if (r.householdId === householdId && r.kind !== 'TagPerWeek' && r.recipeId === recipeId) rows.delete(id);
  });
  const copy = (r: DinnerRule): DinnerRule => structuredClone(r);
  const mine = (householdId: string) =>
    t.households.has(householdId) ? [...rows.values()].filter((r) => r.householdId === householdId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)) : [];
  const weekdayTaken = (householdId: string, r: DinnerRule, except: string | null) =>
    r.kind === 'FixedDish' && mine(householdId).some((x) => x.id !== except && x.kind === 'FixedDish' && x.weekday === r.weekday);
  return {
    async list(householdId) {
      return mine(householdId).map(copy);
    },
    async add(rule, max) {
      if (mine(rule.householdId).length >= max) return { refused: 'dinner-rule-limit' };
      if (weekdayTaken(rule.householdId, rule, null)) return { refused: 'dinner-rule-weekday-taken' };
      rows.set(rule.id, copy(rule));
      return copy(rule);
    },
    async replace(householdId, ruleId, spec, at) {
      const old = rows.get(ruleId);
      if (!old || old.householdId !== householdId || !t.households.has(householdId)) return null;
      const next: DinnerRule = { ...spec, id: old.id, householdId, createdAt: old.createdAt, updatedAt: at };
      if (weekdayTaken(householdId, next, ruleId)) return { refused: 'dinner-rule-weekday-taken' };
      rows.set(ruleId, copy(next));
      return copy(next);
    },
    async remove(householdId, ruleId) {
      const old = rows.get(ruleId);
      if (!old || old.householdId !== householdId) return false;
      return rows.delete(ruleId);
    },
  };
}
