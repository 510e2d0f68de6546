import * as v from 'valibot';
import { EMPTY_REASONS, FAVOURITE_TIMES, PICK_REASONS } from '../../../core/plans/planner.js';
import { AI_TIPS_PER_DAY } from '../../../core/plans/planner-ai.js';
import { LITTLE_TIME_MINUTES } from '../../../core/plans/leftovers-planner.js';
import { acceptSuggestions, EATEN_LATELY_DAYS, HISTORY_WEEKS, suggestWeek, type WeekSuggestion } from '../../../core/plans/suggestions.js';
import type { PlanView } from '../../../core/plans/plans.js';
import { householdAi, pauseHouseholdAi, type HouseholdAiView } from '../../../core/plans/ai-pause.js';
import { callerAndHousehold, callerHouseholdAndThenBody, HouseholdPath, mount, resource } from '../route.js';
import { IsoDate, IsoDateTime, PlanPath, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';
import { PlanResponse, toPlan } from './plans.js';
import { DinnerRuleResponse, RULES_DOC, toRule } from './dinner-rules.js';
import { RULE_NOT_SERVED_WHYS, type DayRuleView } from '../../../core/plans/dinner-rule-planner.js';

/** A household's recipe, or one of the shared library's (`library:{id}`). */
const DishId = v.union([Uuid, v.pipe(v.string(), v.maxLength(108), v.regex(/^library:[a-z0-9][a-z0-9-]{0,99}$/, 'a recipe id, or library:{id}'))]);
const Dish = v.object({ date: IsoDate, recipeId: DishId });
const oneEachDate = v.check((days: { date: string; recipeId: string }[]) => new Set(days.map((d) => d.date)).size === days.length, 'each date at most once');

const SuggestRequest = v.object({
  seed: v.optional(v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'at least 0'), v.maxValue(4_294_967_295, 'at most 4294967295'))),
  days: v.optional(v.pipe(v.array(IsoDate), v.maxLength(7, 'at most 7 days'), v.check((d: string[]) => new Set(d).size === d.length, 'each date at most once'))),
  keeping: v.optional(v.pipe(v.array(Dish), v.maxLength(7, 'at most 7 days'), oneEachDate)),
  ai: v.optional(v.boolean()),
});
const AcceptRequest = v.object({
  days: v.pipe(v.array(v.object({ ...Dish.entries, leftoversOf: v.optional(IsoDate) })), v.minLength(1, 'at least 1 day'), v.maxLength(7, 'at most 7 days'), oneEachDate),
});

