import { addDays } from '../../core/kernel/dates.js';
import { shoppingSettingsOf } from '../../core/shopping/types.js';
import type { Recipe } from '../../core/recipes/types.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { HouseholdRevisions } from '../../ports/household-revisions.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { MealEventReader } from '../../ports/meal-event-store.js';
import type { PantryMergeReader } from '../../ports/pantry-merge-store.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import type { PlanStore } from '../../ports/plan-store.js';
import type { PushOutbox } from '../../ports/push-outbox.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { ShoppingList, ShoppingListContent, ShoppingListStore } from '../../ports/shopping-list-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import { tell, type MemoryTables } from './stores.js';

/** The memory stores a list's state and inputs are read from (given late: they are built alongside this one). */
export interface InputStores {
  households: HouseholdStore;
  revisions: HouseholdRevisions;
  foodTable: FoodTableStore;
  plans: PlanStore;
  events: MealEventReader;
  recipes: Pick<RecipeStore, 'byIds'>;
  pantry: PantryObservationStore;
  pantryMerges: PantryMergeReader;
  unitWeights: UnitWeightStore;
}

/**
 * The list's effects go through the memory pantry and outbox, called with no await between them and the write
 * (the memory stores' bodies run to their end when called); a refused effect puts the list back.
 */
export function memoryShoppingListStore(t: MemoryTables, side: { pantry: PantryObservationStore; pushOutbox: PushOutbox; stores: () => InputStores }): ShoppingListStore {
  const lists = new Map<string, ShoppingList>();
  // Lists go with their household, as the SQL cascade does.
  const alive = (l: ShoppingList) => t.households.has(l.householdId);
  const copy = (l: ShoppingList): ShoppingList => structuredClone(l);
  /**
   * A list after a write: the whole content replaced (an optional field the write leaves out, personChanges, is gone,
   * as a column set to null), the version moved.
   */
  const written = (current: ShoppingList | null, write: ShoppingListContent, kept: ShoppingList['derivation'], at: { householdId: string; planId: string; listId: string }): ShoppingList => {
    if (!current) return { id: at.listId, householdId: at.householdId, planId: at.planId, version: 1, derivation: structuredClone(kept), ...structuredClone(write) };
    const { personChanges: _replaced, ...stored } = current;
    return { ...stored, ...structuredClone(write), derivation: structuredClone(kept), version: current.version + 1 };
  };
  const find = (householdId: string, planId: string) => [...lists.values()].find((l) => alive(l) && l.householdId === householdId && l.planId === planId);
  return {
    async byPlan(householdId, planId) {
      const l = find(householdId, planId);
      return l ? copy(l) : null;
    },
    async ofHousehold(householdId) {
      return [...lists.values()].filter((l) => alive(l) && l.householdId === householdId).map(copy);
    },
    async stamp(householdId, planId) {
      const l = find(householdId, planId);
      return l ? structuredClone({ id: l.id, version: l.version, completedAt: l.completedAt, derivation: l.derivation }) : null;
    },
    async state(householdId, planId, accountId) {
      const s = side.stores();
      const l = find(householdId, planId);
      const [member, householdRevision, foodTableSyncedAt, household] = await Promise.all([
        s.households.memberByAccount(householdId, accountId),
        s.revisions.of(householdId),
        s.foodTable.lastSyncedAt(),
        s.households.byId(householdId),
      ]);
      const stamp = l ? structuredClone({ id: l.id, version: l.version, completedAt: l.completedAt, derivation: l.derivation }) : null;
      return { member: member !== null, stamp, householdRevision, foodTableSyncedAt, settings: household ? shoppingSettingsOf(household) : null };
    },
    async inputs(householdId, planId) {
      const s = side.stores();
      const [household, householdRevision, foodTableSyncedAt, plan, observations, merges, unitWeights] = await Promise.all([
        s.households.byId(householdId),
        s.revisions.of(householdId),
        s.foodTable.lastSyncedAt(),
        s.plans.byId(householdId, planId),
        s.pantry.ofHousehold(householdId),
        s.pantryMerges.activeMerges(householdId),
        s.unitWeights.list(householdId, null),
      ]);
      const events = plan ? await s.events.eventsBetween(householdId, plan.weekStart, addDays(plan.weekStart, 6)) : [];
      // The plan's dishes, then the bases they reach, level by level (each asked for once).
      const recipes = new Map<string, Recipe>();
      const asked = new Set<string>();
      let wanted = [...new Set((plan?.days ?? []).map((d) => d.recipeId).filter((r): r is string => r !== null))];
      while (wanted.length > 0) {
        for (const id of wanted) asked.add(id);
        for (const r of await s.recipes.byIds(householdId, wanted)) recipes.set(r.id, r);
        wanted = [...new Set([...recipes.values()].flatMap((r) => r.ingredients.map((i) => i.baseRecipeId).filter((b): b is string => b !== null && !asked.has(b))))];
      }
      return { household, householdRevision, foodTableSyncedAt, plan, events, recipes: [...recipes.values()], observations, merges, unitWeights };
    },
    async byLine(householdId, lineId) {
      const l = [...lists.values()].find((x) => alive(x) && x.householdId === householdId && x.lines.some((line) => line.id === lineId));
      return l ? copy(l) : null;
    },
    async byRemovedLine(householdId, lineId) {
      const l = [...lists.values()].find((x) => alive(x) && x.householdId === householdId && (x.personChanges ?? []).some((c) => c.lineId === lineId && c.change === 'Removed'));
      return l ? copy(l) : null;
    },
    async change(householdId, planId, fresh, decide) {
      // No await between the read and the writes: the change and its effects are atomic in this process (the memory
      // stores' bodies run to their end when called).
      const current = find(householdId, planId) ?? null;
      const { write, result, derivation, effects } = decide(current ? copy(current) : null);
      if (write === null) {
        if (current && derivation !== undefined) lists.set(current.id, { ...current, derivation: structuredClone(derivation) });
        const after = current ? find(householdId, planId)! : null;
        return { list: after ? copy(after) : null, result };
      }
      const kept = derivation === undefined ? (current?.derivation ?? null) : derivation;
      const next = written(current, write, kept, { householdId, planId, listId: fresh.listId });
      // Another list changed with this one (a closing's carry): decided on it as stored, written with it.
      const other = effects?.alsoChange;
      const otherBefore = other ? (find(householdId, other.planId) ?? null) : null;
      const otherWrite = other ? other.decide(otherBefore ? copy(otherBefore) : null) : null;
      const otherNext = other && otherWrite ? written(otherBefore, otherWrite, otherBefore?.derivation ?? null, { householdId, planId: other.planId, listId: other.fresh.listId }) : null;
      // The effects first: one that is refused (an id taken) leaves the list as it was.
      const pending = [
        ...(effects?.addObservations ?? []).map((o) => side.pantry.add(o)),
        ...(effects?.removeObservations ?? []).map((id) => side.pantry.remove(householdId, id)),
        ...(effects?.pushes ?? []).map((e) => side.pushOutbox.record(e)),
      ];
      lists.set(next.id, next);
      if (otherNext) lists.set(otherNext.id, otherNext);
      try {
        await Promise.all(pending);
      } catch (err) {
        for (const [before, after] of [[current, next], [otherBefore, otherNext]] as const) {
          if (before) lists.set(before.id, before);
          else if (after) lists.delete(after.id);
        }
        throw err;
      }
      t.listWrites.set(householdId, (t.listWrites.get(householdId) ?? 0) + 1);
      tell(t, { kind: 'household', householdId });
      return { list: copy(next), result };
    },
  };
}
