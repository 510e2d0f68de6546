import { expect } from 'chai';
import type { FoodProduct } from '../../core/food/types.js';
import { expectStatus, httpSuite } from '../support/http-suite.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const MONDAY = '2026-05-04';
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const priceAt = (p: FoodProduct, chain: string) => p.prices.find((c) => c.chain === chain)?.price ?? Infinity;

httpSuite('shopping list better choices', { now: NOW }, (server) => {
  let catalogue: FoodProduct[];
  before(async () => {
    catalogue = await server.runtime.deps.foodSource.load();
  });

  const household = () => server.plannedWeek(MONDAY);

  it('offers less processed products for a NOVA 4 line: earlier buys first, then the household chain, then NOVA step and price', async () => {
    const h = await household();
    expectStatus(await h.owner.patch(h.base, { chains: ['Kiwi'] }), 200);
    const sausages = catalogue.filter((p) => p.foodKey === 'grillpølse');
    expect(sausages.length).to.be.greaterThan(0);
    expect(sausages.every((p) => p.novaGroup === 4)).to.equal(true);
    const bought = catalogue.find((p) => p.foodGroup === sausages[0]!.foodGroup && p.novaGroup <= 3 && p.ean !== null && p.foodKey !== 'grillpølse')!;
    expectStatus(
      await h.owner.post(`${h.base}/receipts`, { purchasedAt: daysAgo(3), chain: 'Kiwi', lines: [{ productName: 'Kjøpt vare', ean: bought.ean, quantity: 1, unitPrice: 49.9, totalPrice: null }] }),
      201,
    );
    const recipe = await h.owner.post(`${h.base}/recipes`, {
      title: 'Pølsefest',
      servings: 4,
      activeMinutes: null,
      totalMinutes: null,
      steps: [],
      ingredients: [
        { displayName: 'Grillpølse', quantity: 600, unit: 'g', optional: false, baseRecipeId: null, reference: null },
        { displayName: 'Lettmelk', quantity: 1, unit: 'l', optional: false, baseRecipeId: null, reference: null },
      ],
    });
    expectStatus(recipe, 201);
    expectStatus(await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: recipe.json.id, portions: 4, note: null }), 200);

    const res = await h.owner.get(`${h.list}/better-choices`);
    expectStatus(res, 200);
    const cheapestSausage = [...sausages].sort((a, b) => priceAt(a, 'Kiwi') - priceAt(b, 'Kiwi') || cmp(a.id, b.id))[0]!;
    const others = catalogue
      .filter((p) => p.foodGroup === bought.foodGroup && p.novaGroup <= 3 && p.id !== bought.id && p.prices.some((c) => c.chain === 'Kiwi'))
      .sort((a, b) => a.novaGroup - b.novaGroup || priceAt(a, 'Kiwi') - priceAt(b, 'Kiwi') || cmp(a.id, b.id))
      .slice(0, 2);
    const choice = (p: FoodProduct, reason: string, price: number) => ({ productName: p.name, ean: p.ean, foodKey: p.foodKey, novaGroup: p.novaGroup, nutriScore: p.nutriScore, price, chain: 'Kiwi', reason });
    // Lettmelk (NOVA 1) is not a line to improve; grillpølse is, on its suggested product.
    expect(res.json).to.deep.equal({
      weeklyPlanId: h.plan.id,
      lines: [
        {
          foodKey: 'grillpølse',
          basis: 'SuggestedProduct',
          productName: cheapestSausage.name,
          choices: [choice(bought, 'BoughtBefore', priceAt(bought, 'Kiwi')), ...others.map((p) => choice(p, 'AtYourChain', priceAt(p, 'Kiwi')))],
        },
      ],
    });

    // With the price catalogue off the household wants no suggestions: none, until it is on again.
    expectStatus(await h.owner.patch(`${h.base}/shopping-settings`, { priceCatalogueOn: false }), 200);
    expect((await h.owner.get(`${h.list}/better-choices`)).json).to.deep.equal({ weeklyPlanId: h.plan.id, lines: [] });
    expectStatus(await h.owner.patch(`${h.base}/shopping-settings`, { priceCatalogueOn: true }), 200);
    expect((await h.owner.get(`${h.list}/better-choices`)).json).to.deep.equal(res.json);

    // A bought line is no longer offered choices.
    const list = (await h.owner.get(h.list)).json as { items: { id: string; foodKey: string }[] };
    const sausageLine = list.items.find((i) => i.foodKey === 'grillpølse')!;
    expectStatus(await h.owner.patch(`${h.base}/shopping-items/${sausageLine.id}`, { status: 'Purchased' }), 200);
    expect((await h.owner.get(`${h.list}/better-choices`)).json).to.deep.equal({ weeklyPlanId: h.plan.id, lines: [] });
  });

  it('answers 404 to a stranger and for another household\'s plan', async () => {
    const h = await household();
    const other = await household();
    const { client: stranger } = await server.signedIn('Stranger');
    expectStatus(await stranger.get(`${h.list}/better-choices`), 404, 'household_not_found');
    expectStatus(await h.owner.get(`${h.base}/plans/${other.plan.id}/shopping-list/better-choices`), 404, 'plan_not_found');
    expectStatus(await h.owner.get(`${h.list}/better-choices`), 200);
  });
});
