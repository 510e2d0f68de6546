import { expect } from 'chai';
import { avoidConflict, avoidMatcher, foldText, stemOf, type AllergenGroup } from '../../core/shared/avoids.js';
import { normalizeFoodKey } from '../../core/shared/food-key.js';

/** [avoid, ingredient as a recipe names it, the group it is found through (or 'word'), or null when it must not match]. */
type Row = readonly [string, string, AllergenGroup | 'word' | null];

const ROWS: readonly Row[] = [
  // Words, inflections and compounds, nb.
  ['nøtter', 'Hasselnøtter, hakket', 'word'],
  ['nøtter', 'valnøttkjerner', 'word'],
  ['nøtter', 'Peanøttsmør', 'word'],
  ['nøtt', 'Nøttene', 'word'],
  ['reker', 'Kongereker', 'word'],
  ['reke', 'Rekesalat', 'word'],
  ['koriander', 'Fersk koriander', 'word'],
  ['koriander', 'Korianderfrø', 'word'],
  ['løk', 'Rødløk', 'word'],
  ['sopp', 'Kantarellsopp', 'word'],
  // Words, inflections and compounds, en.
  ['nuts', 'Walnuts', 'word'],
  ['nut', 'Hazelnut spread', 'word'],
  ['tomatoes', 'Cherry tomato', 'word'],
  ['berries', 'Blueberries', 'word'],
  ['fish', 'Fish sauce', 'word'],
  ['fish', 'Fishcakes', 'word'],
  // Case, Unicode (full-width letters, a decomposed å), multi-word avoids.
  ['NØTTER', 'hasselnøtter', 'word'],
  ['Blåbær', 'Frosne bla\u030Abær', 'word'],
  ['ｍｅｌｋ', 'Melk', 'word'],
  ['tree nuts', 'Pecans', 'nuts'],
  ['crème fraîche', 'Creme fraiche 18 %', 'word'],
  // The 14 groups, nb.
  ['gluten', 'Hvetemel', 'gluten'],
  ['gluten', 'Spaghetti', 'gluten'],
  ['gluten', 'Rugbrød', 'gluten'],
  ['skalldyr', 'Kongereker', 'crustaceans'],
  ['skalldyr', 'Hummerhaler', 'crustaceans'],
  ['egg', 'Majones', 'eggs'],
  ['fisk', 'Laksefilet', 'fish'],
  ['fisk', 'Torsk', 'fish'],
  ['peanøtter', 'Peanøttsmør', 'word'],
  ['peanøtter', 'Satay-saus', 'peanuts'],
  ['soya', 'Tofu', 'soy'],
  ['melk', 'Kremfløte', 'milk'],
  ['melk', 'Revet parmesan', 'milk'],
  ['laktose', 'Rømme', 'milk'],
  ['melk', 'Geitost', 'milk'],
  ['melk', 'Ostesaus', 'milk'],
  ['nøtter', 'Mandler', 'nuts'],
  ['nøtter', 'Cashewnøtter', 'word'],
  ['nøtter', 'Pistasj', 'nuts'],
  ['selleri', 'Stangselleri', 'word'],
  ['selleri', 'Sellerirot', 'word'],
  ['sennep', 'Dijon', 'mustard'],
  ['sesam', 'Tahini', 'sesame'],
  ['sulfitt', 'Rødvin', 'sulphites'],
  ['lupin', 'Lupinmel', 'word'],
  ['bløtdyr', 'Blåskjell', 'molluscs'],
  ['bløtdyr', 'Blekksprut', 'molluscs'],
  // The 14 groups, en.
  ['gluten', 'Wheat flour', 'gluten'],
  ['gluten', 'Egg noodles', 'gluten'],
  ['shellfish', 'Prawns', 'crustaceans'],
  ['crustaceans', 'Crab meat', 'crustaceans'],
  ['eggs', 'Mayonnaise', 'eggs'],
  ['fish', 'Anchovies', 'fish'],
  ['peanuts', 'Peanut butter', 'word'],
  ['soy', 'Edamame beans', 'soy'],
  ['soy', 'Soy sauce', 'word'],
  ['milk', 'Butter', 'milk'],
  ['dairy', 'Greek yogurt', 'milk'],
  ['milk', 'Milk chocolate', 'word'],
  ['lactose', 'Sour cream', 'milk'],
  ['tree nuts', 'Almonds', 'nuts'],
  ['celery', 'Celeriac', 'celery'],
  ['mustard', 'Mustard seeds', 'word'],
  ['sesame', 'Hummus', 'sesame'],
  ['sulphites', 'White wine', 'sulphites'],
  ['lupin', 'Lupin flour', 'word'],
  ['molluscs', 'Mussels', 'molluscs'],
  ['mollusks', 'Squid rings', 'molluscs'],
  // One food named finds its names in the other language; a group's known exceptions are not found through it.
  ['mandler', 'Almond flour', 'nuts'],
  ['almonds', 'Mandelmel', 'nuts'],
  ['reker', 'Prawns', 'crustaceans'],
  // Fail closed: a short or unreadable avoid matches by containment; egg finds eggplant (an accepted false alarm).
  ['egg', 'Eggplant', 'word'],
  ['is', 'Vaniljeis', 'word'],
  ['-- nøtt --', 'Nøttemix', 'word'],
  // Must not match.
  ['nøtter', 'Pasta', null],
  ['melk', 'Olivenolje', null],
  ['melk', 'Hvetemel', null],
  ['fisk', 'Kylling', null],
  ['gluten', 'Ris', null],
  ['gluten', 'Rice', null],
  ['gluten', 'Poteter', null],
  ['gluten', 'Mais', null],
  ['skalldyr', 'Laks', null],
  ['soya', 'Kikerter', null],
  ['peanøtter', 'Mandler', null],
  ['shellfish', 'Salmon', null],
  ['milk', 'Peanut butter', null],
  ['milk', 'Coconut milk', 'word'],
  ['melk', 'Kokosmelk', 'word'],
  ['laktose', 'Havremelk', null],
  ['egg', 'Bacon', null],
  ['sesame', 'Sunflower seeds', null],
  ['mustard', 'Ketchup', null],
  ['celery', 'Carrot', null],
  ['molluscs', 'Chicken breast', null],
  ['lupin', 'Linser', null],
];

