import createClient from 'openapi-fetch';
import type { operations, paths } from './api/schema';
import { problems } from './problems';

export { ApiProblem, whenSignedOut } from './problems';

/** The service's API, typed from its own OpenAPI document (src/api/schema.d.ts, generated). Same origin: the session cookie goes along. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

type Json<Op extends keyof operations, Status extends number> = operations[Op]['responses'] extends Record<Status, { content: { 'application/json': infer T } }> ? T : never;
export type Me = Json<'login', 200>;
export type Household = Json<'createHousehold', 201>;
export type Plan = Json<'ensureWeekPlan', 200>;
export type PlanDay = Plan['days'][number];
export type Recipe = Json<'createRecipe', 201>;
/** A recipe as lists and pickers show it: no steps, and of its lines only their names. */
export type RecipeSummary = Json<'listRecipeSummaries', 200>['items'][number];
export type MealEvent = Json<'createMealEvent', 201>;
export type Evening = Json<'getPlanEvenings', 200>['days'][number];
export type DayChoices = Json<'getDayChoices', 200>;
export type LeftoversDay = Json<'getLeftoversDays', 200>['days'][number];
export type DayChoice = DayChoices['items'][number];
export type RecipeImportPreview = Json<'previewRecipeImport', 200>;
export type PantryRow = Json<'listInventory', 200>['items'][number];
export type ShoppingList = Json<'getShoppingList', 200>;
export type ShoppingItem = ShoppingList['items'][number];
export type AisleOrder = Json<'getAisleOrder', 200>;
export type Invite = Json<'listInvites', 200>[number];
export type InvitePreview = Json<'previewInvite', 200>;
export type Aisle = AisleOrder['aisles'][number]['aisle'];
export type WeekSuggestion = Json<'suggestWeek', 200>;
export type DaySuggestion = WeekSuggestion['days'][number];
export type SuggestionReason = DaySuggestion['reasons'][number];
export type DinnerRule = Json<'listDinnerRules', 200>['rules'][number];
export type RuleNotServed = WeekSuggestion['rulesNotServed'][number];

api.use(problems);

/** The data of a call's answer (the middleware, web/src/problems.ts, has thrown for any answer that was not a success). */
export const dataOf = async <T>(answer: Promise<{ data?: T }>): Promise<T> => (await answer).data as T;
