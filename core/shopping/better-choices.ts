import type { FoodProduct, NovaGroup, NutriScore } from '../food/types.js';
import type { LineStatus } from './types.js';

/**
 * Why a line is offered choices: `SuggestedProduct` the list's suggested product is NOVA 4; `FoodMostlyUltraProcessed`
 * no product is suggested (or it left the food table) and more than half of the food table's products of the
 * line's food are NOVA 4.
 */
export const CHOICE_BASES = ['SuggestedProduct', 'FoodMostlyUltraProcessed'] as const;
export type ChoiceBasis = (typeof CHOICE_BASES)[number];

/** The strongest ground a choice was ranked on, in ranking order. */
export const CHOICE_REASONS = ['BoughtBefore', 'AtYourChain', 'SameFood', 'SameGroup'] as const;
export type ChoiceReason = (typeof CHOICE_REASONS)[number];

export const CHOICES_MAX = 3;

export interface BetterChoice {
  readonly productId: string;
  readonly productName: string;
  readonly ean: string | null;
  readonly foodKey: string;
  readonly novaGroup: NovaGroup;
  readonly nutriScore: NutriScore | null;
  /** The cheapest list price at one of the household's chains, else at any chain; null when no chain lists it. */
  readonly price: number | null;
  readonly chain: string | null;
  readonly reason: ChoiceReason;
}

export interface BetterChoicesLine {
  readonly foodKey: string;
  readonly basis: ChoiceBasis;
  /** The suggested product's name (SuggestedProduct), else the line's name. */
  readonly productName: string;
  readonly choices: readonly BetterChoice[];
}

export interface ChoiceLine {
  readonly foodKey: string;
  readonly displayName: string;
  readonly status: LineStatus;
  readonly suggestedProductName: string | null;
}

export interface BetterChoicesInput {
  /** In list order. */
  readonly lines: readonly ChoiceLine[];
  /** The food table's products of the lines' foods and of their food groups (more does no harm). */
  readonly products: readonly FoodProduct[];
  /** Product ids on the household's receipts. */
  readonly boughtProductIds: ReadonlySet<string>;
  readonly chains: readonly string[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: FoodProduct, b: FoodProduct) => cmp(a.id, b.id);

/** The line's heavily processed product or food, or null when the line is not one to offer choices for. */
function flagged(line: ChoiceLine, ofFood: readonly FoodProduct[]): { basis: ChoiceBasis; productName: string; group: string } | null {
  const suggested = line.suggestedProductName === null ? undefined : ofFood.find((p) => p.name === line.suggestedProductName);
  if (suggested) return suggested.novaGroup === 4 ? { basis: 'SuggestedProduct', productName: suggested.name, group: suggested.foodGroup } : null;
  if (ofFood.length === 0 || ofFood.filter((p) => p.novaGroup === 4).length * 2 <= ofFood.length) return null;
  // The food's group: the one most of its products are in; a tie goes to the first name.
  const counts = new Map<string, number>();
  for (const p of ofFood) counts.set(p.foodGroup, (counts.get(p.foodGroup) ?? 0) + 1);
  const group = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]![0];
  return { basis: 'FoodMostlyUltraProcessed', productName: line.displayName, group };
}

/** Cheapest offer at one of `chains` when any, else at any chain; ties go to the chain name. */
function offerOf(p: FoodProduct, chains: ReadonlySet<string>): { price: number | null; chain: string | null; atYourChain: boolean } {
  const own = p.prices.filter((c) => chains.has(c.chain.toLowerCase()));
  const pool = own.length > 0 ? own : p.prices;
  const best = [...pool].sort((a, b) => a.price - b.price || cmp(a.chain, b.chain))[0];
  return best ? { price: best.price, chain: best.chain, atYourChain: own.length > 0 } : { price: null, chain: null, atYourChain: false };
}

/**
 * For each line still to buy whose suggested product is NOVA 4 (or, without a suggested product, whose food mostly
 * is), at most three NOVA 1–3 products of the same food or of another food of its food-table group. Order: bought
 * before by the household, listed at one of its chains, same food, lower NOVA group, lower price (unpriced last),
 * product id. One answer per food (its first line); lines without a choice are left out. The answer depends only
 * on the sets given, never on their order.
 */
export function rankBetterChoices(input: BetterChoicesInput): BetterChoicesLine[] {
  const products = [...new Map(input.products.map((p) => [p.id, p])).values()].sort(byId);
  const chains = new Set(input.chains.map((c) => c.toLowerCase()));
  const out: BetterChoicesLine[] = [];
  const seen = new Set<string>();
  for (const line of input.lines) {
    if (line.status !== 'Buy' || seen.has(line.foodKey)) continue;
    seen.add(line.foodKey);
    const flag = flagged(
      line,
      products.filter((p) => p.foodKey === line.foodKey),
    );
    if (!flag) continue;
    const ranked = products
      .filter((p) => p.novaGroup <= 3 && (p.foodKey === line.foodKey || p.foodGroup === flag.group))
      .map((p) => {
        const offer = offerOf(p, chains);
        const bought = input.boughtProductIds.has(p.id);
        const sameFood = p.foodKey === line.foodKey;
        const reason: ChoiceReason = bought ? 'BoughtBefore' : offer.atYourChain ? 'AtYourChain' : sameFood ? 'SameFood' : 'SameGroup';
        return { p, offer, bought, sameFood, reason };
      })
      .sort(
        (a, b) =>
          Number(b.bought) - Number(a.bought) ||
          Number(b.offer.atYourChain) - Number(a.offer.atYourChain) ||
          Number(b.sameFood) - Number(a.sameFood) ||
          a.p.novaGroup - b.p.novaGroup ||
          (a.offer.price ?? Infinity) - (b.offer.price ?? Infinity) ||
          byId(a.p, b.p),
      )
      .slice(0, CHOICES_MAX);
    if (ranked.length === 0) continue;
    out.push({
      foodKey: line.foodKey,
      basis: flag.basis,
      productName: flag.productName,
      choices: ranked.map(({ p, offer, reason }) => ({
        productId: p.id,
        productName: p.name,
        ean: p.ean,
        foodKey: p.foodKey,
        novaGroup: p.novaGroup,
        nutriScore: p.nutriScore,
        price: offer.price,
        chain: offer.chain,
        reason,
      })),
    });
  }
  return out;
}
