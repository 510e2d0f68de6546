import * as v from 'valibot';
import { addDinnerRule, DINNER_RULE_KINDS, DINNER_RULE_LIMITS, listDinnerRules, removeDinnerRule, replaceDinnerRule, WEEKDAYS, type DinnerRuleDeps, type DinnerRuleList, type DinnerRuleSpec, type DinnerRuleView } from '../../../core/plans/dinner-rules.js';
import { callerAndHousehold, callerHouseholdAnd, callerHouseholdAndBody, created, mount, noContent, resource } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';

const PATH = '/api/v1/households/{householdId}/dinner-rules';
const RulePath = v.object({ householdId: Uuid, ruleId: Uuid });
const L = DINNER_RULE_LIMITS;

const Weekday = v.pipe(v.picklist(WEEKDAYS), v.description('The day of the week, Monday first.'));
const FixedDish = v.object({
  kind: v.literal('FixedDish'),
  weekday: Weekday,
  recipeId: v.pipe(Uuid, v.description('A recipe of the household: the dish of that weekday.')),
});
const TagPerWeek = v.object({
  kind: v.literal('TagPerWeek'),
  tag: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(L.tagMax, `at most ${L.tagMax} characters`), v.description("A tag of at least one of the household's recipes (matched as recipes keep tags: lower case, spaces tidied).")),
  timesPerWeek: v.pipe(v.number(), v.integer('a whole number'), v.minValue(L.timesPerWeekMin, `at least ${L.timesPerWeekMin}`), v.maxValue(L.timesPerWeekMax, `at most ${L.timesPerWeekMax}`)),
});
const Spacing = v.object({
  kind: v.literal('Spacing'),
  days: v.pipe(v.number(), v.integer('a whole number'), v.minValue(L.spacingDaysMin, `at least ${L.spacingDaysMin}`), v.maxValue(L.spacingDaysMax, `at most ${L.spacingDaysMax}`), v.description('A dish is not proposed again until this many days after a day it is on (7: not within a week).')),
  recipeId: v.pipe(v.nullable(Uuid), v.description('The one recipe the rule is for; null: every dish.')),
});
const RuleRequest = v.pipe(v.variant('kind', [FixedDish, TagPerWeek, Spacing]), v.description('A rule of one kind, with the fields of that kind.'));

export const DinnerRuleResponse = v.object({
  id: Uuid,
  kind: v.picklist(DINNER_RULE_KINDS),
  weekday: v.pipe(v.nullable(v.picklist(WEEKDAYS)), v.description('FixedDish: its weekday; else null.')),
  recipeId: v.pipe(v.nullable(Uuid), v.description('FixedDish: its dish; Spacing: the one recipe it is for, or null for every dish; TagPerWeek: null.')),
  recipeTitle: v.pipe(v.nullable(v.string()), v.description("The title of recipeId's recipe; null with no recipe.")),
  tag: v.pipe(v.nullable(v.string()), v.description('TagPerWeek: its tag; else null.')),
  timesPerWeek: v.pipe(v.nullable(v.number()), v.description('TagPerWeek: how many dishes with the tag a week should have; else null.')),
  days: v.pipe(v.nullable(v.number()), v.description('Spacing: its days; else null.')),
  createdAt: IsoDateTime,
});
const DinnerRuleListResponse = v.object({
  rules: v.pipe(v.array(DinnerRuleResponse), v.description('Oldest first.')),
  max: v.pipe(v.number(), v.description(`The most rules a household keeps (${L.rules}).`)),
});

export const toRule = (r: DinnerRuleView): v.InferOutput<typeof DinnerRuleResponse> => ({ ...r, createdAt: r.createdAt.toISOString() });
const toList = (l: DinnerRuleList): v.InferOutput<typeof DinnerRuleListResponse> => ({ rules: l.rules.map(toRule), max: l.max });