const Reason = v.picklist([...PICK_REASONS, ...EMPTY_REASONS]);
const DaySuggestionResponse = v.object({
  date: v.string(),
  recipeId: v.nullable(v.string()),
  recipeTitle: v.nullable(v.string()),
  reasons: v.array(Reason),
  servingNotes: v.array(v.string()),
  portions: v.number(),
  cookingMinutes: v.nullable(v.number()),
  recipeMinutes: v.nullable(v.number()),
  estimatedPrice: v.nullable(v.number()),
  pantryFoods: v.array(v.string()),
  lastEatenOn: v.pipe(
    v.nullable(v.string()),
    v.description(`The newest day of the household's plans of the last historyWeeks weeks (before the week planned) that had the dish (NotEatenSince says how long ago, counted from the day proposed); null when none had it, or with no dish.`),
  ),
  timesEaten: v.pipe(v.number(), v.description('On how many days of those weeks the dish was on the plan (Favourite says it); 0 with no dish.')),
  historyWeeks: v.pipe(v.number(), v.description(`How many weeks back the household's plans are read for the dish's history: ${HISTORY_WEEKS}.`)),
  leftoversOf: v.pipe(
    v.nullable(v.string()),
    v.description('With reason Leftovers: the earlier day of the week whose dish (recipeId) this evening eats as leftovers, cooked double there; recipeMinutes is then null (nothing to cook). Null: the dish is cooked on the day.'),
  ),
  rule: v.pipe(
    v.nullable(
      v.object({
        ...DinnerRuleResponse.entries,
        nth: v.pipe(v.nullable(v.number()), v.description('TagPerWeek: which of the week\'s dishes with the tag this one is (1 of 2); else null.')),
        of: v.pipe(v.nullable(v.number()), v.description('TagPerWeek: how many the week should have; else null.')),
      }),
    ),
    v.description('The dinner rule that put the dish there (reason Rule), or that kept every dish that fits away (reason RuleNotServed); else null.'),
  ),
});
const RuleNotServedResponse = v.object({
  rule: DinnerRuleResponse,
  why: v.pipe(
    v.picklist(RULE_NOT_SERVED_WHYS),
    v.description(
      "DayClosed: the fixed dish's day is closed. BreaksAvoids: the fixed dish breaks an avoid of that day's guests. NotADish: the fixed recipe is another recipe's base, not a dinner. NoTaggedDish: no dish with the tag fits any open day. TooFewDays: not enough open days for the tag's count.",
    ),
  ),
  date: v.pipe(v.nullable(v.string()), v.description('The fixed dish\'s day; null for a tag\'s count.')),
  served: v.pipe(v.number(), v.description('How many dishes of the rule the week holds with the proposal.')),
  wanted: v.pipe(v.number(), v.description('How many it should hold.')),
});
const SuggestionResponse = v.object({
  planId: Uuid,
  weekStart: v.string(),
  seed: v.number(),
  days: v.array(DaySuggestionResponse),
  estimatedPrice: v.nullable(v.number()),
  usualPrice: v.nullable(v.number()),
  aiNotes: v.boolean(),
  rulesNotServed: v.pipe(v.array(RuleNotServedResponse), v.description("The household's dinner rules the proposed week cannot serve, and why.")),
});

const HouseholdAiResponse = v.object({
  householdId: Uuid,
  configured: v.boolean(),
  pausedUntil: v.nullable(IsoDateTime),
  callsThisMonth: v.number(),
  monthlyCalls: v.nullable(v.number()),
});
const PauseAiRequest = v.object({ pausedUntil: v.nullable(IsoDateTime) });
const toHouseholdAi = (a: HouseholdAiView): v.InferOutput<typeof HouseholdAiResponse> => ({
  householdId: a.householdId,
  configured: a.configured,
  pausedUntil: a.pausedUntil?.toISOString() ?? null,
  callsThisMonth: a.callsThisMonth,
  monthlyCalls: a.monthlyCalls,
});

const toSuggestion = (s: WeekSuggestion): v.InferOutput<typeof SuggestionResponse> => ({
  planId: s.planId,
  weekStart: s.weekStart,
  seed: s.seed,
  days: s.days.map((d) => ({ ...d, reasons: [...d.reasons], servingNotes: [...d.servingNotes], pantryFoods: [...d.pantryFoods], rule: d.rule === null ? null : dayRule(d.rule) })),
  estimatedPrice: s.estimatedPrice,
  usualPrice: s.usualPrice,
  aiNotes: s.aiNotes,
  rulesNotServed: s.rulesNotServed.map((n) => ({ ...n, rule: toRule(n.rule) })),
});
const dayRule = (r: DayRuleView) => ({ ...toRule(r), nth: r.nth, of: r.of });

