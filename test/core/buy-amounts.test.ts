/** What to buy for a need (core/food/buy-amounts.ts) and its words (core/food/unit-words.ts). */
import { expect } from 'chai';
import { buyAmountOf, packageOfPrice, type BuyAmount } from '../../core/food/buy-amounts.js';
import { amountText, unitWord, UNIT_WORDS } from '../../core/food/unit-words.js';
import { UNIT_ALIASES, type CanonicalUnit } from '../../core/food/units.js';

const buy = (quantity: number, unit: string): Pick<BuyAmount, 'quantity' | 'unit'> => {
  const { quantity: q, unit: u } = buyAmountOf(quantity, unit);
  return { quantity: q, unit: u };
};

/** A need (quantity, unit) and what to buy for it (quantity, unit). */
type Case = [number, string, number, string];
const expectBuys = (cases: Case[]) => {
  for (const [q, unit, quantity, expected] of cases) expect(buy(q, unit), `${q} ${unit}`).to.deep.equal({ quantity, unit: expected });
};

describe('buyAmountOf: an amount a shop sells, never less than the need', () => {
  it('gives no number for a need without an amount', () => {
    for (const q of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(buyAmountOf(q, 'pcs')).to.deep.equal({ quantity: null, unit: null, packageSize: null });
  });

  it('rounds pieces, packages and words it does not know up to whole ones', () => {
    const cases: Case[] = [
      [1.75, 'pcs', 2, 'pcs'],
      [3.5, 'stk', 4, 'pcs'],
      [3, 'pcs', 3, 'pcs'],
      [1.75, 'bx', 2, 'bx'],
      [0.2, 'pakke', 1, 'pk'],
      [1.5, 'fedd', 2, 'fedd'],
      [1.0000000001, 'pcs', 1, 'pcs'],
    ];
    expectBuys(cases);
  });

  it('writes mass in steps that read well: g below 1 kg, kg by 0.1 from there', () => {
    const cases: Case[] = [
      [3.2, 'g', 4, 'g'],
      [37, 'g', 40, 'g'],
      [333, 'g', 350, 'g'],
      [125, 'g', 125, 'g'],
      [995, 'g', 1, 'kg'],
      [1600, 'g', 1.6, 'kg'],
      [1050, 'g', 1.1, 'kg'],
      [0.3, 'kg', 300, 'g'],
      [2.25, 'kg', 2.3, 'kg'],
    ];
    expectBuys(cases);
  });

  it('keeps small spoon measures in spoons by halves, and writes other volume in ml, dl or l', () => {
    const cases: Case[] = [
      [3, 'tbsp', 3, 'tbsp'],
      [1.25, 'tsp', 1.5, 'tsp'],
      [8, 'tbsp', 1.5, 'dl'],
      [42, 'ml', 45, 'ml'],
      [98, 'ml', 1, 'dl'],
      [6, 'dl', 6, 'dl'],
      [2.2, 'dl', 2.5, 'dl'],
      [26, 'dl', 2.6, 'l'],
      [0.75, 'l', 7.5, 'dl'],
      [1.01, 'l', 1.1, 'l'],
    ];
    expectBuys(cases);
  });

  it('counts whole packages of a known size when the need converts to it', () => {
    const box = { packUnit: 'bx', quantity: 400, unit: 'g' } as const;
    expect(buyAmountOf(500, 'g', box)).to.deep.equal({ quantity: 2, unit: 'bx', packageSize: { quantity: 400, unit: 'g' } });
    expect(buyAmountOf(0.8, 'kg', box)).to.deep.equal({ quantity: 2, unit: 'bx', packageSize: { quantity: 400, unit: 'g' } });
    // A need in a unit that does not convert to the package's is rounded as itself.
    expect(buyAmountOf(2, 'pcs', box)).to.deep.equal({ quantity: 2, unit: 'pcs', packageSize: null });
  });

  it('takes a package from a list price only when it has a size in a unit a need converts to', () => {
    expect(packageOfPrice({ unit: 'g', packageSize: 400 })).to.deep.equal({ packUnit: 'pk', quantity: 400, unit: 'g' });
    expect(packageOfPrice({ unit: 'kg', packageSize: null })).to.equal(null);
    expect(packageOfPrice({ unit: 'bx', packageSize: 1 })).to.equal(null);
    expect(packageOfPrice({ unit: 'g', packageSize: 0 })).to.equal(null);
    expect(packageOfPrice({ unit: 'fedd', packageSize: 10 })).to.equal(null);
    // Eggs come twelve a box; a cucumber priced per piece is no package.
    expect(packageOfPrice({ unit: 'stk', packageSize: 12 })).to.deep.equal({ packUnit: 'pk', quantity: 12, unit: 'pcs' });
    expect(packageOfPrice({ unit: 'stk', packageSize: 1 })).to.equal(null);
  });
});

describe('unit words: one table per language, no unit code on a screen', () => {
  it('has a word in both languages for every unit, and no Norwegian word is an English code', () => {
    const units = Object.keys(UNIT_ALIASES) as CanonicalUnit[];
    for (const language of ['nb', 'en'] as const) expect(Object.keys(UNIT_WORDS[language]).sort()).to.deep.equal([...units].sort());
    const codes = new Set(['tbsp', 'tsp', 'bx', 'pcs', 'pk', 'fl']);
    for (const [one, more] of Object.values(UNIT_WORDS.nb)) expect(codes.has(one) || codes.has(more), `${one}/${more}`).to.equal(false);
    for (const [one, more] of Object.values(UNIT_WORDS.en)) expect(['bx', 'pcs', 'pk', 'fl'].includes(one) || ['bx', 'pcs', 'pk', 'fl'].includes(more), `${one}/${more}`).to.equal(false);
  });

  it('says one or more, and keeps a word it does not know as the household wrote it', () => {
    expect(unitWord('bx', 1, 'nb')).to.equal('boks');
    expect(unitWord('bx', 2, 'nb')).to.equal('bokser');
    expect(unitWord('tbsp', 3, 'nb')).to.equal('ss');
    expect(unitWord('pcs', 1, 'en')).to.equal('piece');
    expect(unitWord(' fedd ', 2, 'nb')).to.equal('fedd');
  });

  it('writes an amount with the language decimal mark and the package it counts', () => {
    expect(amountText(buyAmountOf(1600, 'g'), 'nb')).to.equal('1,6 kg');
    expect(amountText(buyAmountOf(1600, 'g'), 'en')).to.equal('1.6 kg');
    expect(amountText(buyAmountOf(1.75, 'pcs'), 'nb')).to.equal('2 stk');
    expect(amountText(buyAmountOf(3, 'tbsp'), 'nb')).to.equal('3 ss');
    expect(amountText(buyAmountOf(500, 'g', { packUnit: 'bx', quantity: 400, unit: 'g' }), 'nb')).to.equal('2 bokser (400 g)');
    expect(amountText(buyAmountOf(0, 'pcs'), 'nb')).to.equal('');
  });
});
