import { expect } from 'chai';
import type { FoodProduct, NovaGroup } from '../../core/food/types.js';
import { mulberry32 } from '../../core/kernel/seeded.js';
import { rankBetterChoices, type BetterChoicesInput, type ChoiceLine } from '../../core/shopping/better-choices.js';

const product = (id: string, o: Partial<FoodProduct> = {}): FoodProduct => ({
  id,
  ean: `70${id.padStart(11, '0')}`,
  name: `Product ${id}`,
  foodKey: 'grillpølse',
  foodGroup: 'Meat',
  novaGroup: 1,
  nutriScore: 'b',
  prices: [{ chain: 'Kiwi', price: 50, unit: 'pcs', packageSize: null }],
  ...o,
});
const line = (foodKey: string, o: Partial<ChoiceLine> = {}): ChoiceLine => ({ foodKey, displayName: foodKey, status: 'Buy', suggestedProductName: null, ...o });
const input = (o: Partial<BetterChoicesInput>): BetterChoicesInput => ({ lines: [], products: [], boughtProductIds: new Set(), chains: [], ...o });

describe('better choices (ranking)', () => {
  const sausage = product('p4', { name: 'Gilde Grillpølser', novaGroup: 4 });

  it('offers NOVA 1-3 products of the same food and group for a suggested NOVA 4 product, never NOVA 4 ones', () => {
    const r = rankBetterChoices(
      input({
        lines: [line('grillpølse', { suggestedProductName: 'Gilde Grillpølser' })],
        products: [sausage, product('p5', { novaGroup: 4 }), product('a', { foodKey: 'kjøttdeig' }), product('b', { foodKey: 'grillpølse', novaGroup: 3 }), product('x', { foodKey: 'eple', foodGroup: 'Fruit' })],
      }),
    );
    expect(r).to.have.length(1);
    expect(r[0]).to.include({ foodKey: 'grillpølse', basis: 'SuggestedProduct', productName: 'Gilde Grillpølser' });
    // Same food before another food of the group, whatever the NOVA step.
    expect(r[0]!.choices.map((c) => [c.productId, c.reason])).to.deep.equal([
      ['b', 'SameFood'],
      ['a', 'SameGroup'],
    ]);
  });

  it('orders bought before, then at the household chain, then same food, then NOVA step, then price, then id', () => {
    const products = [
      sausage,
      product('cheap-other-chain', { foodKey: 'kjøttdeig', prices: [{ chain: 'Meny', price: 1, unit: 'pcs', packageSize: null }] }),
      product('at-chain', { foodKey: 'kjøttdeig', novaGroup: 3, prices: [{ chain: 'Rema 1000', price: 99, unit: 'pcs', packageSize: null }] }),
      product('bought', { foodKey: 'kjøttdeig', novaGroup: 3, prices: [] }),
      product('same-food-nova2', { novaGroup: 2, prices: [{ chain: 'Meny', price: 5, unit: 'pcs', packageSize: null }] }),
      product('same-food-nova1', { prices: [{ chain: 'Meny', price: 9, unit: 'pcs', packageSize: null }] }),
    ];
    const r = rankBetterChoices(input({ lines: [line('grillpølse', { suggestedProductName: sausage.name })], products, boughtProductIds: new Set(['bought']), chains: ['rema 1000'] }));
    expect(r[0]!.choices.map((c) => [c.productId, c.reason, c.price, c.chain])).to.deep.equal([
      ['bought', 'BoughtBefore', null, null],
      ['at-chain', 'AtYourChain', 99, 'Rema 1000'],
      ['same-food-nova1', 'SameFood', 9, 'Meny'],
    ]);
    const noBuys = rankBetterChoices(input({ lines: [line('grillpølse', { suggestedProductName: sausage.name })], products }));
    expect(noBuys[0]!.choices.map((c) => c.productId)).to.deep.equal(['same-food-nova1', 'same-food-nova2', 'cheap-other-chain']);
    const tie = rankBetterChoices(input({ lines: [line('grillpølse', { suggestedProductName: sausage.name })], products: [sausage, product('z'), product('c'), product('m', { prices: [{ chain: 'Kiwi', price: 49, unit: 'pcs', packageSize: null }] })] }));
    expect(tie[0]!.choices.map((c) => c.productId)).to.deep.equal(['m', 'c', 'z']);
  });

  it('uses the cheapest price at the household chains, else at any chain', () => {
    const prices = [
      { chain: 'Kiwi', price: 30, unit: 'pcs', packageSize: null },
      { chain: 'Meny', price: 20, unit: 'pcs', packageSize: null },
      { chain: 'Rema 1000', price: 25, unit: 'pcs', packageSize: null },
    ];
    const lines = [line('grillpølse', { suggestedProductName: sausage.name })];
    expect(rankBetterChoices(input({ lines, products: [sausage, product('a', { prices })], chains: ['Kiwi', 'REMA 1000'] }))[0]!.choices[0]).to.include({ price: 25, chain: 'Rema 1000', reason: 'AtYourChain' });
    expect(rankBetterChoices(input({ lines, products: [sausage, product('a', { prices })], chains: ['Coop'] }))[0]!.choices[0]).to.include({ price: 20, chain: 'Meny', reason: 'SameFood' });
  });

  it('flags a line without a suggested product when more than half of its food is NOVA 4', () => {
    const mostly = [product('h1', { novaGroup: 4 }), product('h2', { novaGroup: 4 }), product('l1', { novaGroup: 2 })];
    const r = rankBetterChoices(input({ lines: [line('grillpølse', { displayName: 'Grillpølser' })], products: mostly }));
    expect(r).to.deep.equal([
      {
        foodKey: 'grillpølse',
        basis: 'FoodMostlyUltraProcessed',
        productName: 'Grillpølser',
        choices: [{ productId: 'l1', productName: 'Product l1', ean: mostly[2]!.ean, foodKey: 'grillpølse', novaGroup: 2, nutriScore: 'b', price: 50, chain: 'Kiwi', reason: 'SameFood' }],
      },
    ]);
    // Exactly half is not "mostly".
    expect(rankBetterChoices(input({ lines: [line('grillpølse')], products: [product('h1', { novaGroup: 4 }), product('l1')] }))).to.deep.equal([]);
  });

  it('leaves out bought lines, lines whose suggested product is not NOVA 4, lines without a choice, and repeats of a food', () => {
    const light = product('l', { foodKey: 'kjøttdeig', name: 'Kjøttdeig' });
    const r = rankBetterChoices(
      input({
        lines: [
          line('grillpølse', { status: 'Purchased', suggestedProductName: sausage.name }),
          line('kjøttdeig', { suggestedProductName: 'Kjøttdeig' }),
          line('bacon', { suggestedProductName: 'Bacon' }),
        ],
        products: [sausage, light, product('bacon', { name: 'Bacon', foodKey: 'bacon', foodGroup: 'Cured', novaGroup: 4 })],
      }),
    );
    expect(r).to.deep.equal([]);
    const twice = rankBetterChoices(input({ lines: [line('grillpølse', { suggestedProductName: sausage.name }), line('grillpølse', { suggestedProductName: sausage.name })], products: [sausage, light] }));
    expect(twice).to.have.length(1);
  });

  describe('properties (seeded generator)', () => {
    const CHAINS = ['Kiwi', 'Rema 1000', 'Meny', 'Coop Extra'];
    const FOODS = ['a', 'b', 'c', 'd', 'e', 'f'];
    const GROUPS = ['G1', 'G2'];
    const shuffle = <T>(xs: readonly T[], rnd: () => number): T[] => {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    const caseOf = (rnd: () => number): BetterChoicesInput => {
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const products = Array.from({ length: 5 + Math.floor(rnd() * 40) }, (_, i) => {
        const foodKey = pick(FOODS);
        return product(`p${i}`, {
          name: `Name ${Math.floor(rnd() * 8)}`,
          foodKey,
          foodGroup: rnd() < 0.8 ? GROUPS[FOODS.indexOf(foodKey) % 2]! : pick(GROUPS),
          novaGroup: (1 + Math.floor(rnd() * 4)) as NovaGroup,
          prices: shuffle(CHAINS, rnd)
            .slice(0, Math.floor(rnd() * 3))
            .map((chain) => ({ chain, price: Math.floor(rnd() * 5) * 10, unit: 'pcs', packageSize: null })),
        });
      });
      const lines = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () =>
        line(pick(FOODS), { status: rnd() < 0.8 ? 'Buy' : 'Purchased', suggestedProductName: rnd() < 0.6 ? `Name ${Math.floor(rnd() * 8)}` : null }),
      );
      const bought = new Set(products.filter(() => rnd() < 0.2).map((p) => p.id));
      return { lines, products, boughtProductIds: bought, chains: shuffle(CHAINS, rnd).slice(0, Math.floor(rnd() * 3)) };
    };

    it('shuffling the products (and the chains and bought ids) never changes the answer; at most three choices; never NOVA 4', () => {
      let flagged = 0;
      for (let seed = 1; seed <= 500; seed++) {
        // A seeded generator, so a failing case repeats with its seed.
        const rnd = mulberry32(seed);
        const c = caseOf(rnd);
        const expected = rankBetterChoices(c);
        flagged += expected.length;
        for (const l of expected) {
          expect(l.choices.length, `seed ${seed}`).to.be.within(1, 3);
          for (const choice of l.choices) expect(choice.novaGroup, `seed ${seed}`).to.be.below(4);
        }
        for (let k = 0; k < 5; k++) {
          const shuffled = { ...c, products: shuffle(c.products, rnd), chains: shuffle(c.chains, rnd), boughtProductIds: new Set(shuffle([...c.boughtProductIds], rnd)) };
          expect(rankBetterChoices(shuffled), `seed ${seed}`).to.deep.equal(expected);
        }
      }
      // The generator does reach flagged lines (the properties are not vacuous).
      expect(flagged).to.be.greaterThan(100);
    });
  });
});