const SUGGEST_DOC =
  'Proposes a dinner for every day of the week that is cooked at home and has no dish yet, or for exactly the days named ' +
  '(a named day nobody eats at home gets none, reason DayClosed). Nothing is written. The same plan, events, recipes, ' +
  'pantry, prices and seed give the same answer; another seed with days: [date] is "another one" for that day, and keeping ' +
  'names the dishes shown for other days that should not come again. The hard rules: a dish is a candidate only when none ' +
  "of its ingredients, nor its bases', matches an avoid of the day's guests (the same gate as PUT days/{date}: words, " +
  "compounds, inflections, the EU's 14 allergen groups in nb and en), and only when it is done within the day's cooking " +
  'time: the smallest availableCookingMinutes of its events and what a busy evening in the calendar feeds leaves (the ' +
  'family may eat until the end of the dinner hour, so an entry under way at the serving time leaves the minutes from its ' +
  'end to then). A recipe whose time is unknown never lands on a day whose time is limited. A day with no candidate gets ' +
  'recipeId null and one reason: NoRecipes, AvoidsRuleOutAll, NothingFitsCookingTime or NothingFitsBoth. Then, in order: ' +
  'no dish twice in the week (RepeatsThisWeek when nothing else fits), the household\'s dislikes (Disliked when nothing ' +
  `else fits), nothing eaten in the last ${EATEN_LATELY_DAYS} days (EatenLately when nothing else fits); among the rest, ` +
  'pantry food losing confidence is used first (UsesPantry, pantryFoods), the estimated price stays near the household\'s ' +
  'usual (NearUsualPrice: its planned dinners of the last eight weeks, else the published dinner price per portion; prices ' +
  "are the household's chains' list prices, or what its receipts of the last 90 days show it paid; none while the price " +
  'catalogue is off), and a draw by the seed. Candidates are the household\'s recipes that no other recipe uses as its ' +
  'base, and, when the household has libraryRecipesOn, the shared library\'s recipes it has no recipe of the same title for ' +
  `(recipeId library:{id}, reason FromLibrary). What the household's plans of the last ${HISTORY_WEEKS} weeks before this one ` +
  'say of a dish is added to every pick it describes, whatever else is said, after the reasons above and before what was ' +
  `given up: Favourite when it was on the plan on at least ${FAVOURITE_TIMES} days of those weeks (timesEaten); then ` +
  `NotEatenSince when it was on them, but not in the last ${EATEN_LATELY_DAYS} days (lastEatenOn), or NotEatenInWeeks ` +
  'when a household recipe was on none of them (historyWeeks); neither of these two on a dish that repeats this week. So ' +
  'every day given a dish carries at least one reason: a household recipe one of EatenLately, NotEatenSince, ' +
  'NotEatenInWeeks or RepeatsThisWeek, a library dish FromLibrary. They say, and do not rank: the order above is all. ' +
  "Portions are the plan's. servingNotes are in the household's language: the " +
  "avoids, the day's dietary notes, the busy evening, and, when the operator has configured an AI and ai is not false, up " +
  `to ${AI_TIPS_PER_DAY} tips of the AI per day (never one naming an avoid). One AI call per request counts against the ` +
  "household's monthly quota: past it 429 ai_quota_used with Retry-After in seconds until its next month; a household " +
  'whose AI is paused gets 429 ai_paused with Retry-After as an HTTP date. If the AI fails, the notes are written by rule. ' +
  'Without an AI configured, no 429 for AI is ever given. Proposals count per household in the rate class ' +
  'planner-per-household (240 an hour by default): past it 429 rate_limited with Retry-After. An evening with little time (under ' +
  `${LITTLE_TIME_MINUTES} minutes to cook, or too few for any recipe) gets leftovers instead, when an earlier dish of the week (planned, ` +
  "or proposed for a day with time) can stretch to it: within the household's leftoversKeepDays, none of the evening's guests' " +
  'avoids broken, each dish cooked double for one evening at most, the nearest first (reason Leftovers, leftoversOf names the cooking ' +
  'day). Days already eating leftovers are not proposed for. The household\'s dinner ' +
  'rules shape the proposal before all else save the hard rules: a day a rule put its dish on says Rule first and names ' +
  'the rule (rule), a day whose every fitting dish a Spacing rule keeps away gets none (RuleNotServed, naming it), and ' +
  `rulesNotServed says each rule the week cannot serve. ${RULES_DOC}`;

const ACCEPT_DOC =
  "Writes the kept days' dishes in one transaction (each day keeps its portions override and note) and answers the plan. " +
  'Each dish is checked against the day\'s avoids again: 409 avoid_conflict names the first that breaks one, and nothing ' +
  'is written. A library dish (library:{id}) is first added to the household\'s recipes, with its credit, unless a recipe ' +
  'of the same title is there (then that one is used); 404 recipe_not_found while the household has the library off. The ' +
  'other members with a login hear of it by push (week-planned, under the runDone switch). A day sent with leftoversOf eats the ' +
  'leftovers of that earlier day instead of a dish of its own (PUT days/{date}/leftovers): recipeId is the dish that day has once ' +
  'saved (accepted with it, or already planned), else 409 leftovers_no_dish; the other leftovers_* refusals as that route. Retry-safe.';

