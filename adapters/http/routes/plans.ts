import * as v from 'valibot';
import { clearPlanDay, ensureWeekPlan, getPlan, listPlans, moveDish, PLAN_RANGE_MAX_DAYS, setPlanDay, type PlanDayView, type PlanView } from '../../../core/plans/plans.js';
import { CHOICES_MAX, dayChoices, planEvenings, type DayChoices, type Evening } from '../../../core/plans/evenings.js';
import { callerHouseholdAnd, mount, noContent, resource } from '../route.js';
import { IsoDateTime, Uuid, IsoDate, Limit, PlanPath } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

/** A day's leftovers (core/plans/leftovers-model.ts). */
const LeftoversFields = v.object({
  leftoversOf: v.nullable(v.string()),
  leftovers: v.nullable(v.object({ of: v.string(), recipeId: Uuid, recipeTitle: v.string() })),
  leftoversFor: v.array(v.object({ date: v.string(), portions: v.number() })),
});
const toLeftoversFields = (d: PlanDayView): v.InferOutput<typeof LeftoversFields> => ({
  leftoversOf: d.leftoversOf,
  leftovers: d.leftovers ? { ...d.leftovers } : null,
  leftoversFor: d.leftoversFor.map((e) => ({ ...e })),
});

const PlanDayResponse = v.object({
  id: Uuid,
  date: v.string(),
  recipeId: v.nullable(Uuid),
  recipeTitle: v.nullable(v.string()),
  portions: v.number(),
  portionsOverride: v.nullable(v.number()),
  cookedAtHome: v.boolean(),
  events: v.array(Uuid),
  avoids: v.array(v.string()),
  servingNotes: v.array(v.string()),
  note: v.nullable(v.string()),
  ...LeftoversFields.entries,
});
export const PlanResponse = v.object({
  id: Uuid,
  householdId: Uuid,
  weekStart: v.string(),
  days: v.array(PlanDayResponse),
  updatedAt: IsoDateTime,
});
const SetDayRequest = v.object({
  recipeId: v.nullable(Uuid),
  portions: v.nullable(v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(100, 'at most 100'))),
  note: v.nullable(v.pipe(v.string(), v.maxLength(500, 'at most 500 characters'))),
});

const toDay = (d: PlanDayView): v.InferOutput<typeof PlanDayResponse> => ({
  id: d.id,
  date: d.date,
  recipeId: d.recipeId,
  recipeTitle: d.recipeTitle,
  portions: d.portions,
  portionsOverride: d.portionsOverride,
  cookedAtHome: d.cookedAtHome,
  events: [...d.eventIds],
  avoids: [...d.avoids],
  servingNotes: [...d.servingNotes],
  note: d.note,
  ...toLeftoversFields(d),
});
export const toPlan = (p: PlanView): v.InferOutput<typeof PlanResponse> => ({
  id: p.id,
  householdId: p.householdId,
  weekStart: p.weekStart,
  days: p.days.map(toDay),
  updatedAt: p.updatedAt.toISOString(),
});

const DAY_DOC =
  'Each day shows its effective portions: present members (Owner, Adult and Junior count 1) plus guests (Adult 1, Child 0.5, ' +
  'Baby 0) of the day\'s events, rounded up; PersonAbsent removes a member for the day, PersonPresent brings one back; ' +
  'EatingOut or Travel set cookedAtHome false and portions 0. portionsOverride, when set, replaces the derived number on ' +
  'a day cooked at home. avoids lists the guests\' avoids of the day: hard constraints for the whole table. servingNotes, in the ' +
  'household\'s language, says so first ("Hele bordet unngår i dag: …" / "The whole table avoids today: …"), then gives each ' +
  'dietary note of the day\'s events by the member\'s name or the guest group. A day that eats leftovers (leftoversOf, leftovers) has no dish, ' +
  'and a day cooked for leftovers counts their portions in its own (leftoversFor). events are ' +
  'the ids of the day\'s meal events (whether the week\'s shopping list holds back more to buy is the list\'s staleSince and ' +
  'wouldAdd). Derived at every read, so events and member changes show at once.';

const PlanDayPath = v.object({ householdId: Uuid, planId: Uuid, date: IsoDate });

const { route, householdRoute } = resource<ServiceDeps>('Weekly plans');

/** What setting or clearing a day of a plan may fail with, in the order documented. */
const PLAN_DAY_ERRORS = ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week', 'recipe-not-found', 'avoid-conflict'] as const;

const base = '/api/v1/households/{householdId}/plans';

