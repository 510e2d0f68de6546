import * as v from 'valibot';
import { clearLeftovers, leftoversDays, setLeftovers, type LeftoversDay } from '../../../core/plans/leftovers.js';
import { LEFTOVERS_REFUSALS } from '../../../core/plans/leftovers-model.js';
import { mount, noContent, resource } from '../route.js';
import { IsoDate, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';
import { PlanResponse, toPlan } from './plans.js';

const PlanDayPath = v.object({ householdId: Uuid, planId: Uuid, date: IsoDate });
const base = '/api/v1/households/{householdId}/plans/{planId}/days/{date}';

const { route } = resource<ServiceDeps>('Weekly plans');

const LEFTOVERS_DOC =
  'Cook once, eat twice: the day eats the leftovers of an earlier planned day (leftoversOf) of the same or the previous week. ' +
  'The day then has no dish of its own: it cooks and buys nothing, and its cooking time does not matter; the cooking day is made ' +
  "for its own portions and this day's (members, guests and absences, or its portions override): its portions and the week's " +
  "shopping list count them, and its leftoversFor names this day. Leftovers keep the household's leftoversKeepDays (PATCH the household; " +
  '1 to 7, default 3): one rule for every dish, not a rule per food group. Refused with 409, nothing written: leftovers_not_later (leftoversOf ' +
  'is not before the day), leftovers_kept_too_long (more than leftoversKeepDays after it), leftovers_no_dish (the cooking day has no dish ' +
  'of its own, is leftovers itself, or nobody eats at home then), leftovers_day_closed (nobody eats at home on this day: EatingOut, Travel), ' +
  "avoid_conflict (the dish breaks an avoid of this day's guests, as setting it here would). A dish this day had is taken off; its " +
  "portions override and note stay. When the cooking day's dish changes (another dish, none, or moved away), its leftovers days are " +
  'cleared in the same write: they never become another dish. Leftovers already set stay when leftoversKeepDays changes.';

const setLeftoversRoute = route({
  method: 'PUT',
  path: `${base}/leftovers`,
  operationId: 'setLeftovers',
  auth: 'session-or-token',
  summary: 'The day eats the leftovers of an earlier day (adults only)',
  description: `${LEFTOVERS_DOC} Answers the plan. Retry-safe (a PUT).`,
  params: PlanDayPath,
  body: v.object({ leftoversOf: IsoDate }),
  responses: { 200: { description: 'The plan with the leftovers', schema: PlanResponse } },
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week', 'leftovers-refused', 'avoid-conflict'],
  run: ({ deps, caller, params, body }) => setLeftovers(deps, caller.account, params.householdId, params.planId, params.date, body.leftoversOf),
  reply: toPlan,
});

const clearLeftoversRoute = route({
  method: 'DELETE',
  path: `${base}/leftovers`,
  operationId: 'clearLeftovers',
  auth: 'session-or-token',
  summary: 'The day no longer eats leftovers (adults only)',
  description: "The day has no dish then (choose one for it); the cooking day is made for its own portions again. A day that is not leftovers stays as it is. Retry-safe.",
  params: PlanDayPath,
  ...noContent('Cleared'),
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week'],
  run: ({ deps, caller, params }) => clearLeftovers(deps, caller.account, params.householdId, params.planId, params.date),
});

const LeftoversDayResponse = v.object({
  date: v.string(),
  planId: v.nullable(Uuid),
  recipeId: v.nullable(Uuid),
  refusal: v.nullable(v.picklist([...LEFTOVERS_REFUSALS, 'avoid-conflict'] as const)),
  avoid: v.nullable(v.string()),
});
const toLeftoversDay = (d: LeftoversDay): v.InferOutput<typeof LeftoversDayResponse> => ({ ...d });

const leftoversDaysRoute = route({
  method: 'GET',
  path: `${base}/leftovers-days`,
  operationId: 'getLeftoversDays',
  auth: 'session-or-token',
  summary: "The days that may eat this day's leftovers (adults only)",
  description:
    "The days after this one, up to the household's leftoversKeepDays (into the next week), each judged as PUT days/{date}/leftovers with " +
    'this day as leftoversOf would judge it: refusal null means it may; else not-later, kept-too-long, no-dish (this day has no dish ' +
    'to cook double), day-closed or avoid-conflict (avoid names the avoid of that day\'s guests the dish breaks). recipeId is the dish ' +
    'the day has now (leftovers would take it off); planId is its week\'s plan, null when that week has none yet (PUT plans/week/{date} makes it).',
  params: PlanDayPath,
  responses: { 200: { description: 'The later days', schema: v.object({ days: v.array(LeftoversDayResponse) }) } },
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week'],
  run: ({ deps, caller, params }) => leftoversDays(deps, caller.account, params.householdId, params.planId, params.date),
  reply: (days) => ({ days: days.map(toLeftoversDay) }),
});

export const leftoversRoutes = (deps: ServiceDeps) => mount(deps, [setLeftoversRoute, clearLeftoversRoute, leftoversDaysRoute]);