const { route } = resource<ServiceDeps>('Weekly plans');

const base = '/api/v1/households/{householdId}/plans/{planId}/suggestions';

/**
 * What the operator's two routes of a household's AI share: any household of the path, member or not, for a platform
 * admin only, answered with the household's AI.
 */
const OPERATOR_HOUSEHOLD_AI = {
  tag: 'Operator',
  params: HouseholdPath,
  responses: { 200: { description: "The household's AI", schema: HouseholdAiResponse } },
  errors: ['platform-admin-only', 'household-not-found'] as const,
  reply: toHouseholdAi,
};

const GET_HOUSEHOLD_AI_DOC =
  "For the operator: whether an AI is configured, the household's pause, and the calls counted in its current month (in its time zone) against AI_MONTHLY_CALLS. Only a login with a confirmed address listed in ADMIN_EMAILS (else 403 platform_admin_only); any household, member or not.";
const PAUSE_HOUSEHOLD_AI_DOC =
  "pausedUntil: until then the household's planner requests that ask for AI answer 429 ai_paused with Retry-After as that time (an HTTP date); null, or a time already past, lifts the pause. Retry-safe. Platform admins only (403 platform_admin_only).";

const suggestWeekRoute = route({
  method: 'POST',
  path: base,
  operationId: 'suggestWeek',
  auth: 'session-or-token',
  summary: 'Suggest dinners for the week (adults only); nothing is written',
  description: SUGGEST_DOC,
  params: PlanPath,
  body: SuggestRequest,
  responses: { 200: { description: 'The proposal', schema: SuggestionResponse } },
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week', 'ai-quota-used', 'ai-paused', 'planner-throttled'],
  problems: { rate_limited: 429 },
  run: callerHouseholdAndThenBody('planId', suggestWeek),
  reply: toSuggestion,
});

const acceptSuggestionsRoute = route({
  method: 'POST',
  path: `${base}/accept`,
  operationId: 'acceptSuggestions',
  auth: 'session-or-token',
  summary: 'Save suggested dinners to the week (adults only)',
  description: ACCEPT_DOC,
  params: PlanPath,
  body: AcceptRequest,
  responses: { 200: { description: 'The plan as saved', schema: PlanResponse } },
  errors: ['household-not-found', 'adults-only', 'plan-not-found', 'date-outside-week', 'recipe-not-found', 'avoid-conflict', 'leftovers-refused'],
  run: ({ deps, caller, params, body }) => acceptSuggestions(deps, caller.account, params.householdId, params.planId, body),
  reply: (value) => toPlan(value as PlanView),
});

const getHouseholdAiRoute = route({
  method: 'GET',
  path: '/api/v1/admin/households/{householdId}/ai',
  operationId: 'getHouseholdAi',
  summary: "A household's AI: its pause and this month's calls (platform admins)",
  description: GET_HOUSEHOLD_AI_DOC,
  ...OPERATOR_HOUSEHOLD_AI,
  run: callerAndHousehold(householdAi),
});

const pauseHouseholdAiRoute = route({
  method: 'PUT',
  path: '/api/v1/admin/households/{householdId}/ai',
  operationId: 'pauseHouseholdAi',
  summary: "Pause a household's AI until a time, or lift the pause (platform admins)",
  description: PAUSE_HOUSEHOLD_AI_DOC,
  ...OPERATOR_HOUSEHOLD_AI,
  body: PauseAiRequest,
  run: ({ deps, caller, params, body }) => pauseHouseholdAi(deps, caller.account, params.householdId, body.pausedUntil === null ? null : new Date(body.pausedUntil)),
});

export const plannerRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    suggestWeekRoute,
    acceptSuggestionsRoute,
    getHouseholdAiRoute,
    pauseHouseholdAiRoute,
  ]);