const SET_PLAN_DAY_DOC =
  'recipeId is a recipe of the household (404 recipe_not_found otherwise) or null; portions null means derived, else 1 to 100; ' +
  'a date outside the plan\'s week gives 400 date_outside_week. Full replacement of the day; retry-safe. A dish one of whose ' +
  'ingredients (or those of the base recipes it uses, however deep; optional ones too, since the gate fails closed) matches ' +
  'an avoid of that day\'s guests is refused with 409 avoid_conflict, naming date, recipeId, recipeTitle, avoid and ' +
  'ingredient; nothing is written. Matching: words, compounds and inflections in nb and en, and the EU\'s 14 allergen ' +
  'groups (core/kernel/avoids.ts).';

const ensureWeekPlanRoute = route({
  method: 'PUT',
  path: `${base}/week/{date}`,
  operationId: 'ensureWeekPlan',
  auth: 'session-or-token',
  summary: 'Get or create the plan of the week holding a date (adults only)',
  description: `Weeks start on Monday. 200 whether the plan was made now or existed; retry-safe, concurrent calls get the same plan. The call that makes the plan puts the household's fixed dinners (dinner-rules, kind FixedDish) on their weekdays from today on, unless an event closes the day or the dish breaks an avoid of its guests; a plan made already is never changed by a rule. ${DAY_DOC}`,
  params: v.object({ householdId: Uuid, date: IsoDate }),
  responses: { 200: { description: 'The week\'s plan', schema: PlanResponse } },
  errors: ['household-not-found', 'adults-only'],
  run: callerHouseholdAnd('date', ensureWeekPlan),
  reply: toPlan,
});

const listPlansRoute = householdRoute({
  method: 'GET',
  path: base,
  operationId: 'listPlans',
  auth: 'session-or-token',
  summary: 'Plans of the weeks overlapping a range',
  description: `from defaults to today in the household's time zone, to to four weeks on; at most ${PLAN_RANGE_MAX_DAYS} days. Only weeks with a plan are listed. ${DAY_DOC}`,
  query: v.object({ from: v.optional(IsoDate), to: v.optional(IsoDate) }),
  responses: { 200: { description: 'Plans by week', schema: v.array(PlanResponse) } },
  errors: ['plan-range-invalid'],
  run: ({ deps, caller, params, query }) => listPlans(deps, caller.account, params.householdId, query),
  reply: (value) => value.map(toPlan),
});

const getPlanRoute = route({
  method: 'GET',
  path: `${base}/{planId}`,
  operationId: 'getPlan',
  auth: 'session-or-token',
  summary: 'One plan',
  description: DAY_DOC,
  params: PlanPath,
  responses: { 200: { description: 'The plan', schema: PlanResponse } },
  errors: ['household-not-found', 'plan-not-found'],
  run: callerHouseholdAnd('planId', getPlan),
  reply: toPlan,
});

const setPlanDayRoute = route({
  method: 'PUT',
  path: `${base}/{planId}/days/{date}`,
  operationId: 'setPlanDay',
  auth: 'session-or-token',
  summary: 'Set a day\'s dish, portions and note (adults only)',
  description: SET_PLAN_DAY_DOC,
  params: PlanDayPath,
  body: SetDayRequest,
  responses: { 200: { description: 'The day', schema: PlanDayResponse } },
  errors: PLAN_DAY_ERRORS,
  run: ({ deps, caller, params, body }) => setPlanDay(deps, caller.account, params.householdId, params.planId, params.date, body),
  reply: toDay,
});

const clearPlanDayRoute = route({
  method: 'DELETE',
  path: `${base}/{planId}/days/{date}`,
  operationId: 'clearPlanDay',
  auth: 'session-or-token',
  summary: 'The day has no dish (adults only)',
  description: 'Clears the dish, the portions override and the note; the day and its events stay.',
  params: PlanDayPath,
  ...noContent('Cleared'),
  errors: PLAN_DAY_ERRORS,
  run: ({ deps, caller, params }) => clearPlanDay(deps, caller.account, params.householdId, params.planId, params.date),
});

const EveningResponse = v.object({
  date: v.string(),
  cookedAtHome: v.boolean(),
  cookingMinutes: v.nullable(v.number()),
  busy: v.nullable(v.object({ title: v.string(), endTime: v.nullable(v.string()), minutesLeft: v.number() })),
  avoids: v.array(v.string()),
});
const toEvening = (e: Evening): v.InferOutput<typeof EveningResponse> => ({
  date: e.date,
  cookedAtHome: e.cookedAtHome,
  cookingMinutes: e.cookingMinutes,
  busy: e.busy ? { title: e.busy.title, endTime: e.busy.endTime, minutesLeft: e.busy.minutesLeft } : null,
  avoids: [...e.avoids],
});

const EVENING_DOC =
  'cookingMinutes is the fewest minutes the day leaves to cook, null when nothing limits it: the smallest availableCookingMinutes of ' +
  "the day's events, and what a calendar entry leaves before the dinner hour ends (the household's dinnerTime, or an event's " +
  'servingTime, plus 60 minutes; busy names that entry). The planner judges a dish\'s time by the same numbers.';

