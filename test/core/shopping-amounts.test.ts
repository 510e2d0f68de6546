import { expect } from 'chai';
import { parseItemText } from '../../core/shopping/amounts.js';
import { canonicalUnit, UNIT_ALIASES, type CanonicalUnit } from '../../core/food/units.js';
import { mulberry32 } from '../../core/kernel/seeded.js';

type Q = number | null;
type U = CanonicalUnit | null;
/** [typed text, quantity, unit, name, why] */
const EXAMPLES: ReadonlyArray<readonly [string, Q, U, string, string]> = [
  // the amount first, Norwegian
  ['2 kg poteter', 2, 'kg', 'poteter', 'amount, unit, food'],
  ['3 egg', 3, 'pcs', 'egg', 'a count without a unit is in pieces'],
  ['1/2 l melk', 0.5, 'l', 'melk', 'fraction'],
  ['500g kjøttdeig', 500, 'g', 'kjøttdeig', 'unit glued to the number'],
  ['1,5 dl fløte', 1.5, 'dl', 'fløte', 'comma decimal'],
  ['2 pk smør', 2, 'pk', 'smør', 'pk'],
  ['1 1/2 kg mel', 1.5, 'kg', 'mel', 'mixed fraction'],
  ['2x400 g hakkede tomater', 800, 'g', 'hakkede tomater', 'multiplied to the total'],
  ['2 x 400 g hakkede tomater', 800, 'g', 'hakkede tomater', 'multiplied, spaced'],
  ['3×0,1 l eddik', 0.3, 'l', 'eddik', 'multiplication sign; no float noise'],
  ['4 stk tomater', 4, 'pcs', 'tomater', 'stk is pcs'],
  ['1 stykk agurk', 1, 'pcs', 'agurk', 'stykk is pcs'],
  ['6 st. egg', 6, 'pcs', 'egg', 'st. with its dot'],
  ['2 bokser kikerter', 2, 'bx', 'kikerter', 'boks plural'],
  ['1 boks med tomater', 1, 'bx', 'tomater', '"med" after a unit dropped'],
  ['1 bunt persille', 1, 'bunt', 'persille', 'bunt'],
  ['2 flasker vann', 2, 'fl', 'vann', 'flaske plural'],
  ['3 pakker gjær', 3, 'pk', 'gjær', 'pakker'],
  ['1 pk. bacon', 1, 'pk', 'bacon', 'pk.'],
  ['2 ss olivenolje', 2, 'tbsp', 'olivenolje', 'spiseskje short'],
  ['1 ts salt', 1, 'tsp', 'salt', 'teskje short'],
  ['2 spiseskjeer sukker', 2, 'tbsp', 'sukker', 'spiseskje plural'],
  ['1 teskje kanel', 1, 'tsp', 'kanel', 'teskje'],
  ['3 cl rom', 3, 'cl', 'rom', 'cl'],
  ['250 ml kremfløte', 250, 'ml', 'kremfløte', 'ml'],
  ['2 liter melk', 2, 'l', 'melk', 'liter'],
  ['1 kilo epler', 1, 'kg', 'epler', 'kilo'],
  ['200 gram ost', 200, 'g', 'ost', 'gram'],
  ['100 gr smør', 100, 'g', 'smør', 'gr'],
  ['2 L Melk', 2, 'l', 'Melk', 'upper-case unit; the name keeps its case'],
  ['½ l melk', 0.5, 'l', 'melk', 'vulgar fraction'],
  ['1 ½ dl fløte', 1.5, 'dl', 'fløte', 'whole and vulgar fraction'],
  ['1½ dl fløte', 1.5, 'dl', 'fløte', 'whole and vulgar fraction glued'],
  ['1.5 kg kylling', 1.5, 'kg', 'kylling', 'point decimal'],
  ['2 lime', 2, 'pcs', 'lime', '"l" at the start of a word is not litres'],
  ['2 glass syltetøy', 2, 'pcs', 'glass syltetøy', '"glass" is not a unit'],
  ['2x melk', 2, 'pcs', 'melk', 'a count written 2x'],
  ['2 x melk', 2, 'pcs', 'melk', 'a count written 2 x'],
  ['2 pk smør 500 g', 2, 'pk', 'smør 500 g', 'the leading amount wins'],
  // number words
  ['en pakke pasta', 1, 'pk', 'pasta', 'en'],
  ['ei flaske vin', 1, 'fl', 'vin', 'ei'],
  ['ett brød', 1, 'pcs', 'brød', 'ett, no unit'],
  ['to bokser tomater', 2, 'bx', 'tomater', 'to'],
  ['tre løk', 3, 'pcs', 'løk', 'tre'],
  ['Fire stk egg', 4, 'pcs', 'egg', 'capitalised number word'],
  ['seks egg', 6, 'pcs', 'egg', 'seks'],
  ['tolv egg', 12, 'pcs', 'egg', 'tolv'],
  ['en halv liter melk', 0.5, 'l', 'melk', 'en halv'],
  ['halvannen liter cola', 1.5, 'l', 'cola', 'halvannen'],
  // the amount last
  ['tomater 4 stk', 4, 'pcs', 'tomater', 'amount after the name'],
  ['tomater, 4 stk', 4, 'pcs', 'tomater', 'comma before a trailing amount'],
  ['melk 1l', 1, 'l', 'melk', 'trailing, glued'],
  ['Pepsi Max 1,5 l', 1.5, 'l', 'Pepsi Max', 'trailing decimal after a two-word name'],
  ['hvetemel 1 1/2 kg', 1.5, 'kg', 'hvetemel', 'trailing mixed fraction'],
  ['tomater 2x400 g', 800, 'g', 'tomater', 'trailing multiplied'],
  // English
  ['a pack of pasta', 1, 'pk', 'pasta', 'a, pack, of'],
  ['one bottle of wine', 1, 'fl', 'wine', 'one, bottle'],
  ['two cans of chickpeas', 2, 'bx', 'chickpeas', 'two, cans'],
  ['three onions', 3, 'pcs', 'onions', 'three, no unit'],
  ['twelve eggs', 12, 'pcs', 'eggs', 'twelve'],
  ['an avocado', 1, 'pcs', 'avocado', 'an'],
  ['a dozen eggs', 12, 'pcs', 'eggs', 'a dozen'],
  ['half a litre of milk', 0.5, 'l', 'milk', 'half a, litre, of'],
  ['2 tins tuna', 2, 'bx', 'tuna', 'tins'],
  ['1 bunch coriander', 1, 'bunt', 'coriander', 'bunch'],
  ['3 pieces salmon', 3, 'pcs', 'salmon', 'pieces'],
  ['2 tbsp honey', 2, 'tbsp', 'honey', 'tbsp'],
  ['1 tsp baking soda', 1, 'tsp', 'baking soda', 'tsp'],
  ['2 litres orange juice', 2, 'l', 'orange juice', 'litres'],
  ['500 grams minced beef', 500, 'g', 'minced beef', 'grams'],
  ['2 kilograms potatoes', 2, 'kg', 'potatoes', 'kilograms'],
  ['milk 2 l', 2, 'l', 'milk', 'trailing, English'],
  ['1 can of coconut milk', 1, 'bx', 'coconut milk', 'can'],
  // no amount, or one that cannot be read: the whole text is the name
  ['melk', null, null, 'melk', 'no amount'],
  ['glass', null, null, 'glass', 'a unit-looking word alone is a name'],
  ['l', null, null, 'l', 'a unit alone is a name'],
  ['  hakkede    tomater ', null, null, 'hakkede tomater', 'trimmed, spaces collapsed'],
  ['7up', null, null, '7up', 'letters glued to a number that are not a unit'],
  ['Omega 3', null, null, 'Omega 3', 'a bare trailing number is part of the name'],
  ['2-3 epler', null, null, '2-3 epler', 'a range is not guessed at'],
  ['1/0 kg ost', null, null, '1/0 kg ost', 'division by zero'],
  ['0 kg ost', null, null, '0 kg ost', 'zero is no amount'],
  ['2 kg', null, null, '2 kg', 'an amount with no name left'],
  ['2', null, null, '2', 'a number alone'],
  ['to', null, null, 'to', 'a number word alone'],
  ['1.5.2 kg mel', null, null, '1.5.2 kg mel', 'not a number'],
  ['2 3/2 kg mel', null, null, '2 3/2 kg mel', 'not a mixed fraction'],
  ['sjokolade 70 %', null, null, 'sjokolade 70 %', '% is not a unit'],
  ['', null, null, '', 'empty'],
];

