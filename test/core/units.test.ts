import { expect } from 'chai';
import { canonicalUnit, convert, dimensionOf, UNIT_ALIASES, UNIT_TABLE, type CanonicalUnit, type Dimension } from '../../core/food/units.js';
import { mulberry32 } from '../../core/kernel/seeded.js';

describe('canonicalUnit', () => {
  const EXAMPLES: ReadonlyArray<readonly [string, CanonicalUnit | null]> = [
    ['g', 'g'], ['gram', 'g'], ['grams', 'g'], ['gr', 'g'], ['G', 'g'],
    ['kg', 'kg'], ['kilo', 'kg'], ['kilogram', 'kg'], ['KG', 'kg'],
    ['ml', 'ml'], ['cl', 'cl'], ['dl', 'dl'], ['desiliter', 'dl'],
    ['l', 'l'], ['L', 'l'], ['liter', 'l'], ['litre', 'l'], ['litres', 'l'],
    ['tsp', 'tsp'], ['ts', 'tsp'], ['teskje', 'tsp'],
    ['tbsp', 'tbsp'], ['ss', 'tbsp'], ['spiseskje', 'tbsp'],
    ['pcs', 'pcs'], ['stk', 'pcs'], ['Stk.', 'pcs'], ['stykk', 'pcs'], ['st', 'pcs'], ['piece', 'pcs'], ['pieces', 'pcs'], ['pc', 'pcs'],
    ['pk', 'pk'], ['pk.', 'pk'], ['pakke', 'pk'], ['pakker', 'pk'], ['pack', 'pk'],
    ['bx', 'bx'], ['boks', 'bx'], ['bokser', 'bx'], ['can', 'bx'], ['cans', 'bx'], ['tin', 'bx'],
    ['bunt', 'bunt'], ['bunch', 'bunt'], ['fl', 'fl'], ['flaske', 'fl'], ['bottle', 'fl'],
    ['  dl ', 'dl'],
    ['glass', null], ['lime', null], ['', null], ['.', null], ['kopp', null], ['x', null],
  ];
  for (const [typed, want] of EXAMPLES) it(`${JSON.stringify(typed)} → ${want}`, () => expect(canonicalUnit(typed)).to.equal(want));

  it('knows every canonical unit by its own name, and no alias twice', () => {
    const all = (Object.values(UNIT_ALIASES) as (readonly string[])[]).flat();
    expect(new Set(all).size).to.equal(all.length);
    for (const unit of Object.keys(UNIT_TABLE)) expect(canonicalUnit(unit)).to.equal(unit);
  });
});

describe('dimensionOf', () => {
  const EXAMPLES: ReadonlyArray<readonly [string, Dimension | null]> = [
    ['g', 'mass'], ['kilo', 'mass'], ['ml', 'volume'], ['ss', 'volume'], ['tsp', 'volume'], ['litres', 'volume'],
    ['stk', 'pieces'], ['pk', 'package'], ['boks', 'package'], ['bunt', 'package'], ['flaske', 'package'], ['kopp', null],
  ];
  for (const [unit, want] of EXAMPLES) it(`${unit} → ${want}`, () => expect(dimensionOf(unit)).to.equal(want));
});

describe('convert', () => {
  /** [quantity, from, to, gramsPerPiece, want] */
  const EXAMPLES: ReadonlyArray<readonly [number, string, string, number | null, number | null]> = [
    [1, 'kg', 'g', null, 1000],
    [250, 'g', 'kg', null, 0.25],
    [1, 'l', 'dl', null, 10],
    [3, 'dl', 'l', null, 0.3],
    [1, 'dl', 'ml', null, 100],
    [5, 'cl', 'ml', null, 50],
    [1, 'tbsp', 'tsp', null, 3],
    [1, 'tsp', 'ml', null, 5],
    [2, 'ss', 'ml', null, 30],
    [1, 'tsp', 'tbsp', null, 0.333333333333],
    [2, 'liter', 'dl', null, 20],
    [4, 'stk', 'pcs', null, 4],
    [3, 'pcs', 'g', 110, 330],
    [3, 'stk', 'kg', 110, 0.33],
    [550, 'g', 'pcs', 110, 5],
    [1, 'kg', 'stk', 250, 4],
    [3, 'pcs', 'g', null, null],
    [3, 'pcs', 'g', 0, null],
    [3, 'pcs', 'g', -5, null],
    [3, 'pcs', 'g', Number.NaN, null],
    [1, 'l', 'kg', null, null],
    [1, 'l', 'kg', 1000, null],
    [1, 'dl', 'pcs', 50, null],
    [2, 'pk', 'pk', null, 2],
    [2, 'pakke', 'pk', null, 2],
    [2, 'pk', 'pcs', null, null],
    [2, 'pk', 'g', 500, null],
    [1, 'boks', 'fl', null, null],
    [2, 'kopp', 'kopp', null, 2],
    [2, 'Kopp', ' kopp ', null, 2],
    [2, 'kopp', 'dl', null, null],
    [2, 'dl', 'kopp', null, null],
    [Number.NaN, 'g', 'kg', null, null],
    [0, 'kg', 'g', null, 0],
  ];
  for (const [q, from, to, gpp, want] of EXAMPLES) {
    it(`${q} ${from} → ${to}${gpp === null ? '' : ` (${gpp} g/pc)`} = ${want}`, () => expect(convert(q, from, to, gpp)).to.equal(want));
  }
  it('takes gramsPerPiece as optional', () => {
    expect(convert(1, 'kg', 'g')).to.equal(1000);
    expect(convert(1, 'pcs', 'g')).to.equal(null);
  });
});


describe('convert (seeded property)', () => {
  const SEED = 424242;
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  const units = Object.keys(UNIT_TABLE) as CanonicalUnit[];
  const byDimension = (d: Dimension) => units.filter((u) => UNIT_TABLE[u].dimension === d);

  it('converts there and back to the same quantity within a dimension', () => {
    const rnd = mulberry32(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const failures: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const q = Math.round(rnd() * 10 ** (1 + Math.floor(rnd() * 5)) * 1000) / 1000;
      const same = pick(['mass', 'volume', 'pieces'] as const);
      const a = pick(byDimension(same));
      const b = pick(byDimension(same));
      const there = convert(q, a, b);
      const back = there === null ? null : convert(there, b, a);
      if (back === null || !close(back, q)) failures.push(`seed ${SEED} case ${i}: ${q} ${a} → ${b} → ${back}`);
    }
    expect(failures.slice(0, 5)).to.deep.equal([]);
  });

  it('converts pieces to mass and back with a unit weight, and never across volume and mass', () => {
    const rnd = mulberry32(SEED + 1);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const failures: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const q = 1 + Math.floor(rnd() * 50);
      const grams = Math.round(rnd() * 5000 * 10) / 10 + 0.1;
      const mass = pick(byDimension('mass'));
      const there = convert(q, 'pcs', mass, grams);
      const back = there === null ? null : convert(there, mass, 'pcs', grams);
      if (back === null || !close(back, q)) failures.push(`seed ${SEED + 1} case ${i}: ${q} pcs @${grams} g → ${mass} → ${back}`);
      const vol = pick(byDimension('volume'));
      if (convert(q, vol, mass, grams) !== null || convert(q, mass, vol, grams) !== null) failures.push(`case ${i}: ${vol} ↔ ${mass} converted`);
      const pkg = pick(byDimension('package'));
      if (convert(q, pkg, pick(units.filter((u) => u !== pkg)), grams) !== null) failures.push(`case ${i}: ${pkg} converted`);
    }
    expect(failures.slice(0, 5)).to.deep.equal([]);
  });
});