const planEveningsRoute = route({
  method: 'GET',
  path: `${base}/{planId}/evenings`,
  operationId: 'getPlanEvenings',
  auth: 'session-or-token',
  summary: 'What each evening of the week leaves to cook',
  description: `Any member. One entry per day of the plan's week, Monday first. ${EVENING_DOC} The web app says on a day when its dish needs longer.`,
  params: PlanPath,
  responses: { 200: { description: 'The evenings', schema: v.object({ days: v.array(EveningResponse) }) } },
  errors: ['household-not-found', 'plan-not-found'],
  run: ({ deps, caller, params }) => planEvenings(deps, caller.account, params.householdId, params.planId),
  reply: (days) => ({ days: days.map(toEvening) }),
});

const DayChoiceResponse = v.object({
  recipeId: Uuid,
  title: v.string(),
  minutes: v.nullable(v.number()),
  tags: v.array(v.string()),
  image: v.nullable(v.object({ href: v.string(), etag: v.string() })),
  fits: v.boolean(),
  tooLong: v.boolean(),
  clash: v.nullable(v.object({ avoid: v.string(), ingredient: v.string() })),
});
const toChoices = (c: DayChoices) => ({
  ...toEvening(c.evening),
  more: c.more,
  items: c.items.map((i): v.InferOutput<typeof DayChoiceResponse> => ({
    recipeId: i.recipe.id,
    title: i.recipe.title,
    minutes: i.minutes,
    tags: [...i.recipe.tags],
    image: i.recipe.image ? { href: `/api/v1/households/${i.recipe.householdId}/recipes/${i.recipe.id}/image`, etag: i.recipe.image.etag } : null,
    fits: !i.tooLong && i.clash === null,
    tooLong: i.tooLong,
    clash: i.clash ? { ...i.clash } : null,
  })),
});

const dayChoicesRoute = route({
  method: 'GET',
  path: `${base}/{planId}/days/{date}/choices`,
  operationId: 'getDayChoices',
  auth: 'session-or-token',
  summary: 'The recipes to choose from for a day, what fits first (adults only)',
  description:
    `The household's recipes whose title, an ingredient or a tag contains q (any case; as GET recipes), at most limit (default and most ${CHOICES_MAX}), ` +
    "each judged against the day as the planner judges it: clash names the first of the day's guests' avoids it breaks (the same gate as PUT days/{date}, " +
    'which refuses it), tooLong says it needs longer than the evening leaves (or its time is unknown on a day whose time is limited). ' +
    `fits is neither. Those that fit come first, then the rest, each by title. more says more recipes matched. ${EVENING_DOC}`,
  params: PlanDayPath,
  query: v.object({ q: v.optional(v.pipe(v.string(), v.maxLength(200, 'at most 200 characters'))), limit: v.optional(Limit(CHOICES_MAX)) }),
  responses: { 200: { description: 'The day and its choices', schema: v.object({ ...EveningResponse.entries, more: v.boolean(), items: v.array(DayChoiceResponse) }) } },
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week'],
  run: ({ deps, caller, params, query }) =>
    dayChoices(deps, caller.account, params.householdId, params.planId, params.date, { q: query.q, limit: query.limit === undefined ? undefined : Number(query.limit) }),
  reply: toChoices,
});

const moveDishRoute = route({
  method: 'POST',
  path: `${base}/{planId}/days/{date}/move`,
  operationId: 'moveDish',
  auth: 'session-or-token',
  summary: "Move a day's dish to another day of the week (adults only)",
  description:
    "The day's dish goes to `to`; the dish `to` had, if any, comes to this day (a swap), in one write. Each day keeps its portions override and note: " +
    "they belong to the evening. Both dishes are checked against the avoids of their new day first: 409 avoid_conflict names the first that breaks one, " +
    'and nothing is written. A day without a dish is 409 no_dish_to_move; `to` outside the week 400 date_outside_week; moving a dish to its own day ' +
    'changes nothing. Answers the plan. Retry-safe with an Idempotency-Key (a repeat without one would swap back).',
  params: PlanDayPath,
  body: v.object({ to: IsoDate }),
  responses: { 200: { description: 'The plan after the move', schema: PlanResponse } },
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week', 'recipe-not-found', 'avoid-conflict', 'no-dish-to-move'],
  run: ({ deps, caller, params, body }) => moveDish(deps, caller.account, params.householdId, params.planId, params.date, body.to),
  reply: toPlan,
});

export const planRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    ensureWeekPlanRoute,
    listPlansRoute,
    getPlanRoute,
    setPlanDayRoute,
    clearPlanDayRoute,
    planEveningsRoute,
    dayChoicesRoute,
    moveDishRoute,
  ]);

