import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import { isAdult, type HouseholdWithMembers, type Member } from '../households/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { nextCursor, openCursor, type CursorScope } from '../kernel/paging.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { EventPosition } from '../../ports/meal-event-store.js';
import { isIsoDate } from '../kernel/dates.js';
import type { EventDeps } from './deps.js';
import { clearDishes, dishesToClear, type DishOptions } from './dish-gate.js';
import { eventFrom, inputOf, invalidInput, juniorMayWrite, todayOf } from './rules.js';
import type { MealEvent, MealEventInput } from './types.js';

type NotMember = ErrorOf<'household-not-found'>;

async function householdOf(deps: EventDeps, householdId: HouseholdId): Promise<HouseholdWithMembers> {
  const household = await deps.households.byId(householdId);
  // The caller's membership was just read: the household exists unless it went in between.
  if (!household) throw new Error(`household ${householdId} vanished`);
  return household;
}

/** A Junior may act only on her own presence within the window; adults on anything. */
function mayWrite(deps: EventDeps, caller: Member, household: HouseholdWithMembers, input: MealEventInput): boolean {
  return isAdult(caller.role) || juniorMayWrite(caller, input, todayOf(household, deps.clock.now()));
}

/**
 * POST events: an adult writes any event; a Junior only her own presence (else junior-forbidden). An event whose
 * guests' avoids the day's dish breaks is refused (avoid-conflict, nothing written) unless `replaceDish`.
 */
export async function createEvent(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  input: MealEventInput,
  options: DishOptions = {},
): Promise<Result<MealEvent, NotMember | ErrorOf<'junior-forbidden' | 'event-invalid' | 'avoid-conflict'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await householdOf(deps, householdId);
  if (!mayWrite(deps, member.value, household, input)) return fail({ type: 'junior-forbidden' });
  const invalid = invalidInput(household.members, input);
  if (invalid) return fail({ type: 'event-invalid', detail: invalid });
  const at = deps.clock.now();
  const event = eventFrom(deps.ids, householdId, input, { id: deps.ids.newId(), createdAt: at, updatedAt: at });
  const cleared = await dishesToClear(deps, householdId, [event], [], options);
  if (!cleared.ok) return cleared;
  await deps.events.create([event]);
  await clearDishes(deps, householdId, cleared.value, at);
  return ok(event);
}

/** PATCH events/{id}: full replacement, every field written and the participant list rebuilt (adults only). */
export async function replaceEvent(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  eventId: string,
  input: MealEventInput,
  options: DishOptions = {},
): Promise<Result<MealEvent, NotMember | ErrorOf<'adults-only' | 'event-not-found' | 'event-invalid' | 'avoid-conflict'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const before = await deps.events.byId(householdId, eventId);
  if (!before) return fail({ type: 'event-not-found' });
  const invalid = invalidInput((await householdOf(deps, householdId)).members, input);
  if (invalid) return fail({ type: 'event-invalid', detail: invalid });
  const at = deps.clock.now();
  const after = eventFrom(deps.ids, householdId, input, { id: eventId, createdAt: before.createdAt, updatedAt: at });
  const cleared = await dishesToClear(deps, householdId, [after], [eventId], options);
  if (!cleared.ok) return cleared;
  if (!(await deps.events.rewrite(householdId, [after], []))) return fail({ type: 'event-not-found' });
  await clearDishes(deps, householdId, cleared.value, at);
  return ok(after);
}

/** DELETE events/{id}: an adult removes any event; a Junior only one of exactly the shape she may write. */
export async function deleteEvent(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  eventId: string,
): Promise<Result<void, NotMember | ErrorOf<'junior-forbidden' | 'event-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const event = await deps.events.byId(householdId, eventId);
  if (!event) return fail({ type: 'event-not-found' });
  if (!isAdult(member.value.role)) {
    const household = await householdOf(deps, householdId);
    if (!mayWrite(deps, member.value, household, inputOf(event))) return fail({ type: 'junior-forbidden' });
  }
  if (!(await deps.events.rewrite(householdId, [], [eventId]))) return fail({ type: 'event-not-found' });
  return ok(undefined);
}

export interface EventPage {
  readonly items: readonly MealEvent[];
  readonly nextCursor: string | null;
}

// A cursor is bound to the household and the range it was handed out for: any other list refuses it.
const scopeOf = (householdId: HouseholdId, from: string | null, to: string | null): CursorScope => ({
  scope: `events\n${householdId}\n${from ?? ''}\n${to ?? ''}`,
  boundTo: 'this household, from and to',
});

/** Where a page ended: [date, createdAt, id], each checked, since a cursor is input like any other. */
function positionOf(sealed: readonly string[]): EventPosition | null {
  if (sealed.length !== 3) return null;
  const [date, createdAt, id] = sealed as [string, string, string];
  const at = new Date(createdAt);
  if (!isIsoDate(date) || Number.isNaN(at.getTime()) || at.toISOString() !== createdAt || !/^[0-9a-f-]{36}$/.test(id)) return null;
  return { date, createdAt: at, id };
}

/** GET events: earliest first (date, then createdAt, then id), a page at a time. */
export async function listEvents(
  deps: EventDeps,
  caller: Account,
  householdId: HouseholdId,
  query: { from: string | null; to: string | null; cursor: string | null; limit: number },
): Promise<Result<EventPage, NotMember | ErrorOf<'page-cursor-invalid' | 'event-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const { from, to, limit } = query;
  if (from !== null && to !== null && to < from) return fail({ type: 'event-invalid', detail: 'to is before from' });
  const where = scopeOf(householdId, from, to);
  const after = openCursor(deps.pageCursors, where, query.cursor, positionOf);
  if (!after.ok) return after;
  const rows = await deps.events.page(householdId, { from, to, after: after.value, limit: limit + 1 });
  const items = rows.slice(0, limit);
  return ok({ items, nextCursor: nextCursor(deps.pageCursors, where, items, rows.length > limit, (e) => [e.date, e.createdAt.toISOString(), e.id]) });
}