describe('parseItemText', () => {
  for (const [text, quantity, unit, name, why] of EXAMPLES) {
    it(`${JSON.stringify(text)} → ${quantity ?? '-'} ${unit ?? '-'} ${JSON.stringify(name)} (${why})`, () => {
      expect(parseItemText(text)).to.deep.equal({ quantity, unit, name });
    });
  }

  it('has at least 40 examples, Norwegian and English', () => {
    expect(EXAMPLES.length).to.be.at.least(40);
  });
});


describe('parseItemText (seeded property)', () => {
  const NAMES = ['poteter', 'hakkede tomater', 'Crème fraîche', 'kyllingfilet', 'rømme', 'olive oil', 'brown sugar', 'Lime', 'glass nudler', '7up', 'Pepsi Max', 'blåbær'];
  const ALIASES = (Object.values(UNIT_ALIASES) as (readonly string[])[]).flat();
  const SEED = 20260504;

  it('gives back the number, the canonical unit and the name it was built from', () => {
    const rnd = mulberry32(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const failures: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const whole = 1 + Math.floor(rnd() * 999);
      const decimals = pick([0, 0, 1, 2]);
      const n = decimals === 0 ? whole : Math.round((whole + rnd()) * 10 ** decimals) / 10 ** decimals;
      const written = pick(['.', ',']) === ',' ? String(n).replace('.', ',') : String(n);
      const alias = pick(ALIASES);
      const u = pick([alias, alias.toUpperCase(), alias[0]!.toUpperCase() + alias.slice(1)]) + pick(['', '', '.']);
      const name = pick(NAMES);
      const text = `${written}${pick([' ', ' ', '', '  '])}${u} ${name}`;
      const got = parseItemText(text);
      const want = { quantity: n, unit: canonicalUnit(u), name };
      if (got.quantity !== want.quantity || got.unit !== want.unit || got.name !== want.name) {
        failures.push(`seed ${SEED} case ${i}: ${JSON.stringify(text)} → ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
    }
    expect(failures.slice(0, 5)).to.deep.equal([]);
  });
});
