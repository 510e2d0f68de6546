import { expect } from 'chai';
import { parseIngredientLine } from '../../core/recipes/ingredient-line.js';
import { RECIPE_LIMITS } from '../../core/recipes/types.js';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';
import { canonicalUnit, type CanonicalUnit } from '../../core/food/units.js';

interface Want {
  readonly quantity: number | null;
  readonly unit: CanonicalUnit | null;
  readonly displayName: string;
  readonly note?: string;
  readonly optional?: boolean;
  /** Every flag but 'no_quantity' (which is asserted from the quantity). None given: none expected. */
  readonly flags?: readonly string[];
  /** None given: the rule, low without a quantity, medium when a guess is flagged, else high. */
  readonly confidence?: 'high' | 'medium' | 'low';
}

const GUESSES = ['range', 'converted', 'approximate', 'note_split', 'unknown_unit', 'vague_amount', 'multiplied', 'pack_size', 'amount_after', 'sum', 'part_of', 'truncated'];

/** Lines as recipe sites show them (matprat, tine, kitchn, BBC Good Food, allrecipes...), and what they must become. */
const ROWS: ReadonlyArray<readonly [string, Want]> = [
  // nb: amount, unit, food
  ['400 g kjøttdeig', { quantity: 400, unit: 'g', displayName: 'kjøttdeig' }],
  ['2 dl fløte', { quantity: 2, unit: 'dl', displayName: 'fløte' }],
  ['1 kg poteter', { quantity: 1, unit: 'kg', displayName: 'poteter' }],
  ['1 ss olivenolje', { quantity: 1, unit: 'tbsp', displayName: 'olivenolje' }],
  ['1 ts salt', { quantity: 1, unit: 'tsp', displayName: 'salt' }],
  ['3 dl matfløte', { quantity: 3, unit: 'dl', displayName: 'matfløte' }],
  ['200 g revet ost', { quantity: 200, unit: 'g', displayName: 'revet ost' }],
  ['25 g gjær', { quantity: 25, unit: 'g', displayName: 'gjær' }],
  ['1 liter vann', { quantity: 1, unit: 'l', displayName: 'vann' }],
  ['2 spiseskjeer soyasaus', { quantity: 2, unit: 'tbsp', displayName: 'soyasaus' }],
  ['1 teskje tørket timian', { quantity: 1, unit: 'tsp', displayName: 'tørket timian' }],
  ['5 cl konjakk', { quantity: 5, unit: 'cl', displayName: 'konjakk' }],
  ['250 ml kokosmelk', { quantity: 250, unit: 'ml', displayName: 'kokosmelk' }],
  ['600 g laksefilet uten skinn', { quantity: 600, unit: 'g', displayName: 'laksefilet uten skinn' }],
  ['300 g spaghetti eller annen pasta', { quantity: 300, unit: 'g', displayName: 'spaghetti eller annen pasta' }],
  // nb: counts are pieces
  ['3 egg', { quantity: 3, unit: 'pcs', displayName: 'egg' }],
  ['1 løk', { quantity: 1, unit: 'pcs', displayName: 'løk' }],
  ['2 gulrøtter', { quantity: 2, unit: 'pcs', displayName: 'gulrøtter' }],
  ['1 rød paprika', { quantity: 1, unit: 'pcs', displayName: 'rød paprika' }],
  ['4 kyllingfileter (ca. 600 g)', { quantity: 4, unit: 'pcs', displayName: 'kyllingfileter', note: 'ca. 600 g' }],
  ['1 stk agurk', { quantity: 1, unit: 'pcs', displayName: 'agurk' }],
  ['2 stk. rødløk', { quantity: 2, unit: 'pcs', displayName: 'rødløk' }],
  ['2 eggeplommer', { quantity: 2, unit: 'pcs', displayName: 'eggeplommer' }],
  // nb: numbers
  ['1,5 dl melk', { quantity: 1.5, unit: 'dl', displayName: 'melk' }],
  ['1.5 dl melk', { quantity: 1.5, unit: 'dl', displayName: 'melk' }],
  ['2 ½ dl lunkent vann', { quantity: 2.5, unit: 'dl', displayName: 'lunkent vann' }],
  ['1½ dl sukker', { quantity: 1.5, unit: 'dl', displayName: 'sukker' }],
  ['1 1/2 ts bakepulver', { quantity: 1.5, unit: 'tsp', displayName: 'bakepulver' }],
  ['1/2 ts pepper', { quantity: 0.5, unit: 'tsp', displayName: 'pepper' }],
  ['½ ts kardemomme', { quantity: 0.5, unit: 'tsp', displayName: 'kardemomme' }],
  ['¼ ts kanel', { quantity: 0.25, unit: 'tsp', displayName: 'kanel' }],
  ['¾ dl sukker', { quantity: 0.75, unit: 'dl', displayName: 'sukker' }],
  ['⅓ ts muskat', { quantity: 0.333333333333, unit: 'tsp', displayName: 'muskat' }],
  ['1⁄2 ts salt', { quantity: 0.5, unit: 'tsp', displayName: 'salt' }],
  // nb: units glued to the number
  ['400g kjøttdeig', { quantity: 400, unit: 'g', displayName: 'kjøttdeig' }],
  ['2dl fløte', { quantity: 2, unit: 'dl', displayName: 'fløte' }],
  ['1ss smør', { quantity: 1, unit: 'tbsp', displayName: 'smør' }],
  ['400 gr laks', { quantity: 400, unit: 'g', displayName: 'laks' }],
  ['1,5kg lammelår', { quantity: 1.5, unit: 'kg', displayName: 'lammelår' }],
  ['10stk reker', { quantity: 10, unit: 'pcs', displayName: 'reker' }],
  // nb: packages
  ['1 pk. tacokrydder', { quantity: 1, unit: 'pk', displayName: 'tacokrydder' }],
  ['1 pakke (500 g) spaghetti', { quantity: 1, unit: 'pk', displayName: 'spaghetti', note: '500 g' }],
  ['1 boks hakkede tomater (400 g)', { quantity: 1, unit: 'bx', displayName: 'hakkede tomater', note: '400 g' }],
  ['1 boks kokosmelk (400 ml)', { quantity: 1, unit: 'bx', displayName: 'kokosmelk', note: '400 ml' }],
  ['2 bokser hakkede tomater à 400 g', { quantity: 2, unit: 'bx', displayName: 'hakkede tomater', note: '400 g' }],
  ['1 bunt frisk persille', { quantity: 1, unit: 'bunt', displayName: 'frisk persille' }],
  ['1 bunt vårløk, i tynne ringer', { quantity: 1, unit: 'bunt', displayName: 'vårløk', note: 'i tynne ringer', flags: ['note_split'] }],
  ['1 flaske rødvin', { quantity: 1, unit: 'fl', displayName: 'rødvin' }],
  ['1 pose frosne erter', { quantity: 1, unit: 'pk', displayName: 'frosne erter' }],
  ['1 beger rømme (3 dl)', { quantity: 1, unit: 'pk', displayName: 'rømme', note: '3 dl' }],
  ['1 boks med mais', { quantity: 1, unit: 'bx', displayName: 'mais' }],
  ['2 x 400 g hakkede tomater', { quantity: 800, unit: 'g', displayName: 'hakkede tomater', flags: ['multiplied'] }],
  ['1 kg (ca. 8) poteter', { quantity: 1, unit: 'kg', displayName: 'poteter', note: 'ca. 8' }],
  // nb: notes after a comma, a spaced dash, in brackets
  ['2 løk, finhakket', { quantity: 2, unit: 'pcs', displayName: 'løk', note: 'finhakket', flags: ['note_split'] }],
  ['100 g smør, romtemperert', { quantity: 100, unit: 'g', displayName: 'smør', note: 'romtemperert', flags: ['note_split'] }],
  ['1 rød paprika, i strimler', { quantity: 1, unit: 'pcs', displayName: 'rød paprika', note: 'i strimler', flags: ['note_split'] }],
  ['1 kg poteter, skrelt og delt i båter', { quantity: 1, unit: 'kg', displayName: 'poteter', note: 'skrelt og delt i båter', flags: ['note_split'] }],
  ['400 g kyllingfilet, i strimler, gjerne økologisk', { quantity: 400, unit: 'g', displayName: 'kyllingfilet', note: 'i strimler, gjerne økologisk', flags: ['note_split'] }],
  ['2 gulrøtter - i skiver', { quantity: 2, unit: 'pcs', displayName: 'gulrøtter', note: 'i skiver', flags: ['note_split'] }],
  ['5 dl hvetemel (ca. 300 g)', { quantity: 5, unit: 'dl', displayName: 'hvetemel', note: 'ca. 300 g' }],
  ['1 dl fløte (eller melk)', { quantity: 1, unit: 'dl', displayName: 'fløte', note: 'eller melk' }],
  ['1 kg poteter (gjerne mandelpoteter)', { quantity: 1, unit: 'kg', displayName: 'poteter', note: 'gjerne mandelpoteter' }],
  ['½ sitron, saften', { quantity: 0.5, unit: 'pcs', displayName: 'sitron', note: 'saften', flags: ['note_split'] }],
  ['2 dl kraft, f.eks. kyllingkraft', { quantity: 2, unit: 'dl', displayName: 'kraft', note: 'f.eks. kyllingkraft', flags: ['note_split'] }],
  // nb: sizes go to the note, so the food keeps its key
  ['1 stor løk, finhakket', { quantity: 1, unit: 'pcs', displayName: 'løk', note: 'stor, finhakket', flags: ['size', 'note_split'] }],
  ['2 små rødløk', { quantity: 2, unit: 'pcs', displayName: 'rødløk', note: 'små', flags: ['size'] }],
  ['3 store poteter', { quantity: 3, unit: 'pcs', displayName: 'poteter', note: 'store', flags: ['size'] }],
  ['1 middels squash', { quantity: 1, unit: 'pcs', displayName: 'squash', note: 'middels', flags: ['size'] }],
  ['1 toppet ss sukker', { quantity: 1, unit: 'tbsp', displayName: 'sukker', note: 'toppet', flags: ['size'] }],
  ['1 liten boks mais', { quantity: 1, unit: 'bx', displayName: 'mais', note: 'liten', flags: ['size'] }],
  // nb: measures with no size stay in the name, counted
  ['2 fedd hvitløk', { quantity: 2, unit: 'pcs', displayName: 'fedd hvitløk', flags: ['unknown_unit'] }],
  ['4 fedd hvitløk, presset', { quantity: 4, unit: 'pcs', displayName: 'fedd hvitløk', note: 'presset', flags: ['unknown_unit', 'note_split'] }],
  ['2 stilker stangselleri', { quantity: 2, unit: 'pcs', displayName: 'stilker stangselleri', flags: ['unknown_unit'] }],
  ['4 skiver bacon', { quantity: 4, unit: 'pcs', displayName: 'skiver bacon', flags: ['unknown_unit'] }],
  ['1 kvist rosmarin', { quantity: 1, unit: 'pcs', displayName: 'kvist rosmarin', flags: ['unknown_unit'] }],
  ['2 blad gelatin', { quantity: 2, unit: 'pcs', displayName: 'blad gelatin', flags: ['unknown_unit'] }],
  // nb: ranges take the upper value
  ['2-3 fedd hvitløk', { quantity: 3, unit: 'pcs', displayName: 'fedd hvitløk', flags: ['range', 'unknown_unit'] }],
  ['2–3 ss soyasaus', { quantity: 3, unit: 'tbsp', displayName: 'soyasaus', flags: ['range'] }],
  ['2 til 3 dl fløte', { quantity: 3, unit: 'dl', displayName: 'fløte', flags: ['range'] }],
  ['1-2 ts chiliflak', { quantity: 2, unit: 'tsp', displayName: 'chiliflak', flags: ['range'] }],
  ['½-1 rød chili', { quantity: 1, unit: 'pcs', displayName: 'rød chili', flags: ['range'] }],
  ['1 1/2 - 2 kg svinenakke', { quantity: 2, unit: 'kg', displayName: 'svinenakke', flags: ['range'] }],
  ['2-3dl vann', { quantity: 3, unit: 'dl', displayName: 'vann', flags: ['range'] }],
  ['3 eller 4 poteter', { quantity: 4, unit: 'pcs', displayName: 'poteter', flags: ['range'] }],
  // nb: approximate amounts
  ['ca. 400 g kjøttdeig', { quantity: 400, unit: 'g', displayName: 'kjøttdeig', flags: ['approximate'] }],
  ['Ca 2 l vann', { quantity: 2, unit: 'l', displayName: 'vann', flags: ['approximate'] }],
  ['ca.600 g torskefilet', { quantity: 600, unit: 'g', displayName: 'torskefilet', flags: ['approximate'] }],
  ['omtrent 1 kg poteter', { quantity: 1, unit: 'kg', displayName: 'poteter', flags: ['approximate'] }],
  ['cirka 3 dl kraft', { quantity: 3, unit: 'dl', displayName: 'kraft', flags: ['approximate'] }],
  // nb: number words and articles
  ['to egg', { quantity: 2, unit: 'pcs', displayName: 'egg', flags: ['number_word'] }],
  ['tre fedd hvitløk', { quantity: 3, unit: 'pcs', displayName: 'fedd hvitløk', flags: ['number_word', 'unknown_unit'] }],
  ['en løk', { quantity: 1, unit: 'pcs', displayName: 'løk', flags: ['number_word'] }],
  ['ei stor gulrot', { quantity: 1, unit: 'pcs', displayName: 'gulrot', note: 'stor', flags: ['number_word', 'size'] }],
  ['et egg', { quantity: 1, unit: 'pcs', displayName: 'egg', flags: ['number_word'] }],
  ['halvannen dl melk', { quantity: 1.5, unit: 'dl', displayName: 'melk', flags: ['number_word'] }],
  ['en halv sitron', { quantity: 0.5, unit: 'pcs', displayName: 'sitron', flags: ['number_word'] }],
  ['en boks kikerter', { quantity: 1, unit: 'bx', displayName: 'kikerter', flags: ['number_word'] }],
  // nb: pinches and other amounts no one shops by
  ['en klype salt', { quantity: null, unit: null, displayName: 'salt', note: 'en klype', flags: ['number_word', 'vague_amount', 'to_taste'], confidence: 'medium' }],
  ['1 klype sukker', { quantity: null, unit: null, displayName: 'sukker', note: '1 klype', flags: ['vague_amount'], confidence: 'medium' }],
  ['en god klype salt', { quantity: null, unit: null, displayName: 'salt', note: 'en god klype', flags: ['number_word', 'vague_amount', 'to_taste'], confidence: 'medium' }],
  ['1 knivsodd cayennepepper', { quantity: null, unit: null, displayName: 'cayennepepper', note: '1 knivsodd', flags: ['vague_amount'], confidence: 'medium' }],
  ['en neve ruccola', { quantity: null, unit: null, displayName: 'ruccola', note: 'en neve', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['1 håndfull spinat', { quantity: null, unit: null, displayName: 'spinat', note: '1 håndfull', flags: ['vague_amount'], confidence: 'medium' }],
  ['litt olje', { quantity: null, unit: null, displayName: 'olje', note: 'litt', flags: ['vague_amount'] }],
  ['klype salt', { quantity: null, unit: null, displayName: 'salt', note: 'klype', flags: ['vague_amount', 'to_taste'] }],
  ['en skvett hvitvin', { quantity: null, unit: null, displayName: 'hvitvin', note: 'en skvett', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  // nb: to taste
  ['Salt og pepper', { quantity: null, unit: null, displayName: 'Salt og pepper', flags: ['to_taste'] }],
  ['Salt', { quantity: null, unit: null, displayName: 'Salt', flags: ['to_taste'] }],
  ['Nykvernet sort pepper', { quantity: null, unit: null, displayName: 'Nykvernet sort pepper', flags: ['to_taste'] }],
  ['salt og pepper etter smak', { quantity: null, unit: null, displayName: 'salt og pepper', flags: ['to_taste'] }],
  ['Sukker etter smak', { quantity: null, unit: null, displayName: 'Sukker', flags: ['to_taste'] }],
  ['1 ts salt, eller etter smak', { quantity: 1, unit: 'tsp', displayName: 'salt', flags: ['to_taste'] }],
  ['Chiliflak (etter smak)', { quantity: null, unit: null, displayName: 'Chiliflak', flags: ['to_taste'] }],
  ['Salt, pepper', { quantity: null, unit: null, displayName: 'Salt, pepper', flags: ['to_taste'] }],
  // nb: optional
  ['evt. 1 ss sukker', { quantity: 1, unit: 'tbsp', displayName: 'sukker', optional: true }],
  ['1 ts sukker (valgfritt)', { quantity: 1, unit: 'tsp', displayName: 'sukker', optional: true }],
  ['Eventuelt 1 chili', { quantity: 1, unit: 'pcs', displayName: 'chili', optional: true }],
  ['1 dl hakket persille, valgfritt', { quantity: 1, unit: 'dl', displayName: 'hakket persille', optional: true }],
  ['2 ss pinjekjerner, evt.', { quantity: 2, unit: 'tbsp', displayName: 'pinjekjerner', optional: true }],
  ['2 løk, evt. rødløk', { quantity: 2, unit: 'pcs', displayName: 'løk', note: 'evt. rødløk', flags: ['note_split'] }],
  // nb: what it is for goes to the note
  ['Olje til steking', { quantity: null, unit: null, displayName: 'Olje', note: 'til steking' }],
  ['Smør til steking', { quantity: null, unit: null, displayName: 'Smør', note: 'til steking' }],
  ['Revet parmesan til servering', { quantity: null, unit: null, displayName: 'Revet parmesan', note: 'til servering' }],
  ['Ferske urter til pynt', { quantity: null, unit: null, displayName: 'Ferske urter', note: 'til pynt' }],
  // nb: juice and zest of a fruit buy the fruit
  ['Saft av 1 lime', { quantity: 1, unit: 'pcs', displayName: 'lime', note: 'Saft', flags: ['part_of'] }],
  ['Revet skall og saft av 1 sitron', { quantity: 1, unit: 'pcs', displayName: 'sitron', note: 'Revet skall og saft', flags: ['part_of'] }],
  // nb: the amount after the food
  ['Kjøttdeig (ca. 400 g)', { quantity: 400, unit: 'g', displayName: 'Kjøttdeig', flags: ['approximate', 'amount_after'] }],
  ['Mel, 5 dl', { quantity: 5, unit: 'dl', displayName: 'Mel', flags: ['note_split', 'amount_after'] }],
  ['Kyllingfilet 400 g', { quantity: 400, unit: 'g', displayName: 'Kyllingfilet', flags: ['amount_after'] }],
  ['tomater 4 stk', { quantity: 4, unit: 'pcs', displayName: 'tomater', flags: ['amount_after'] }],
  ['Salt (1 ts)', { quantity: 1, unit: 'tsp', displayName: 'Salt', flags: ['amount_after'] }],
  // nb: sums, spaced thousands, alternatives
  ['1 ss + 1 ts olje', { quantity: 1.33333333333, unit: 'tbsp', displayName: 'olje', flags: ['sum'] }],
  ['1 kg + 200 g hvetemel', { quantity: 1.2, unit: 'kg', displayName: 'hvetemel', flags: ['sum'] }],
  ['1 ss + 1 egg', { quantity: null, unit: null, displayName: '1 ss + 1 egg', flags: ['unparsed'] }],
  ['1 000 g poteter', { quantity: 1000, unit: 'g', displayName: 'poteter' }],
  ['2 x egg', { quantity: 2, unit: 'pcs', displayName: 'egg' }],
  ['1 ts vaniljesukker eller 1/2 ts vaniljeekstrakt', { quantity: 1, unit: 'tsp', displayName: 'vaniljesukker', note: 'eller 1/2 ts vaniljeekstrakt', flags: ['note_split'] }],
  ['1 pk (ca. 250 g) bacon i terninger', { quantity: 1, unit: 'pk', displayName: 'bacon i terninger', note: 'ca. 250 g' }],
  // nb: list decoration
  ['- 2 dl fløte', { quantity: 2, unit: 'dl', displayName: 'fløte' }],
  ['• 1 ts salt', { quantity: 1, unit: 'tsp', displayName: 'salt' }],
  ['▢ 400 g laks', { quantity: 400, unit: 'g', displayName: 'laks' }],
  ['   2 dl   fløte  ', { quantity: 2, unit: 'dl', displayName: 'fløte' }],
  // nb: no amount, kept as written
  ['Frisk basilikum', { quantity: null, unit: null, displayName: 'Frisk basilikum' }],
  ['Se oppskrift på pizzadeig', { quantity: null, unit: null, displayName: 'Se oppskrift på pizzadeig' }],
  ['Omega 3 egg', { quantity: null, unit: null, displayName: 'Omega 3 egg' }],

  // en: cups and other American measures become metric
  ['1 1/2 cups all-purpose flour, sifted', { quantity: 3.56, unit: 'dl', displayName: 'all-purpose flour', note: 'sifted', flags: ['converted', 'note_split'] }],
  ['2 cups of flour', { quantity: 4.74, unit: 'dl', displayName: 'flour', flags: ['converted'] }],
  ['1 cup whole milk', { quantity: 2.37, unit: 'dl', displayName: 'whole milk', flags: ['converted'] }],
  ['½ cup white sugar', { quantity: 1.19, unit: 'dl', displayName: 'white sugar', flags: ['converted'] }],
  ['¼ cup olive oil', { quantity: 0.59, unit: 'dl', displayName: 'olive oil', flags: ['converted'] }],
  ['⅓ cup honey', { quantity: 0.79, unit: 'dl', displayName: 'honey', flags: ['converted'] }],
  ['¾ cup brown sugar, packed', { quantity: 1.78, unit: 'dl', displayName: 'brown sugar', note: 'packed', flags: ['converted', 'note_split'] }],
  ['1 c. sugar', { quantity: 2.37, unit: 'dl', displayName: 'sugar', flags: ['converted'] }],
  ['1 1/2 cups (355 ml) whole milk', { quantity: 3.56, unit: 'dl', displayName: 'whole milk', note: '355 ml', flags: ['converted'] }],
  ['1/3 cup (80 ml) maple syrup', { quantity: 0.79, unit: 'dl', displayName: 'maple syrup', note: '80 ml', flags: ['converted'] }],
  ['1 cup (2 sticks) unsalted butter, softened', { quantity: 2.37, unit: 'dl', displayName: 'unsalted butter', note: '2 sticks, softened', flags: ['converted', 'note_split'] }],
  ['1 lb ground beef', { quantity: 453.6, unit: 'g', displayName: 'ground beef', flags: ['converted'] }],
  ['2 pounds boneless, skinless chicken thighs', { quantity: 907.2, unit: 'g', displayName: 'boneless, skinless chicken thighs', flags: ['converted'] }],
  ['1 1/2 lbs. russet potatoes', { quantity: 680.4, unit: 'g', displayName: 'russet potatoes', flags: ['converted'] }],
  ['8 oz cream cheese, softened', { quantity: 226.8, unit: 'g', displayName: 'cream cheese', note: 'softened', flags: ['converted', 'note_split'] }],
  ['4 ounces dried spaghetti', { quantity: 113.4, unit: 'g', displayName: 'dried spaghetti', flags: ['converted'] }],
  ['2 fl oz dark rum', { quantity: 59.14, unit: 'ml', displayName: 'dark rum', flags: ['converted'] }],
  ['1 fl. oz. lime juice', { quantity: 29.57, unit: 'ml', displayName: 'lime juice', flags: ['converted'] }],
  ['1 pint heavy cream', { quantity: 4.73, unit: 'dl', displayName: 'heavy cream', flags: ['converted'] }],
  ['1 quart chicken stock', { quantity: 0.95, unit: 'l', displayName: 'chicken stock', flags: ['converted'] }],
  // en: spoons and counts
  ['2 tablespoons olive oil', { quantity: 2, unit: 'tbsp', displayName: 'olive oil' }],
  ['1 tablespoon Dijon mustard', { quantity: 1, unit: 'tbsp', displayName: 'Dijon mustard' }],
  ['1 teaspoon kosher salt', { quantity: 1, unit: 'tsp', displayName: 'kosher salt' }],
  ['1/2 tsp. baking soda', { quantity: 0.5, unit: 'tsp', displayName: 'baking soda' }],
  ['2 Tbsp. unsalted butter', { quantity: 2, unit: 'tbsp', displayName: 'unsalted butter' }],
  ['2 tsp ground cumin', { quantity: 2, unit: 'tsp', displayName: 'ground cumin' }],
  ['3 eggs', { quantity: 3, unit: 'pcs', displayName: 'eggs' }],
  ['2 onions', { quantity: 2, unit: 'pcs', displayName: 'onions' }],
  ['1 egg, beaten', { quantity: 1, unit: 'pcs', displayName: 'egg', note: 'beaten', flags: ['note_split'] }],
  ['1 onion, finely chopped', { quantity: 1, unit: 'pcs', displayName: 'onion', note: 'finely chopped', flags: ['note_split'] }],
  ['2 garlic cloves, crushed', { quantity: 2, unit: 'pcs', displayName: 'garlic cloves', note: 'crushed', flags: ['note_split'] }],
  ['3 cloves garlic, minced', { quantity: 3, unit: 'pcs', displayName: 'cloves garlic', note: 'minced', flags: ['unknown_unit', 'note_split'] }],
  ['3 slices bread', { quantity: 3, unit: 'pcs', displayName: 'slices bread', flags: ['unknown_unit'] }],
  ['6 rashers streaky bacon', { quantity: 6, unit: 'pcs', displayName: 'rashers streaky bacon', flags: ['unknown_unit'] }],
  ['1 bunch spring onions, sliced', { quantity: 1, unit: 'bunt', displayName: 'spring onions', note: 'sliced', flags: ['note_split'] }],
  ['1 bottle red wine', { quantity: 1, unit: 'fl', displayName: 'red wine' }],
  ['3 tbsp olive oil, plus extra for drizzling', { quantity: 3, unit: 'tbsp', displayName: 'olive oil', note: 'plus extra for drizzling', flags: ['note_split'] }],
  // en: sizes
  ['3 large eggs, at room temperature', { quantity: 3, unit: 'pcs', displayName: 'eggs', note: 'large, at room temperature', flags: ['size', 'note_split'] }],
  ['2 large eggs', { quantity: 2, unit: 'pcs', displayName: 'eggs', note: 'large', flags: ['size'] }],
  ['1 medium onion, diced', { quantity: 1, unit: 'pcs', displayName: 'onion', note: 'medium, diced', flags: ['size', 'note_split'] }],
  ['1 small red onion, thinly sliced', { quantity: 1, unit: 'pcs', displayName: 'red onion', note: 'small, thinly sliced', flags: ['size', 'note_split'] }],
  ['1 extra-large egg', { quantity: 1, unit: 'pcs', displayName: 'egg', note: 'extra-large', flags: ['size'] }],
  ['1 heaped tsp ground cumin', { quantity: 1, unit: 'tsp', displayName: 'ground cumin', note: 'heaped', flags: ['size'] }],
  ['2 level tbsp cornflour', { quantity: 2, unit: 'tbsp', displayName: 'cornflour', note: 'level', flags: ['size'] }],
  ['1 large (28 oz) can whole tomatoes', { quantity: 1, unit: 'bx', displayName: 'whole tomatoes', note: 'large, 28 oz', flags: ['size'] }],
  // en: cans, packs and their size
  ['1 (15-ounce) can black beans, drained and rinsed', { quantity: 1, unit: 'bx', displayName: 'black beans', note: '15-ounce, drained and rinsed', flags: ['note_split'] }],
  ['1 (28 ounce) can crushed tomatoes', { quantity: 1, unit: 'bx', displayName: 'crushed tomatoes', note: '28 ounce' }],
  ['1 (16 ounce) package spaghetti', { quantity: 1, unit: 'pk', displayName: 'spaghetti', note: '16 ounce' }],
  ['2 x 400g cans chopped tomatoes', { quantity: 2, unit: 'bx', displayName: 'chopped tomatoes', note: '400g', flags: ['pack_size'] }],
  ['1 x 400g tin chickpeas', { quantity: 1, unit: 'bx', displayName: 'chickpeas', note: '400g', flags: ['pack_size'] }],
  ['400g can chickpeas, drained', { quantity: 1, unit: 'bx', displayName: 'chickpeas', note: '400g, drained', flags: ['pack_size', 'note_split'] }],
  ['250g pack cherry tomatoes, halved', { quantity: 1, unit: 'pk', displayName: 'cherry tomatoes', note: '250g, halved', flags: ['pack_size', 'note_split'] }],
  ['12 oz. bag frozen peas', { quantity: 1, unit: 'pk', displayName: 'frozen peas', note: '12 oz.', flags: ['pack_size'] }],
  ['2 tbsp. + 1 tsp. sugar', { quantity: 2.33333333333, unit: 'tbsp', displayName: 'sugar', flags: ['sum'] }],
  ['1 dozen eggs', { quantity: 12, unit: 'pcs', displayName: 'eggs', flags: ['converted'] }],
  ['2 cups flour (250 g), sifted', { quantity: 4.74, unit: 'dl', displayName: 'flour', note: '250 g, sifted', flags: ['converted', 'note_split'] }],
  ['1 (1-inch) piece fresh ginger, grated', { quantity: 1, unit: 'pcs', displayName: 'fresh ginger', note: '1-inch, grated', flags: ['note_split'] }],
  ['2-inch piece ginger', { quantity: null, unit: null, displayName: '2-inch piece ginger', flags: ['unparsed'] }],
  ['To taste: salt', { quantity: null, unit: null, displayName: 'salt', flags: ['to_taste'] }],
  // en: the same amount in two units (BBC Good Food)
  ['100g/3½oz plain flour', { quantity: 100, unit: 'g', displayName: 'plain flour' }],
  ['200ml/7fl oz double cream', { quantity: 200, unit: 'ml', displayName: 'double cream' }],
  // en: ranges and approximate amounts
  ['2 to 3 cups vegetable stock', { quantity: 7.11, unit: 'dl', displayName: 'vegetable stock', flags: ['range', 'converted'] }],
  ['1-2 tbsp sriracha', { quantity: 2, unit: 'tbsp', displayName: 'sriracha', flags: ['range'] }],
  ['3 or 4 sprigs fresh thyme', { quantity: 4, unit: 'pcs', displayName: 'sprigs fresh thyme', flags: ['range', 'unknown_unit'] }],
  ['about 2 cups chicken broth', { quantity: 4.74, unit: 'dl', displayName: 'chicken broth', flags: ['approximate', 'converted'] }],
  ['approx. 500g beef mince', { quantity: 500, unit: 'g', displayName: 'beef mince', flags: ['approximate'] }],
  ['around 1 kg potatoes', { quantity: 1, unit: 'kg', displayName: 'potatoes', flags: ['approximate'] }],
  // en: articles and number words
  ['an onion, chopped', { quantity: 1, unit: 'pcs', displayName: 'onion', note: 'chopped', flags: ['number_word', 'note_split'] }],
  ['a lemon, juiced', { quantity: 1, unit: 'pcs', displayName: 'lemon', note: 'juiced', flags: ['number_word', 'note_split'] }],
  ['two eggs', { quantity: 2, unit: 'pcs', displayName: 'eggs', flags: ['number_word'] }],
  ['half an onion, diced', { quantity: 0.5, unit: 'pcs', displayName: 'onion', note: 'diced', flags: ['number_word', 'note_split'] }],
  ['a dozen eggs', { quantity: 12, unit: 'pcs', displayName: 'eggs', flags: ['number_word'] }],
  ['A 400g can coconut milk', { quantity: 1, unit: 'bx', displayName: 'coconut milk', note: '400g', flags: ['pack_size'] }],
  // en: pinches, handfuls, a little
  ['a pinch of salt', { quantity: null, unit: null, displayName: 'salt', note: 'a pinch', flags: ['number_word', 'vague_amount', 'to_taste'], confidence: 'medium' }],
  ['a pinch of ground nutmeg', { quantity: null, unit: null, displayName: 'ground nutmeg', note: 'a pinch', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['Pinch of cayenne pepper', { quantity: null, unit: null, displayName: 'cayenne pepper', note: 'Pinch', flags: ['vague_amount'] }],
  ['2 pinches chilli flakes', { quantity: null, unit: null, displayName: 'chilli flakes', note: '2 pinches', flags: ['vague_amount'], confidence: 'medium' }],
  ['a handful of basil leaves', { quantity: null, unit: null, displayName: 'basil leaves', note: 'a handful', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['Handful of fresh mint leaves', { quantity: null, unit: null, displayName: 'fresh mint leaves', note: 'Handful', flags: ['vague_amount'] }],
  ['a knob of butter', { quantity: null, unit: null, displayName: 'butter', note: 'a knob', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['a drizzle of olive oil', { quantity: null, unit: null, displayName: 'olive oil', note: 'a drizzle', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['a splash of milk', { quantity: null, unit: null, displayName: 'milk', note: 'a splash', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['a dash of Worcestershire sauce', { quantity: null, unit: null, displayName: 'Worcestershire sauce', note: 'a dash', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['a little olive oil', { quantity: null, unit: null, displayName: 'olive oil', note: 'a little', flags: ['vague_amount'] }],
  ['a few sprigs of thyme', { quantity: null, unit: null, displayName: 'sprigs of thyme', note: 'a few', flags: ['vague_amount'] }],
  ['some fresh coriander, to serve', { quantity: null, unit: null, displayName: 'fresh coriander', note: 'some, to serve', flags: ['vague_amount', 'note_split'] }],
  // en: to taste
  ['Salt and freshly ground black pepper, to taste', { quantity: null, unit: null, displayName: 'Salt and freshly ground black pepper', flags: ['to_taste'] }],
  ['salt and ground black pepper to taste', { quantity: null, unit: null, displayName: 'salt and ground black pepper', flags: ['to_taste'] }],
  ['Kosher salt', { quantity: null, unit: null, displayName: 'Kosher salt', flags: ['to_taste'] }],
  ['Freshly ground black pepper', { quantity: null, unit: null, displayName: 'Freshly ground black pepper', flags: ['to_taste'] }],
  ['Salt & pepper', { quantity: null, unit: null, displayName: 'Salt & pepper', flags: ['to_taste'] }],
  ['Flaky sea salt, for serving', { quantity: null, unit: null, displayName: 'Flaky sea salt', note: 'for serving', flags: ['to_taste', 'note_split'] }],
  ['Hot sauce, as needed', { quantity: null, unit: null, displayName: 'Hot sauce', flags: ['to_taste'] }],
  ['1/4 tsp cayenne, or to taste', { quantity: 0.25, unit: 'tsp', displayName: 'cayenne', flags: ['to_taste'] }],
  // en: optional
  ['1 tbsp sugar (optional)', { quantity: 1, unit: 'tbsp', displayName: 'sugar', optional: true }],
  ['Optional: 1 tsp red pepper flakes', { quantity: 1, unit: 'tsp', displayName: 'red pepper flakes', optional: true }],
  ['2 tbsp chopped fresh parsley, if desired', { quantity: 2, unit: 'tbsp', displayName: 'chopped fresh parsley', optional: true }],
  ['1/2 cup chopped walnuts (optional)', { quantity: 1.19, unit: 'dl', displayName: 'chopped walnuts', optional: true, flags: ['converted'] }],
  // en: part of a fruit, serving words
  ['Juice of 1 lemon', { quantity: 1, unit: 'pcs', displayName: 'lemon', note: 'Juice', flags: ['part_of'] }],
  ['Zest and juice of 1 lime', { quantity: 1, unit: 'pcs', displayName: 'lime', note: 'Zest and juice', flags: ['part_of'] }],
  ['juice of ½ lemon', { quantity: 0.5, unit: 'pcs', displayName: 'lemon', note: 'juice', flags: ['part_of'] }],
  ['To serve: lime wedges', { quantity: null, unit: null, displayName: 'lime wedges', note: 'To serve' }],
  ['Lime wedges, to serve', { quantity: null, unit: null, displayName: 'Lime wedges', note: 'to serve', flags: ['note_split'] }],
  ['Cooking spray', { quantity: null, unit: null, displayName: 'Cooking spray' }],
  ['small bunch coriander, chopped', { quantity: null, unit: null, displayName: 'small bunch coriander', note: 'chopped', flags: ['note_split'] }],

  // sv
  ['2 msk smör', { quantity: 2, unit: 'tbsp', displayName: 'smör' }],
  ['1 tsk salt', { quantity: 1, unit: 'tsp', displayName: 'salt' }],
  ['1 krm svartpeppar', { quantity: 1, unit: 'ml', displayName: 'svartpeppar' }],
  ['3 dl vispgrädde', { quantity: 3, unit: 'dl', displayName: 'vispgrädde' }],
  ['1 gul lök, finhackad', { quantity: 1, unit: 'pcs', displayName: 'gul lök', note: 'finhackad', flags: ['note_split'] }],
  ['2 klyftor vitlök', { quantity: 2, unit: 'pcs', displayName: 'klyftor vitlök', flags: ['unknown_unit'] }],
  ['1 nypa salt', { quantity: null, unit: null, displayName: 'salt', note: '1 nypa', flags: ['vague_amount', 'to_taste'], confidence: 'medium' }],
  ['1 burk krossade tomater (400 g)', { quantity: 1, unit: 'bx', displayName: 'krossade tomater', note: '400 g' }],
  ['salt och peppar', { quantity: null, unit: null, displayName: 'salt och peppar', flags: ['to_taste'] }],
  ['ca 500 g nötfärs', { quantity: 500, unit: 'g', displayName: 'nötfärs', flags: ['approximate'] }],
  ['1 paket bacon', { quantity: 1, unit: 'pk', displayName: 'bacon' }],
  ['2 st ägg', { quantity: 2, unit: 'pcs', displayName: 'ägg' }],
  ['1 knippe dill', { quantity: 1, unit: 'bunt', displayName: 'dill' }],
  ['ett ägg', { quantity: 1, unit: 'pcs', displayName: 'ägg', flags: ['number_word'] }],
  // da
  ['2 spsk olie', { quantity: 2, unit: 'tbsp', displayName: 'olie' }],
  ['1 tsk stødt spidskommen', { quantity: 1, unit: 'tsp', displayName: 'stødt spidskommen' }],
  ['1 løg, hakket', { quantity: 1, unit: 'pcs', displayName: 'løg', note: 'hakket', flags: ['note_split'] }],
  ['2 fed hvidløg', { quantity: 2, unit: 'pcs', displayName: 'fed hvidløg', flags: ['unknown_unit'] }],
  ['1 dåse hakkede tomater', { quantity: 1, unit: 'bx', displayName: 'hakkede tomater' }],
  ['salt og peber', { quantity: null, unit: null, displayName: 'salt og peber', flags: ['to_taste'] }],
  ['1 knivspids salt', { quantity: null, unit: null, displayName: 'salt', note: '1 knivspids', flags: ['vague_amount', 'to_taste'], confidence: 'medium' }],
  ['et æg', { quantity: 1, unit: 'pcs', displayName: 'æg', flags: ['number_word'] }],
  // nl
  ['1 teentje knoflook', { quantity: 1, unit: 'pcs', displayName: 'teentje knoflook', flags: ['unknown_unit'] }],
  ['2 el olijfolie', { quantity: 2, unit: 'tbsp', displayName: 'olijfolie' }],
  ['1 tl zout', { quantity: 1, unit: 'tsp', displayName: 'zout' }],
  ['1 ui, gesnipperd', { quantity: 1, unit: 'pcs', displayName: 'ui', note: 'gesnipperd', flags: ['note_split'] }],
  ['1 blik tomatenblokjes', { quantity: 1, unit: 'bx', displayName: 'tomatenblokjes' }],
  ['peper en zout naar smaak', { quantity: null, unit: null, displayName: 'peper en zout', flags: ['to_taste'] }],
  ['een snufje nootmuskaat', { quantity: null, unit: null, displayName: 'nootmuskaat', note: 'een snufje', flags: ['number_word', 'vague_amount'], confidence: 'medium' }],
  ['200 gram kipfilet', { quantity: 200, unit: 'g', displayName: 'kipfilet' }],
  ['1 bosje peterselie', { quantity: 1, unit: 'bunt', displayName: 'peterselie' }],
  // de
  ['2 EL Olivenöl', { quantity: 2, unit: 'tbsp', displayName: 'Olivenöl' }],
  ['1 TL Salz', { quantity: 1, unit: 'tsp', displayName: 'Salz' }],
  ['1 Prise Zucker', { quantity: null, unit: null, displayName: 'Zucker', note: '1 Prise', flags: ['vague_amount'], confidence: 'medium' }],
  ['3 Eier', { quantity: 3, unit: 'pcs', displayName: 'Eier' }],
  ['1 Zwiebel, fein gehackt', { quantity: 1, unit: 'pcs', displayName: 'Zwiebel', note: 'fein gehackt', flags: ['note_split'] }],
  ['200 g Mehl', { quantity: 200, unit: 'g', displayName: 'Mehl' }],
  ['1 Dose Tomaten (400 g)', { quantity: 1, unit: 'bx', displayName: 'Tomaten', note: '400 g' }],
  ['1 Bund Petersilie', { quantity: 1, unit: 'bunt', displayName: 'Petersilie' }],
  ['2 Zehen Knoblauch', { quantity: 2, unit: 'pcs', displayName: 'Zehen Knoblauch', flags: ['unknown_unit'] }],
  ['1 Pck. Backpulver', { quantity: 1, unit: 'pk', displayName: 'Backpulver' }],
  ['Salz und Pfeffer', { quantity: null, unit: null, displayName: 'Salz und Pfeffer', flags: ['to_taste'] }],
  ['1 große Zwiebel', { quantity: 1, unit: 'pcs', displayName: 'Zwiebel', note: 'große', flags: ['size'] }],
  ['ca. 500 g Hackfleisch', { quantity: 500, unit: 'g', displayName: 'Hackfleisch', flags: ['approximate'] }],
  ['eine Zwiebel', { quantity: 1, unit: 'pcs', displayName: 'Zwiebel', flags: ['number_word'] }],

  // headings and lines that are no ingredient
  ['Til sausen:', { quantity: null, unit: null, displayName: 'Til sausen:', flags: ['heading'] }],
  ['Fyll:', { quantity: null, unit: null, displayName: 'Fyll:', flags: ['heading'] }],
  ['For the dressing:', { quantity: null, unit: null, displayName: 'For the dressing:', flags: ['heading'] }],
  ['—', { quantity: null, unit: null, displayName: '—', flags: ['not_an_ingredient'] }],
  ['* * *', { quantity: null, unit: null, displayName: '* * *', flags: ['not_an_ingredient'] }],
  // an amount that cannot be taken: the whole line, nothing invented
  ['2 dl', { quantity: null, unit: null, displayName: '2 dl', flags: ['unparsed'] }],
  ['2 til 3 dl', { quantity: null, unit: null, displayName: '2 til 3 dl', flags: ['unparsed'] }],
  ['3egg', { quantity: null, unit: null, displayName: '3egg', flags: ['unparsed'] }],
  ['7up', { quantity: null, unit: null, displayName: '7up', flags: ['unparsed'] }],
  ['1/0 dl melk', { quantity: null, unit: null, displayName: '1/0 dl melk', flags: ['unparsed'] }],
  ['0 g sukker', { quantity: null, unit: null, displayName: '0 g sukker', flags: ['unparsed'] }],
  ['150000 g mel', { quantity: null, unit: null, displayName: '150000 g mel', flags: ['unparsed'] }],
];

const hasNumber = (line: string): boolean => /[\d½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]/.test(line);
const sorted = (flags: readonly string[]): string[] => flags.filter((f) => f !== 'no_quantity').sort();

describe('parseIngredientLine', () => {
  it(`has at least 150 lines to read (${ROWS.length})`, () => expect(ROWS.length).to.be.at.least(150));

  for (const [line, want] of ROWS) {
    it(JSON.stringify(line), () => {
      const got = parseIngredientLine(line);
      expect(got.original).to.equal(line.trim());
      expect(got.displayName, 'displayName').to.equal(want.displayName);
      expect(got.quantity, 'quantity').to.equal(want.quantity);
      expect(got.unit, 'unit').to.equal(want.unit);
      expect(got.note, 'note').to.equal(want.note ?? null);
      expect(got.optional, 'optional').to.equal(want.optional ?? false);
      expect(sorted(got.flags), 'flags').to.deep.equal(sorted(want.flags ?? []));
      expect(got.flags.includes('no_quantity'), 'no_quantity').to.equal(got.quantity === null);
      const rule = want.quantity === null ? 'low' : (want.flags ?? []).some((f) => GUESSES.includes(f)) ? 'medium' : 'high';
      expect(got.confidence, 'confidence').to.equal(want.confidence ?? rule);
    });
  }

  it('never drops a line nor invents an amount', () => {
    for (const [line] of ROWS) {
      const got = parseIngredientLine(line);
      expect(got.displayName.length, line).to.be.within(1, RECIPE_LIMITS.displayNameMax);
      if (!got.flags.includes('not_an_ingredient')) expect(normalizeFoodKey(got.displayName), line).to.not.equal('');
      if (got.quantity === null) expect(got.unit, line).to.equal(null);
      else {
        expect(got.quantity, line).to.be.greaterThan(0).and.at.most(RECIPE_LIMITS.quantityMax);
        expect(got.unit !== null && canonicalUnit(got.unit), line).to.equal(got.unit);
      }
      if (!hasNumber(line) && !got.flags.includes('number_word')) expect(got.quantity, `${line}: no number, no quantity`).to.equal(null);
      if (got.note !== null) expect(got.note.trim(), line).to.not.equal('');
    }
  });

  it('keeps an empty line as it is, for the caller to drop', () => {
    const got = parseIngredientLine('   ');
    expect(got).to.deep.include({ original: '', displayName: '', quantity: null, unit: null, confidence: 'low' });
    expect(got.flags).to.include('not_an_ingredient');
  });

  it('cuts a name to the 200 characters a recipe allows', () => {
    const food = `hjemmelaget ${'veldig '.repeat(40)}god tomatsaus`;
    const got = parseIngredientLine(`2 dl ${food}`);
    expect(got.displayName).to.equal(food.slice(0, RECIPE_LIMITS.displayNameMax).trimEnd());
    expect(got).to.deep.include({ quantity: 2, unit: 'dl', confidence: 'medium' });
    expect(got.flags).to.include('truncated');
    const whole = parseIngredientLine('x'.repeat(500));
    expect(whole.displayName).to.have.length(RECIPE_LIMITS.displayNameMax);
    expect(whole.original).to.have.length(500);
  });
});
