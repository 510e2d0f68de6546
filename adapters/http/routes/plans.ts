import * as v from 'valibot';
import { clearPlanDay, ensureWeekPlan, getPlan, listPlans, PLAN_RANGE_MAX_DAYS, setPlanDay, type PlanDayView, type PlanView } from '../../../core/plans/plans.js';
import { callerHouseholdAnd, mount, noContent, resource } from '../route.js';
import { IsoDateTime, Uuid, IsoDate, PlanPath } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

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
  'dietary note of the day\'s events by the member\'s name or the guest group. events are ' +
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
  summary: 'Get or create the plan of the week holding a date (adults only)',
  description: `Weeks start on Monday. 200 whether the plan was made now or existed; retry-safe, concurrent calls get the same plan. ${DAY_DOC}`,
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
  summary: 'The day has no dish (adults only)',
  description: 'Clears the dish, the portions override and the note; the day and its events stay.',
  params: PlanDayPath,
  ...noContent('Cleared'),
  errors: PLAN_DAY_ERRORS,
  run: ({ deps, caller, params }) => clearPlanDay(deps, caller.account, params.householdId, params.planId, params.date),
});

export const planRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    ensureWeekPlanRoute,
    listPlansRoute,
    getPlanRoute,
    setPlanDayRoute,
    clearPlanDayRoute,
  ]);