describe('avoid matcher (core/shared/avoids.ts)', () => {
  it(`decides ${ROWS.length} avoid/ingredient pairs as the table says (${ROWS.filter((r) => r[2] === null).length} must not match)`, () => {
    const wrong: string[] = [];
    for (const [avoid, ingredient, expected] of ROWS) {
      const found = avoidConflict([avoid], { displayName: ingredient, foodKey: normalizeFoodKey(ingredient) });
      const got = found === null ? null : found.via === 'word' ? 'word' : found.group;
      if (got !== expected) wrong.push(`${avoid} / ${ingredient}: expected ${expected}, got ${got}`);
    }
    expect(wrong).to.deep.equal([]);
    expect(ROWS.length).to.be.at.least(60);
  });

  it('finds each of the 14 allergen groups, named in nb and in en, through a food whose name is not the avoid', () => {
    const GROUP_ROWS: readonly (readonly [AllergenGroup, string, string, string, string])[] = [
      ['gluten', 'gluten', 'Rugmel', 'gluten', 'Couscous'],
      ['crustaceans', 'skalldyr', 'Krabbeklør', 'crustaceans', 'Lobster tail'],
      ['eggs', 'egg', 'Majones', 'eggs', 'Meringue'],
      ['fish', 'fisk', 'Makrell i tomat', 'fish', 'Tuna steak'],
      ['peanuts', 'peanøtter', 'Satay', 'peanuts', 'Satay sauce'],
      ['soy', 'soya', 'Tempeh', 'soy', 'Miso paste'],
      ['milk', 'melk', 'Smør', 'milk', 'Cheddar'],
      ['nuts', 'nøtter', 'Marsipan', 'tree nuts', 'Macadamia'],
      ['celery', 'selleri', 'Celeriac', 'celery', 'Celeriac'],
      ['mustard', 'sennep', 'Dijon', 'mustard', 'Dijon'],
      ['sesame', 'sesam', 'Tahini', 'sesame', 'Halva'],
      ['sulphites', 'sulfitt', 'Rosiner', 'sulphites', 'Raisins'],
      ['lupin', 'lupin', 'Lupinmel', 'lupine', 'Lupin flour'],
      ['molluscs', 'bløtdyr', 'Østers', 'molluscs', 'Scallops'],
    ];
    expect(new Set(GROUP_ROWS.map((r) => r[0])).size).to.equal(14);
    for (const [group, nb, nbFood, en, enFood] of GROUP_ROWS) {
      for (const [avoid, food] of [[nb, nbFood], [en, enFood]] as const) {
        const found = avoidConflict([avoid], { displayName: food, foodKey: normalizeFoodKey(food) });
        // Lupin's only foods carry its name: found through the word itself.
        expect(found === null ? null : found.group ?? 'word', `${avoid} / ${food}`).to.equal(group === 'lupin' ? 'word' : group);
      }
    }
  });

  it('answers the first avoid that matches, as the household wrote it, and the ingredient as the recipe names it', () => {
    const match = avoidMatcher(['Koriander', 'SKALLDYR ', 'nøtter']);
    expect(match({ displayName: 'Scampi i hvitløk', foodKey: 'scampi-i-hvitlok' })).to.deep.equal({ avoid: 'SKALLDYR ', ingredient: 'Scampi i hvitløk', via: 'group', group: 'crustaceans' });
    expect(match({ displayName: 'Hasselnøtter', foodKey: 'hasselnøtter' })).to.deep.equal({ avoid: 'nøtter', ingredient: 'Hasselnøtter', via: 'word', group: null });
    expect(match({ displayName: 'Gulrot', foodKey: 'gulrot' })).to.equal(null);
    // The food key counts too: a recipe line named loosely still has its normalized key.
    expect(avoidConflict(['nøtter'], { displayName: 'Topping', foodKey: 'hasselnøtter' })?.avoid).to.equal('nøtter');
  });

  it('never matches with no avoids, or avoids that hold no letter or digit', () => {
    expect(avoidConflict([], { displayName: 'Hasselnøtter', foodKey: 'hasselnøtter' })).to.equal(null);
    expect(avoidConflict(['  ', '--'], { displayName: 'Hasselnøtter', foodKey: 'hasselnøtter' })).to.equal(null);
  });

  it('folds text and stems words as documented', () => {
    expect(foldText('  Crème Fraîche, 18 %  ')).to.equal('creme fraiche 18');
    expect(foldText('BLA\u030ABÆR Øl')).to.equal('blåbær øl');
    expect(foldText('Käse Öl')).to.equal('kæse øl');
    expect(['nøttene', 'reker', 'berries', 'tomatoes', 'nuts', 'gress', 'egg'].map(stemOf)).to.deep.equal(['nøtt', 'rek', 'berry', 'tomato', 'nut', 'gress', 'egg']);
  });
});