export const RULES_DOC =
  "The household's dinner rules, three kinds. FixedDish: a recipe on a weekday (\"taco on Fridays\"), at most one per " +
  'weekday (a second is 409 dinner_rule_weekday_taken). A week whose plan is made after the rule (PUT plans/week/{date}) ' +
  'opens with the dish on that weekday, from today on, unless an event closes the day (EatingOut, Travel) or the dish ' +
  "breaks an avoid of the day's guests; weeks that have a plan already are not changed. The planner (POST " +
  'plans/{planId}/suggestions) keeps the dish on its weekday when that day is asked for, under the same two conditions. ' +
  `TagPerWeek: dishes with a tag ${L.timesPerWeekMin} to ${L.timesPerWeekMax} times a week ("fish twice a week"); the tag must ` +
  "be on one of the household's recipes (else 422 dinner_rule_tag_unknown). The planner counts the week's dishes with " +
  'the tag and proposes the missing ones on open days where a tagged dish fits (the avoids, the cooking time, the spacing ' +
  `rules). Spacing: no dish proposed again within ${L.spacingDaysMin} to ${L.spacingDaysMax} days of a day it is on (the weeks ` +
  'the planner reads, this week, and the dishes proposed), for one recipe (recipeId) or for every dish (recipeId null); ' +
  'a fixed dish is not kept away by it. Closed days and avoids always win over the rules. A recipe named must be the ' +
  `household's (else 422 dinner_rule_recipe_unknown); a rule naming a recipe goes when the recipe is deleted. At most ${L.rules} ` +
  'rules (409 dinner_rule_limit). docs/dinner-rules.md says more.';

const { householdRoute, route } = resource<DinnerRuleDeps>('Dinner rules');

const listRoute = householdRoute({
  method: 'GET',
  path: PATH,
  operationId: 'listDinnerRules',
  auth: 'session-or-token',
  summary: "The household's dinner rules",
  description: `Any member, Junior too. ${RULES_DOC}`,
  responses: { 200: { description: 'The rules', schema: DinnerRuleListResponse } },
  run: callerAndHousehold(listDinnerRules),
  reply: toList,
});

const addRoute = householdRoute({
  method: 'POST',
  path: PATH,
  operationId: 'addDinnerRule',
  auth: 'session-or-token',
  summary: 'Add a dinner rule (adults only)',
  description: `Adults only (a Junior gets 403 adults_only). ${RULES_DOC}`,
  body: RuleRequest,
  ...created('The rule as kept', DinnerRuleResponse),
  errors: ['adults-only', 'dinner-rule-recipe-unknown', 'dinner-rule-tag-unknown', 'dinner-rule-weekday-taken', 'dinner-rule-limit'],
  run: callerHouseholdAndBody((deps: DinnerRuleDeps, account, householdId, body: DinnerRuleSpec) => addDinnerRule(deps, account, householdId, body)),
  reply: toRule,
});

const replaceRoute = route({
  method: 'PUT',
  path: `${PATH}/{ruleId}`,
  operationId: 'replaceDinnerRule',
  auth: 'session-or-token',
  summary: 'Change a dinner rule (adults only)',
  description: `Adults only. The rule is written anew, of any kind (its id and createdAt stay). ${RULES_DOC}`,
  params: RulePath,
  body: RuleRequest,
  responses: { 200: { description: 'The rule as kept', schema: DinnerRuleResponse } },
  errors: ['household-not-found', 'adults-only', 'dinner-rule-not-found', 'dinner-rule-recipe-unknown', 'dinner-rule-tag-unknown', 'dinner-rule-weekday-taken'],
  run: ({ deps, caller, params, body }) => replaceDinnerRule(deps, caller.account, params.householdId, params.ruleId, body),
  reply: toRule,
});

const removeRoute = route({
  method: 'DELETE',
  path: `${PATH}/{ruleId}`,
  operationId: 'removeDinnerRule',
  auth: 'session-or-token',
  summary: 'Remove a dinner rule (adults only)',
  description: 'Adults only. Plans keep the dishes the rule put there; weeks made from now on and proposals no longer follow it.',
  params: RulePath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'adults-only', 'dinner-rule-not-found'],
  run: callerHouseholdAnd('ruleId', removeDinnerRule),
});

export const dinnerRuleRoutes = (deps: DinnerRuleDeps) => mount(deps, [listRoute, addRoute, replaceRoute, removeRoute]);
