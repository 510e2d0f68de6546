import type { Account } from '../accounts/types.js';
import { requireAdult } from '../households/access.js';
import { addDays, daysBetween } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { EventDeps } from './deps.js';
import { clearDishes, dishesToClear, type DishOptions } from './dish-gate.js';
import { eventFrom, invalidInput, runsOf } from './rules.js';
import { RUN_MAX_DAYS, type IsoDate, type MealEvent, type MealEventFields, type MealEventInput, type MealEventType } from './types.js';

type Denied = ErrorOf<'household-not-found' | 'adults-only'>;

const invalid = (detail: string) => fail({ type: 'event-invalid' as const, detail });

/** POST events/run: one event per day of [from, through], equal but for the date, all written or none. */
export async function createRun(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  input: MealEventFields & { from: IsoDate; through: IsoDate },
  options: DishOptions = {},
): Promise<Result<MealEvent[], Denied | ErrorOf<'event-invalid' | 'avoid-conflict'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const { from, through, ...fields } = input;
  const days = daysBetween(from, through) + 1;
  if (days < 1) return invalid('through is before from');
  if (days > RUN_MAX_DAYS) return invalid(`a run is at most ${RUN_MAX_DAYS} days; this one has ${days}`);
  const household = await deps.households.byId(householdId);
  const inputs: MealEventInput[] = Array.from({ length: days }, (_, i) => ({ ...fields, date: addDays(from, i) }));
  for (const day of inputs) {
    const why = invalidInput(household?.members ?? [], day);
    if (why) return invalid(why);
  }
  const at = deps.clock.now();
  const events = inputs.map((day) => eventFrom(deps.ids, householdId, day, { id: deps.ids.newId(), createdAt: at, updatedAt: at }));
  const cleared = await dishesToClear(deps, householdId, events, [], options);
  if (!cleared.ok) return cleared;
  await deps.events.create(events);
  await clearDishes(deps, householdId, cleared.value, at);
  return ok(events);
}

/**
 * PATCH events/run: days[i] replaces the event ids[i] whole; the ids past the end of days are removed (a run
 * shortens, never grows). One transaction: a concurrent edit of the same run sees all of it or none.
 */
export async function editRun(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { ids: readonly string[]; days: readonly MealEventInput[] },
  options: DishOptions = {},
): Promise<Result<MealEvent[], Denied | ErrorOf<'event-invalid' | 'event-not-found' | 'avoid-conflict'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const { ids, days } = input;
  if (ids.length === 0) return invalid('ids names no event');
  if (new Set(ids).size !== ids.length) return invalid('ids names an event twice');
  if (days.length > ids.length) return invalid('days is longer than ids: a run cannot be extended, create the new days instead');
  const household = await deps.households.byId(householdId);
  for (const day of days) {
    const why = invalidInput(household?.members ?? [], day);
    if (why) return invalid(why);
  }
  const before = await deps.events.byIds(householdId, ids);
  if (before.length !== ids.length) return fail({ type: 'event-not-found' });
  const createdAt = new Map(before.map((e) => [e.id, e.createdAt]));
  const at = deps.clock.now();
  const after = days.map((day, i) => eventFrom(deps.ids, householdId, day, { id: ids[i]!, createdAt: createdAt.get(ids[i]!)!, updatedAt: at }));
  const cleared = await dishesToClear(deps, householdId, after, ids, options);
  if (!cleared.ok) return cleared;
  if (!(await deps.events.rewrite(householdId, after, ids.slice(days.length)))) return fail({ type: 'event-not-found' });
  await clearDishes(deps, householdId, cleared.value, at);
  return ok(after);
}

export type RunSelection =
  | { readonly ids: readonly string[] }
  | { readonly eventType: MealEventType; readonly from: IsoDate; readonly through: IsoDate };

/**
 * DELETE events/run: exactly the rows named by ids, or the one run of that type lying wholly inside
 * [from, through] (none: run-not-found; more than one: run-not-unique, nothing removed).
 */
export async function deleteRun(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  selection: RunSelection,
): Promise<Result<void, Denied | ErrorOf<'event-invalid' | 'event-not-found' | 'run-not-found' | 'run-not-unique'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  let doomed: MealEvent[];
  if ('ids' in selection) {
    const ids = [...new Set(selection.ids)];
    if (ids.length === 0) return invalid('ids names no event');
    doomed = await deps.events.byIds(householdId, ids);
    if (doomed.length !== ids.length) return fail({ type: 'event-not-found' });
  } else {
    const { eventType, from, through } = selection;
    if (through < from) return invalid('through is before from');
    // One day either side: a run that goes on past the span is not wholly inside it.
    const nearby = await deps.events.eventsBetween(householdId, addDays(from, -1), addDays(through, 1));
    const inside = runsOf(nearby).filter((r) => r.eventType === eventType && r.first >= from && r.last <= through);
    if (inside.length === 0) return fail({ type: 'run-not-found' });
    if (inside.length > 1) return fail({ type: 'run-not-unique', runs: inside.length });
    doomed = [...inside[0]!.events];
  }
  if (!(await deps.events.rewrite(householdId, [], doomed.map((e) => e.id)))) return fail({ type: 'event-not-found' });
  return ok(undefined);
}
