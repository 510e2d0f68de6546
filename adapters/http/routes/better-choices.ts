import * as v from 'valibot';
import { CHOICE_BASES, CHOICE_REASONS } from '../../../core/shopping/better-choices.js';
import { getBetterChoices, type BetterChoicesAnswer } from '../../../core/shopping/get-better-choices.js';
import { callerHouseholdAnd, resource } from '../route.js';
import { PlanPath, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';
import { LIST_PATH } from './shopping-list.js';

const BetterChoice = v.object({
  productName: v.string(),
  ean: v.nullable(v.string()),
  foodKey: v.string(),
  novaGroup: v.picklist([1, 2, 3]),
  nutriScore: v.nullable(v.picklist(['a', 'b', 'c', 'd', 'e'])),
  price: v.nullable(v.number()),
  chain: v.nullable(v.string()),
  reason: v.picklist(CHOICE_REASONS),
});
const BetterChoicesResponse = v.object({
  weeklyPlanId: Uuid,
  lines: v.array(v.object({ foodKey: v.string(), basis: v.picklist(CHOICE_BASES), productName: v.string(), choices: v.array(BetterChoice) })),
});

const toBetterChoices = (a: BetterChoicesAnswer): v.InferOutput<typeof BetterChoicesResponse> => ({
  weeklyPlanId: a.weeklyPlanId,
  lines: a.lines.map((l) => ({
    foodKey: l.foodKey,
    basis: l.basis,
    productName: l.productName,
    choices: l.choices.map((c) => ({
      productName: c.productName,
      ean: c.ean,
      foodKey: c.foodKey,
      novaGroup: c.novaGroup as 1 | 2 | 3,
      nutriScore: c.nutriScore,
      price: c.price,
      chain: c.chain,
      reason: c.reason,
    })),
  })),
});

const BETTER_CHOICES_DOC =
  'For each line still to buy (status Buy; one answer per food) whose suggested product is NOVA 4 (basis ' +
  'SuggestedProduct, productName is that product) or, with no product suggested, whose food mostly is (more than ' +
  'half of the food table\'s products of the food are NOVA 4; basis FoodMostlyUltraProcessed, productName is the ' +
  'line\'s name): at most three NOVA 1-3 products of the same food or of another food of its food-table group. ' +
  'Order: products on the household\'s receipts of the last 365 days, then products listed at one of the ' +
  'household\'s chains, then the same food before another of its group, then lower NOVA group, then lower price ' +
  '(unpriced last), then product id. reason names the first of these a choice meets: BoughtBefore, AtYourChain, ' +
  'SameFood, SameGroup. price and chain: the cheapest list price at one of the household\'s chains, else at any ' +
  'chain; null when no chain lists it. Lines without a choice are left out. The list is derived as GET ' +
  'shopping-list derives it.';

/** GET shopping-list/better-choices; listed among the shopping routes. */
export const getBetterChoicesRoute = resource<ServiceDeps>('Shopping list').route({
  method: 'GET',
  path: `${LIST_PATH}/better-choices`,
  operationId: 'getBetterChoices',
  auth: 'session-or-token',
  summary: 'Less processed choices for the list\'s heavily processed lines',
  description: BETTER_CHOICES_DOC,
  params: PlanPath,
  responses: { 200: { description: 'The choices', schema: BetterChoicesResponse } },
  errors: ['household-not-found', 'plan-not-found'],
  run: callerHouseholdAnd('planId', getBetterChoices),
  reply: toBetterChoices,
});
