import * as v from 'valibot';
import { createEvent, deleteEvent, listEvents, replaceEvent } from '../../../core/events/events.js';
import { createRun, deleteRun, editRun, type RunSelection } from '../../../core/events/runs.js';
import {
  AVOID_MAX_LENGTH,
  AVOIDS_MAX,
  EVENTS_PAGE_DEFAULT,
  EVENTS_PAGE_MAX,
  GUEST_TYPES,
  JUNIOR_WINDOW_DAYS,
  MEAL_EVENT_TYPES,
  RUN_MAX_DAYS,
  type MealEvent,
  type MealEventFields,
} from '../../../core/events/types.js';
import { callerHouseholdAnd, created, mount, noContent, resource } from '../route.js';
import { IsoDateTime, Uuid, IsoDate } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

const Text = (max: number) => v.nullable(v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`)));

const Avoid = v.pipe(
  v.string(),
  v.maxLength(AVOID_MAX_LENGTH, `at most ${AVOID_MAX_LENGTH} characters`),
  v.check((w) => w.trim().length > 0, 'must not be blank'),
);
const GuestGroupRequest = v.object({
  guestType: v.picklist(GUEST_TYPES),
  guestCount: v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(1000, 'at most 1000')),
  dietaryNotes: Text(500),
  avoids: v.optional(v.nullable(v.pipe(v.array(Avoid), v.maxLength(AVOIDS_MAX, `at most ${AVOIDS_MAX} avoids`)))),
});
const MemberAttendanceRequest = v.object({
  householdMemberId: Uuid,
  isPresent: v.boolean(),
  dietaryNotes: Text(500),
});
const fieldEntries = {
  eventType: v.picklist(MEAL_EVENT_TYPES),
  servingTime: v.nullable(v.pipe(v.string(), v.maxLength(5, 'HH:MM'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59'))),
  availableCookingMinutes: v.nullable(v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'at least 0'), v.maxValue(1440, 'at most 1440'))),
  notes: Text(2000),
  guests: v.nullable(v.pipe(v.array(GuestGroupRequest), v.maxLength(50, 'at most 50 guest groups'))),
  memberAttendance: v.nullable(v.pipe(v.array(MemberAttendanceRequest), v.maxLength(100, 'at most 100 rows'))),
};
/** When the change's avoids break a planned dish: clear the dish (true) instead of being refused. */
const replaceDish = { replaceDish: v.optional(v.boolean()) };
const MealEventRequest = v.object({ date: IsoDate, ...fieldEntries });
const MealEventChangeRequest = v.object({ date: IsoDate, ...fieldEntries, ...replaceDish });
const CreateMealEventRunRequest = v.object({ from: IsoDate, through: IsoDate, ...fieldEntries, ...replaceDish });
const UpdateMealEventRunRequest = v.object({
  ids: v.pipe(v.array(Uuid), v.minLength(1, 'at least one id'), v.maxLength(100, 'at most 100 ids')),
  days: v.pipe(v.array(MealEventRequest), v.maxLength(100, 'at most 100 days')),
  ...replaceDish,
});
const AVOID_DOC =
  "Guests' avoids bind the whole table that day: when a day the change touches has a planned dish one of whose " +
  'ingredients (or those of the base recipes it uses; optional ones too) matches an avoid of that day once the change is ' +
  'made (words, compounds and inflections in nb and en, and the EU\'s 14 allergen groups: core/kernel/avoids.ts), the change ' +
  'is refused with 409 avoid_conflict naming date, recipeId, recipeTitle, avoid and ingredient, and nothing is written; ' +
  'with replaceDish: true it is written and each such day loses its dish (keeping its portions override and note).';

const MealEventParticipantResponse = v.object({
  id: Uuid,
  householdMemberId: v.nullable(Uuid),
  isPresent: v.boolean(),
  guestType: v.nullable(v.picklist(GUEST_TYPES)),
  guestCount: v.number(),
  dietaryNotes: v.nullable(v.string()),
  avoids: v.array(v.string()),
});
const MealEventResponse = v.object({
  id: Uuid,
  householdId: Uuid,
  date: v.string(),
  eventType: v.picklist(MEAL_EVENT_TYPES),
  servingTime: v.nullable(v.string()),
  availableCookingMinutes: v.nullable(v.number()),
  notes: v.nullable(v.string()),
  participants: v.array(MealEventParticipantResponse),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
const PagedMealEventResponse = v.object({ items: v.array(MealEventResponse), nextCursor: v.nullable(v.string()), total: v.null() });

const EventPath = v.object({ householdId: Uuid, eventId: Uuid });
const ListQuery = v.object({
  from: v.optional(IsoDate),
  to: v.optional(IsoDate),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2048, 'at most 2048 characters'))),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'a whole number'), v.transform(Number), v.minValue(1, 'at least 1'), v.maxValue(EVENTS_PAGE_MAX, `at most ${EVENTS_PAGE_MAX}`)),
  ),
});
// A repeated query parameter arrives as an array, a single one as a string.
const DeleteRunQuery = v.object({
  type: v.optional(v.picklist(MEAL_EVENT_TYPES)),
  from: v.optional(IsoDate),
  through: v.optional(IsoDate),
  ids: v.optional(v.union([v.pipe(Uuid, v.transform((id) => [id])), v.pipe(v.array(Uuid), v.maxLength(100, 'at most 100 ids'))])),
});

type FieldsBody = { [K in keyof typeof fieldEntries]: v.InferOutput<(typeof fieldEntries)[K]> };

const toFields = (b: FieldsBody): MealEventFields => ({
  eventType: b.eventType,
  servingTime: b.servingTime,
  availableCookingMinutes: b.availableCookingMinutes,
  notes: b.notes,
  guests: (b.guests ?? []).map((g) => ({ guestType: g.guestType, guestCount: g.guestCount, dietaryNotes: g.dietaryNotes, avoids: g.avoids ?? [] })),
  memberAttendance: b.memberAttendance ?? [],
});

const toResponse = (e: MealEvent): v.InferOutput<typeof MealEventResponse> => ({
  id: e.id,
  householdId: e.householdId,
  date: e.date,
  eventType: e.eventType,
  servingTime: e.servingTime,
  availableCookingMinutes: e.availableCookingMinutes,
  notes: e.notes,
  participants: e.participants.map((p) => ({
    id: p.id,
    householdMemberId: p.householdMemberId,
    isPresent: p.isPresent,
    guestType: p.guestType,
    guestCount: p.guestCount,
    dietaryNotes: p.dietaryNotes,
    avoids: [...p.avoids],
  })),
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

const SHAPE_DOC =
  'Participants: one row per memberAttendance entry (householdMemberId set, guestType null, guestCount 0), then one per ' +
  'guest group (householdMemberId null, isPresent true), in the order sent. guests and memberAttendance null mean none; ' +
  `avoids omitted or null mean none. Each avoid is a word in the household's own words, stored trimmed: a blank one is 400 ` +
  `validation_failed, one over ${AVOID_MAX_LENGTH} characters or more than ${AVOIDS_MAX} on a group is 400 value_too_long. ` +
  'A householdMemberId that is not a member of this household, or one named twice, is 400 validation_failed. ' +
  'An event of type Guests, or any event with guest groups, marks the week\'s shopping list stale.';
const JUNIOR_DOC =
  'A Junior may write only PersonAbsent or PersonPresent for her own member row: exactly one memberAttendance entry (hers), ' +
  `servingTime, availableCookingMinutes and notes null, no guests, and a date from today through today + ${JUNIOR_WINDOW_DAYS} days ` +
  "in the household's time zone (both included, past dates refused); anything else from a Junior is 403 junior_forbidden.";

const { route, handledHouseholdRoute, householdRoute } = resource<ServiceDeps>('Meal events');

const base = '/api/v1/households/{householdId}/events';

const LIST_MEAL_EVENTS_DOC =
  'Any member reads. Ordered by date, then createdAt, then id. from and to are inclusive and optional (to before from is 400). ' +
  `limit 1 to ${EVENTS_PAGE_MAX}, default ${EVENTS_PAGE_DEFAULT}. nextCursor is null on the last page; pass it back as cursor with the same ` +
  'from and to. Cursors are opaque and sealed: one the service did not hand out for this household and range is 400 validation_failed. ' +
  'total is always null.';
const CREATE_MEAL_EVENT_RUN_DOC =
  `One event per day of [from, through], equal but for the date, written in one transaction (all or none). At most ${RUN_MAX_DAYS} days; ` +
  `more, or through before from, is 400 validation_failed. Rows come back in date order. The shopping list of each week touched is ` +
  `marked stale once. ${SHAPE_DOC} ${AVOID_DOC}`;
const UPDATE_MEAL_EVENT_RUN_DOC =
  'days[i] replaces the event ids[i] whole (as PATCH /events/{eventId} does); every id past the end of days is removed. days longer ' +
  'than ids, or an id named twice, is 400 validation_failed (a run cannot be extended). An id that is not an event of this household ' +
  'is 404 event_not_found with nothing written. One transaction: a concurrent edit of the same run sees all of it or none. ' +
  `Answers the replaced events in the order of days. ${AVOID_DOC}`;
const DELETE_MEAL_EVENT_RUN_DOC =
  'With ids (repeat the parameter): exactly those events are removed; an id not of this household is 404 event_not_found with ' +
  'nothing removed (type, from and through are then ignored). Without ids: type, from and through name the one run of that type ' +
  'lying wholly inside [from, through]; a run is a maximal sequence of consecutive days holding events of the same shape (kind, ' +
  'serving time, cooking minutes, notes and party). None is 404 run_not_found, more than one 409 run_not_unique with nothing ' +
  'removed. Neither ids nor all of type, from and through is 400 validation_failed.';

const listMealEventsRoute = householdRoute({
  method: 'GET',
  path: base,
  operationId: 'listMealEvents',
  auth: 'session-or-token',
  summary: 'The household\'s meal events, earliest first',
  description: LIST_MEAL_EVENTS_DOC,
  query: ListQuery,
  responses: { 200: { description: 'A page of events', schema: PagedMealEventResponse } },
  errors: ['page-cursor-invalid', 'event-invalid'],
  run: ({ deps, caller, params, query }) => listEvents(deps, caller.account, params.householdId, {
    from: query.from ?? null,
    to: query.to ?? null,
    cursor: query.cursor ?? null,
    limit: query.limit ?? EVENTS_PAGE_DEFAULT,
  }),
  reply: (value) => ({ items: value.items.map(toResponse), nextCursor: value.nextCursor, total: null }),
});

const createMealEventRoute = householdRoute({
  method: 'POST',
  path: base,
  operationId: 'createMealEvent',
  auth: 'session-or-token',
  summary: 'Add a meal event (adults; a Junior only her own presence)',
  description: `${JUNIOR_DOC} ${SHAPE_DOC} ${AVOID_DOC}`,
  body: MealEventChangeRequest,
  ...created('Created', MealEventResponse),
  errors: ['junior-forbidden', 'avoid-conflict', 'event-invalid'],
  run: ({ deps, caller, params, body }) => createEvent(deps, caller.account, params.householdId, { ...toFields(body), date: body.date }, { replaceDish: body.replaceDish }),
  headers: (value, { params }) => ({ Location: `/api/v1/households/${params.householdId}/events/${value.id}` }),
  reply: toResponse,
});

const createMealEventRunRoute = householdRoute({
  method: 'POST',
  path: `${base}/run`,
  operationId: 'createMealEventRun',
  auth: 'session-or-token',
  summary: 'Add the same event on every day of a span (adults only)',
  description: CREATE_MEAL_EVENT_RUN_DOC,
  body: CreateMealEventRunRequest,
  ...created('Created, in date order', v.array(MealEventResponse)),
  errors: ['adults-only', 'avoid-conflict', 'event-invalid'],
  run: ({ deps, caller, params, body }) => createRun(deps, caller.account, params.householdId, { ...toFields(body), from: body.from, through: body.through }, { replaceDish: body.replaceDish }),
  reply: (value) => value.map(toResponse),
});

const updateMealEventRunRoute = handledHouseholdRoute({
  method: 'PATCH',
  path: `${base}/run`,
  operationId: 'updateMealEventRun',
  auth: 'session-or-token',
  summary: 'Replace the days of a run, or shorten it (adults only)',
  description: UPDATE_MEAL_EVENT_RUN_DOC,
  body: UpdateMealEventRunRequest,
  responses: { 200: { description: 'The replaced events', schema: v.array(MealEventResponse) } },
  errors: ['adults-only', 'event-not-found', 'avoid-conflict', 'event-invalid'],
  handle: async (ctx, { deps, caller, params, body, refuse }) => {
    const days = body.days.map((d) => ({ ...toFields(d), date: d.date }));
    const result = await editRun(deps, caller.account, params.householdId, { ids: body.ids, days }, { replaceDish: body.replaceDish });
    if (!result.ok) throw refuse(result.error);
    ctx.body = result.value.map(toResponse);
  },
});

const deleteMealEventRunRoute = handledHouseholdRoute({
  method: 'DELETE',
  path: `${base}/run`,
  operationId: 'deleteMealEventRun',
  auth: 'session-or-token',
  summary: 'Remove a run (adults only)',
  description: DELETE_MEAL_EVENT_RUN_DOC,
  query: DeleteRunQuery,
  responses: { 204: { description: 'Removed' } },
  errors: ['adults-only', 'event-not-found', 'run-not-found', 'run-not-unique', 'event-invalid'],
  handle: async (ctx, { deps, caller, params, query, refuse }) => {
    let selection: RunSelection;
    if (query.ids !== undefined) selection = { ids: query.ids };
    else if (query.type !== undefined && query.from !== undefined && query.through !== undefined) {
      selection = { eventType: query.type, from: query.from, through: query.through };
    } else throw refuse({ type: 'event-invalid', detail: 'name the rows by ids, or the run by type, from and through' });
    const result = await deleteRun(deps, caller.account, params.householdId, selection);
    if (!result.ok) throw refuse(result.error);
    ctx.status = 204;
  },
});

const updateMealEventRoute = route({
  method: 'PATCH',
  path: `${base}/{eventId}`,
  operationId: 'updateMealEvent',
  auth: 'session-or-token',
  summary: 'Replace a meal event (adults only)',
  description: `Full replacement: every field is written and the participant list rebuilt (avoids left out are removed; participant ids are new). ${SHAPE_DOC} ${AVOID_DOC}`,
  params: EventPath,
  body: MealEventChangeRequest,
  responses: { 200: { description: 'The event after the change', schema: MealEventResponse } },
  errors: ['household-not-found', 'adults-only', 'event-not-found', 'avoid-conflict', 'event-invalid'],
  run: ({ deps, caller, params, body }) => replaceEvent(deps, caller.account, params.householdId, params.eventId, { ...toFields(body), date: body.date }, { replaceDish: body.replaceDish }),
  reply: toResponse,
});

const deleteMealEventRoute = route({
  method: 'DELETE',
  path: `${base}/{eventId}`,
  operationId: 'deleteMealEvent',
  auth: 'session-or-token',
  summary: 'Remove a meal event (adults; a Junior only her own presence)',
  description: `The day gets its usual table back. ${JUNIOR_DOC} The same rule decides which events she may remove.`,
  params: EventPath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'junior-forbidden', 'event-not-found'],
  run: callerHouseholdAnd('eventId', deleteEvent),
});

export const eventRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    listMealEventsRoute,
    createMealEventRoute,
    createMealEventRunRoute,
    updateMealEventRunRoute,
    deleteMealEventRunRoute,
    updateMealEventRoute,
    deleteMealEventRoute,
  ]);

