import type { ShoppingLine, ShoppingList } from '../shopping/types.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { foodKey, invalid, renamer, type Into, type Invalid, type Renamer } from './checks.js';
import type { HouseholdDocument } from './document.js';
import type { PlansIn } from './plans.js';

type ListDocument = HouseholdDocument['shoppingLists'][number];

/** The parts of the document a list points at, checked before it. */
export interface ListTargets extends Pick<PlansIn, 'planIds' | 'dayIds' | 'dayPlan'> {
  readonly recipeIds: Renamer;
  readonly observationIds: Renamer;
}

/** What one list's lines, made-for days and trip point at is in the document. */
function checkList(l: ListDocument, at: string, lineIds: Renamer, to: ListTargets): Invalid | null {
  for (const [j, line] of l.lines.entries()) {
    if (!lineIds.add(line.id)) return invalid(`${at}.lines.${j}.id`, 'this id is given twice');
    if (foodKey(line.foodKey) === null) return invalid(`${at}.lines.${j}.foodKey`, 'needs a letter or a digit');
    const stray = line.relatedPlanEntryIds.findIndex((d) => to.dayPlan.get(d) !== l.planId);
    if (stray >= 0) return invalid(`${at}.lines.${j}.relatedPlanEntryIds.${stray}`, 'names no day of the list\'s plan');
  }
  for (const [date, made] of Object.entries(l.madeFor)) {
    if (!to.recipeIds.has(made.recipeId)) return invalid(`${at}.madeFor.${date}.recipeId`, 'names no recipe of the document');
  }
  if (l.trip) {
    const stray = l.trip.observationIds.findIndex((o) => !to.observationIds.has(o));
    if (stray >= 0) return invalid(`${at}.trip.observationIds.${stray}`, 'names no pantry observation of the document');
    const own = new Set(l.lines.map((line) => line.id));
    const tick = l.trip.closingTicks.findIndex((t) => !own.has(t.lineId));
    if (tick >= 0) return invalid(`${at}.trip.closingTicks.${tick}.lineId`, 'names no line of this list');
    if (l.trip.carried && !to.planIds.has(l.trip.carried.planId)) return invalid(`${at}.trip.carried.planId`, 'names no plan of the document');
    const carried = l.trip.carried?.lines.findIndex((c) => foodKey(c.foodKey) === null) ?? -1;
    if (carried >= 0) return invalid(`${at}.trip.carried.lines.${carried}.foodKey`, 'needs a letter or a digit');
  }
  return null;
}

/** The shopping lists: one a plan; what their lines and trip point at is in the document. */
export function checkShoppingLists(doc: HouseholdDocument['shoppingLists'], to: ListTargets, into: Into): Result<readonly ShoppingList[], Invalid> {
  const listIds = renamer(into.ids);
  const lineIds = renamer(into.ids);
  const listed = new Set<string>();
  for (const [i, l] of doc.entries()) {
    const at = `shoppingLists.${i}`;
    if (!listIds.add(l.id)) return fail(invalid(`${at}.id`, 'this id is given twice'));
    if (!to.planIds.has(l.planId)) return fail(invalid(`${at}.planId`, 'names no plan of the document'));
    if (listed.has(l.planId)) return fail(invalid(`${at}.planId`, 'another list has this plan'));
    listed.add(l.planId);
    const wrong = checkList(l, at, lineIds, to);
    if (wrong) return fail(wrong);
  }
  return ok(
    doc.map((l) => ({
      ...l,
      id: listIds.get(l.id),
      householdId: into.householdId,
      planId: to.planIds.get(l.planId),
      version: 1,
      derivation: null,
      lines: l.lines.map(
        (line): ShoppingLine => ({
          ...line,
          id: lineIds.get(line.id),
          foodKey: foodKey(line.foodKey)!,
          relatedPlanEntryIds: line.relatedPlanEntryIds.map((d) => to.dayIds.get(d)),
        }),
      ),
      madeFor: Object.fromEntries(Object.entries(l.madeFor).map(([date, made]) => [date, { ...made, recipeId: to.recipeIds.get(made.recipeId) }])),
      trip: l.trip && {
        ...l.trip,
        observationIds: l.trip.observationIds.map((o) => to.observationIds.get(o)),
        closingTicks: l.trip.closingTicks.map((t) => ({ ...t, lineId: lineIds.get(t.lineId) })),
        // What the closing carried into the next week's list points at that week's plan, renamed as every plan is.
        ...(l.trip.carried && {
          carried: { planId: to.planIds.get(l.trip.carried.planId), lines: l.trip.carried.lines.map((c) => ({ ...c, foodKey: foodKey(c.foodKey)! })) },
        }),
      },
    })),
  );
}
