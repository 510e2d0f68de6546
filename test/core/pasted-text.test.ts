import { expect } from 'chai';
import fc from 'fast-check';
import { previewOf } from '../../core/recipes/import.js';
import { PASTED_TEXT_MAX_CHARS, readPastedRecipe } from '../../core/recipes/pasted-text.js';
import { RECIPE_LIMITS as L } from '../../core/recipes/types.js';

interface Expected {
  title: string;
  ingredients: string[];
  steps: string[];
  servings?: number | null;
  totalMinutes?: number | null;
  activeMinutes?: number | null;
}

function expectRead(text: string, want: Expected) {
  const read = readPastedRecipe(text);
  expect(read.title, 'title').to.equal(want.title);
  expect(read.ingredientLines, 'ingredients').to.deep.equal(want.ingredients);
  expect(read.steps, 'steps').to.deep.equal(want.steps);
  if (want.servings !== undefined) expect(read.servings, 'servings').to.equal(want.servings);
  if (want.totalMinutes !== undefined) expect(read.totalMinutes, 'totalMinutes').to.equal(want.totalMinutes);
  if (want.activeMinutes !== undefined) expect(read.activeMinutes, 'activeMinutes').to.equal(want.activeMinutes);
  return read;
}

describe('a recipe pasted as text (core/recipes/pasted-text)', () => {
  it('reads a Norwegian recipe with headings, servings and time, as a recipe site copies', () => {
    expectRead(
      `Fiskesuppe med laks

4 porsjoner
Tid: 45 min

Ingredienser
400 g laks
2 gulrøtter
1 purre
5 dl fiskekraft
3 dl matfløte
Salt og pepper

Fremgangsmåte
1. Skrell og skjær gulrøttene i biter.
2. Kok opp kraften med grønnsakene.
3. Tilsett fløte og laks i terninger, og la det trekke i 5 minutter.
4. Smak til med salt og pepper.`,
      {
        title: 'Fiskesuppe med laks',
        ingredients: ['400 g laks', '2 gulrøtter', '1 purre', '5 dl fiskekraft', '3 dl matfløte', 'Salt og pepper'],
        steps: ['Skrell og skjær gulrøttene i biter.', 'Kok opp kraften med grønnsakene.', 'Tilsett fløte og laks i terninger, og la det trekke i 5 minutter.', 'Smak til med salt og pepper.'],
        servings: 4,
        totalMinutes: 45,
      },
    );
  });

  it('reads an English recipe with "Serves", prep and cook time added up, and bullets', () => {
    expectRead(
      `Easy Chicken Curry
Serves 4
Prep time: 15 minutes
Cook time: 30 minutes

Ingredients:
• 2 tbsp vegetable oil
• 1 onion, chopped
• 500g chicken thighs
• 400ml coconut milk
• 2 tbsp curry paste

Method:
1) Heat the oil in a large pan and fry the onion until soft.
2) Add the chicken and curry paste and fry for 5 minutes.
3) Pour in the coconut milk and simmer for 20 minutes.`,
      {
        title: 'Easy Chicken Curry',
        ingredients: ['2 tbsp vegetable oil', '1 onion, chopped', '500g chicken thighs', '400ml coconut milk', '2 tbsp curry paste'],
        steps: ['Heat the oil in a large pan and fry the onion until soft.', 'Add the chicken and curry paste and fry for 5 minutes.', 'Pour in the coconut milk and simmer for 20 minutes.'],
        servings: 4,
        totalMinutes: 45,
        activeMinutes: 15,
      },
    );
  });

  it('reads a note from a phone with no headings: short lines with amounts, then sentences', () => {
    expectRead(
      `Mormors kjøttkaker
500 g kjøttdeig
1 ts salt
1/2 ts pepper
1 egg
1 dl melk
2 ss potetmel
Bland kjøttdeig med salt og pepper, og rør inn egg, melk og potetmel.
Form til kaker og stek dem i smør i en varm panne.
Legg dem i brun saus og la dem småkoke i 15 minutter.`,
      {
        title: 'Mormors kjøttkaker',
        ingredients: ['500 g kjøttdeig', '1 ts salt', '1/2 ts pepper', '1 egg', '1 dl melk', '2 ss potetmel'],
        steps: [
          'Bland kjøttdeig med salt og pepper, og rør inn egg, melk og potetmel.',
          'Form til kaker og stek dem i smør i en varm panne.',
          'Legg dem i brun saus og la dem småkoke i 15 minutter.',
        ],
        servings: null,
      },
    );
  });

  it('reads an e-mail with headers, a greeting, "Du trenger" and "Slik gjør du", and CRLF line ends', () => {
    const mail = [
      'Fra: Kari Nordmann <kari@example.no>',
      'Sendt: 12. mars 2026 18:02',
      'Til: Ola <ola@example.no>',
      'Emne: Oppskrift: Taco',
      '',
      'Hei! Her er tacooppskriften vi snakket om.',
      '',
      'Taco fredag',
      'Til 4 personer',
      '',
      'Du trenger:',
      '- 400 g kjøttdeig',
      '- 1 pose tacokrydder',
      '- 1 boks mais',
      '- 8 tortillalefser',
      '',
      'Slik gjør du:',
      'Brun kjøttdeigen i en stekepanne.',
      'Rør inn krydder og 1 dl vann, og la det koke i 5 minutter.',
      'Server i lefser med mais.',
      '',
      'Klem',
      'Kari',
      '',
      'Sendt fra min iPhone',
    ].join('\r\n');
    expectRead(mail, {
      title: 'Taco fredag',
      ingredients: ['400 g kjøttdeig', '1 pose tacokrydder', '1 boks mais', '8 tortillalefser'],
      steps: ['Brun kjøttdeigen i en stekepanne.', 'Rør inn krydder og 1 dl vann, og la det koke i 5 minutter.', 'Server i lefser med mais.'],
      servings: 4,
    });
    expect(readPastedRecipe(mail).yields).to.equal('Til 4 personer');
  });

  it('reads a blog copy with junk lines: print and share buttons, ratings, an introduction, notes and nutrition', () => {
    expectRead(
      `Jump to Recipe
Print
Creamy Tomato Pasta
★★★★★
4.8 from 120 reviews
This is the pasta my kids ask for every single week, and it takes no time at all to make on a busy weeknight.
Pin
Share

Ingredients
▢ 300 g spaghetti
▢ 1 can chopped tomatoes (400 g)
▢ 1 dl cream
▢ 2 cloves garlic
▢ Parmesan, to serve

Instructions
Cook the spaghetti as the packet says.
Fry the garlic in a little oil, add the tomatoes and simmer for 10 minutes.
Stir in the cream and toss with the pasta.

Notes
You can use crème fraîche instead of cream.

Nutrition
Calories: 520kcal | Protein: 18g`,
      {
        title: 'Creamy Tomato Pasta',
        ingredients: ['300 g spaghetti', '1 can chopped tomatoes (400 g)', '1 dl cream', '2 cloves garlic', 'Parmesan, to serve'],
        steps: ['Cook the spaghetti as the packet says.', 'Fry the garlic in a little oil, add the tomatoes and simmer for 10 minutes.', 'Stir in the cream and toss with the pasta.'],
      },
    );
  });

  it('reads "Steg 1" steps whose text is on the next line, and a step wrapped over two lines', () => {
    expectRead(
      `Pannekaker
Ingredienser (4 porsjoner):
3 egg
5 dl melk
2,5 dl hvetemel
1/2 ts salt
Slik gjør du:
Steg 1
Visp sammen mel, salt og halvparten av melken til en
klumpfri røre.
Steg 2
Spe med resten av melken og la røren svelle i 30 minutter.
Steg 3
Stek tynne pannekaker i smør.`,
      {
        title: 'Pannekaker',
        ingredients: ['3 egg', '5 dl melk', '2,5 dl hvetemel', '1/2 ts salt'],
        steps: ['Visp sammen mel, salt og halvparten av melken til en klumpfri røre.', 'Spe med resten av melken og la røren svelle i 30 minutter.', 'Stek tynne pannekaker i smør.'],
        servings: 4,
      },
    );
  });

  it('reads an ingredients heading with the steps after it under no heading of their own', () => {
    expectRead(
      `Ovnsbakt laks
Ingredienser:
4 laksefileter
1 sitron
2 ss olivenolje
Salt og pepper

Legg laksen i en ildfast form og drypp over olje.
Krydre med salt og pepper og legg på sitronskiver.
Stek i ovnen på 200 grader i 15 minutter.`,
      {
        title: 'Ovnsbakt laks',
        ingredients: ['4 laksefileter', '1 sitron', '2 ss olivenolje', 'Salt og pepper'],
        steps: ['Legg laksen i en ildfast form og drypp over olje.', 'Krydre med salt og pepper og legg på sitronskiver.', 'Stek i ovnen på 200 grader i 15 minutter.'],
      },
    );
  });

  it('reads a Swedish, a Danish and a German paste by their headings', () => {
    expectRead('Köttbullar\n4 portioner\nIngredienser\n500 g köttfärs\n1 ägg\nGör så här\nBlanda allt och forma bullar.\nStek dem i smör.', {
      title: 'Köttbullar',
      ingredients: ['500 g köttfärs', '1 ägg'],
      steps: ['Blanda allt och forma bullar.', 'Stek dem i smör.'],
      servings: 4,
    });
    expectRead('Frikadeller\nDet skal du bruge:\n500 g hakket svinekød\n1 løg\nSådan gør du:\nRør farsen og steg frikadellerne.', {
      title: 'Frikadeller',
      ingredients: ['500 g hakket svinekød', '1 løg'],
      steps: ['Rør farsen og steg frikadellerne.'],
    });
    expectRead('Kartoffelsuppe\nZutaten für 4 Personen:\n1 kg Kartoffeln\n1 l Brühe\nZubereitung:\nKartoffeln schälen und in der Brühe kochen.', {
      title: 'Kartoffelsuppe',
      ingredients: ['1 kg Kartoffeln', '1 l Brühe'],
      steps: ['Kartoffeln schälen und in der Brühe kochen.'],
      servings: 4,
    });
  });

  it('reads a paste with no blank lines and no headings, markdown title and asterisk bullets', () => {
    expectRead(
      `## Guacamole
* 2 avocados
* 1 lime
* 1/2 red onion
* Salt
Mash the avocados with the lime juice in a bowl.
Chop the onion finely and stir it in, then season with salt.`,
      {
        title: 'Guacamole',
        ingredients: ['2 avocados', '1 lime', '1/2 red onion', 'Salt'],
        steps: ['Mash the avocados with the lime juice in a bowl.', 'Chop the onion finely and stir it in, then season with salt.'],
      },
    );
  });

  it('reads servings and time on one line ("4 porsjoner | 1 t 15 min") and an hour in words', () => {
    const read = expectRead('Lasagne\n4 porsjoner | 1 t 15 min\nIngredienser\n500 g kjøttdeig\n9 lasagneplater\nFremgangsmåte\nLag kjøttsausen og legg lasagnen lagvis.', {
      title: 'Lasagne',
      ingredients: ['500 g kjøttdeig', '9 lasagneplater'],
      steps: ['Lag kjøttsausen og legg lasagnen lagvis.'],
      servings: 4,
      totalMinutes: 75,
    });
    expect(read.yields).to.equal('4 porsjoner');
    expect(readPastedRecipe('Gryte\nTid: ca. 1 time\n2 løk\n500 g storfe\nBrun kjøttet og la det putre lenge i kraften.').totalMinutes).to.equal(60);
    expect(readPastedRecipe('Stew\nTotal time: 1 hour 10 minutes\nMakes 6\n2 onions\nCook it all slowly for an hour or so.').totalMinutes).to.equal(70);
    expect(readPastedRecipe('Stew\nTotal time: 1 hour 10 minutes\nMakes 6\n2 onions\nCook it all slowly for an hour or so.').servings).to.equal(6);
  });

  it('keeps group headings inside the ingredients for the line reader to drop, and an introduction out', () => {
    const read = expectRead(
      `Taco med hjemmelaget salsa
En fredagsklassiker som hele familien liker, og som er rask å lage etter en lang dag.
400 g kjøttdeig
1 pose tacokrydder
Til salsaen:
4 tomater
1 rødløk
Stek kjøttdeigen og rør inn krydderet med litt vann.
Hakk tomater og løk til salsaen.`,
      {
        title: 'Taco med hjemmelaget salsa',
        ingredients: ['400 g kjøttdeig', '1 pose tacokrydder', 'Til salsaen:', '4 tomater', '1 rødløk'],
        steps: ['Stek kjøttdeigen og rør inn krydderet med litt vann.', 'Hakk tomater og løk til salsaen.'],
      },
    );
    const preview = previewOf(read, null);
    expect(preview.recipe.ingredients.map((i) => i.displayName)).to.deep.equal(['kjøttdeig', 'tacokrydder', 'tomater', 'rødløk']);
    expect(preview.warnings).to.include('lines_dropped');
  });

  it('reads a list alone (only ingredients) and steps alone, saying which part is missing', () => {
    const list = readPastedRecipe('Handleliste til vafler\n3 egg\n5 dl melk\n4 dl hvetemel\n100 g smør');
    expect(list.ingredientLines).to.deep.equal(['3 egg', '5 dl melk', '4 dl hvetemel', '100 g smør']);
    expect(list.warnings).to.deep.equal(['no_steps']);
    const steps = readPastedRecipe('Grillet mais\nGrill maiskolbene i ti minutter og snu dem ofte.\nPensle med smør og strø over salt.');
    expect(steps.ingredientLines).to.deep.equal([]);
    expect(steps.steps).to.have.length(2);
    expect(steps.warnings).to.deep.equal(['no_ingredients']);
  });

  it('takes a title for text that starts with the ingredients, and gives one for text with no letters', () => {
    expect(readPastedRecipe('400 g kjøttdeig\n1 løk\nStek alt sammen i en stor panne.').title).to.equal('400 g kjøttdeig');
    const empty = readPastedRecipe('\n\n  —  \n***\n');
    expect(empty.title).to.have.length.greaterThan(0);
    expect([empty.ingredientLines, empty.steps]).to.deep.equal([[], []]);
  });

  it('reads an English note with "You will need", "Directions", American measures and an en dash range', () => {
    const read = expectRead(
      `Banana bread
Yield: 1 loaf (10 slices)
You will need
- 3 ripe bananas
- 1/3 cup melted butter
- 3/4 cup sugar
- 1 1/2 cups flour
- 1 tsp baking soda
Directions
Mash the bananas and mix in the butter.
Stir in the sugar, the flour and the baking soda.
Bake at 175 °C for 55–60 minutes.`,
      {
        title: 'Banana bread',
        ingredients: ['3 ripe bananas', '1/3 cup melted butter', '3/4 cup sugar', '1 1/2 cups flour', '1 tsp baking soda'],
        steps: ['Mash the bananas and mix in the butter.', 'Stir in the sugar, the flour and the baking soda.', 'Bake at 175 °C for 55–60 minutes.'],
      },
    );
    const preview = previewOf(read, null);
    expect(preview.lines[1]!.flags).to.include('converted');
  });

  it('reads a blog copy with sub-headings in the list, "Forberedelse" and "Tilberedning" added up, servings in the title or after "Makes"', () => {
    expectRead(
      `Kylling tikka masala
Oppskrift fra Trines Matblogg
Porsjoner: 4
Forberedelse: 15 min
Tilberedning: 30 min

INGREDIENSER
Marinade:
2 dl yoghurt naturell
1 ss garam masala
Saus:
1 boks hakkede tomater
600 g kyllingfilet

FREMGANGSMÅTE
Bland yoghurt og krydder, og legg kyllingen i marinaden.
Stek kyllingen og lag sausen.`,
      {
        title: 'Kylling tikka masala',
        ingredients: ['Marinade:', '2 dl yoghurt naturell', '1 ss garam masala', 'Saus:', '1 boks hakkede tomater', '600 g kyllingfilet'],
        steps: ['Bland yoghurt og krydder, og legg kyllingen i marinaden.', 'Stek kyllingen og lag sausen.'],
        servings: 4,
        totalMinutes: 45,
        activeMinutes: 15,
      },
    );
    expectRead('Spaghetti carbonara (2 servings)\n\n200g spaghetti\n100g pancetta\n2 eggs\n\n1. Cook the pasta.\n2. Fry the pancetta until crisp.', {
      title: 'Spaghetti carbonara',
      ingredients: ['200g spaghetti', '100g pancetta', '2 eggs'],
      steps: ['Cook the pasta.', 'Fry the pancetta until crisp.'],
      servings: 2,
    });
    expectRead('Pizza dough\nMakes 2 pizzas\nReady in 2 hours\n- 500 g flour\n- 3 dl water\nMix everything and knead for 10 minutes. Let it rise for 1 hour.', {
      title: 'Pizza dough',
      ingredients: ['500 g flour', '3 dl water'],
      steps: ['Mix everything and knead for 10 minutes. Let it rise for 1 hour.'],
      servings: 2,
      totalMinutes: 120,
    });
  });

  it('reads short steps without full stops as steps when a blank line parts them from the list, and "Salt og pepper" as the end of the list', () => {
    expectRead('Taco\n400 g kjøttdeig\n1 pose krydder\nSalt og pepper\n\nBrun kjøttet\nHa i krydder og vann\nServer i lefser', {
      title: 'Taco',
      ingredients: ['400 g kjøttdeig', '1 pose krydder', 'Salt og pepper'],
      steps: ['Brun kjøttet', 'Ha i krydder og vann', 'Server i lefser'],
    });
  });

  it('never throws and keeps the limits of a RecipeRequest, whatever the text (property)', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.constantFrom('Ingredienser', 'Fremgangsmåte:', '4 porsjoner', 'Tid: 45 min', '1.', 'Steg 2', '- 2 dl fløte', '• 400 g laks', '', 'Print', '★★★★★', 'Til sausen:'),
      fc.string({ unit: 'binary', maxLength: 300 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 300 }), fc.constantFrom('\n', '\r\n', '\r', ' '), (lines, eol) => {
        const read = readPastedRecipe(lines.join(eol));
        const p = previewOf(read, null);
        expect(p.recipe.title.length).to.be.within(1, L.titleMax);
        expect(p.recipe.servings).to.be.within(L.servingsMin, L.servingsMax);
        expect(p.recipe.steps.length).to.be.at.most(L.stepsMax);
        for (const s of p.recipe.steps) expect(s.length).to.be.within(1, L.stepMax);
        expect(p.recipe.ingredients.length).to.be.at.most(L.ingredientsMax);
        for (const i of p.recipe.ingredients) expect(i.displayName.length).to.be.within(1, L.displayNameMax);
        for (const m of [p.recipe.totalMinutes, p.recipe.activeMinutes]) if (m !== null) expect(m).to.be.within(0, L.minutesMax);
        if (p.recipe.activeMinutes !== null && p.recipe.totalMinutes !== null) expect(p.recipe.activeMinutes).to.be.at.most(p.recipe.totalMinutes);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a huge paste in bounded time and within the limits', () => {
    const huge = Array.from({ length: 5000 }, (_, i) => (i % 2 ? `${i} g mel` : `Rør godt i bollen i ${i} minutter til alt er blandet.`)).join('\n');
    const started = performance.now();
    const p = previewOf(readPastedRecipe(huge + 'x'.repeat(PASTED_TEXT_MAX_CHARS)), null);
    expect(performance.now() - started).to.be.below(2000);
    expect(p.recipe.steps.length).to.be.at.most(L.stepsMax);
    expect(p.recipe.ingredients.length).to.be.at.most(L.ingredientsMax);
  });
});
