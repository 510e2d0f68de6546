/**
 * The words a recipe page without markup is read by, in nb, nn, en, sv, da and de: the headings that open the list
 * of ingredients and the method, those that end a recipe, and what makes a line look like something to buy. Every
 * word is matched on folded text (lower case, no diacritics, ø→o, æ→ae, ß→ss), so "Gör så här", "GJØR SLIK:" and
 * "Fremgangsmåde" need no variants.
 */

/** Lower case without diacritics, whitespace collapsed: what every pattern here is written against. */
export function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/\s+/g, ' ')
    .trim();
}

const INGREDIENT_WORDS = [
  'ingredienser', 'ingrediensene', 'ingredienserne', 'ingrediensar', 'ingrediensane', 'ingredienslista', 'ingredienser och mangd',
  'du trenger', 'dette trenger du', 'det trenger du', 'dette treng du', 'du treng', 'slik trenger du', 'handleliste',
  'du behover', 'det har behover du', 'det behover du', 'detta behover du', 'du skal bruge', 'det skal du bruge', 'dette skal du bruge',
  'ingredients', 'ingredient list', 'you will need', "you'll need", 'you need', 'what you need', "what you'll need", 'what you will need',
  'zutaten', 'zutatenliste', 'die zutaten', 'das brauchst du', 'das brauchen sie', 'was du brauchst', 'einkaufsliste',
];

const METHOD_WORDS = [
  'fremgangsmate', 'framgangsmate', 'fremgangsmade', 'slik gjor du', 'slik gjer du', 'slik gjor du det', 'gjor slik', 'gjer slik',
  'slik lager du', 'slik lager du den', 'slik lager du det', 'slik lager du dem', 'tilberedning', 'tillaging',
  'sa gor du', 'sa gor du det', 'gor sa har', 'sa har gor du', 'tillagning', 'instruktioner', 'gor sa har gor du',
  'sadan gor du', 'sadan gor du det', 'sadan gores det', 'sadan laver du', 'sadan laver du den', 'tilberedelse', 'fremgangsmade og tilberedning',
  'method', 'methods', 'instructions', 'directions', 'steps', 'preparation', 'how to make', 'how to make it', "here's how", 'how to cook it',
  'zubereitung', 'anleitung', 'so geht es', "so geht's", 'so gehts', "so wird's gemacht", 'so wirds gemacht', 'arbeitsschritte', 'schritt fur schritt',
];

/** Headings after which nothing is a step or an ingredient any more. */
const END_WORDS = [
  'tips', 'tip', 'tipps', 'tips og triks', 'notes', 'note', 'notater', 'merknad', 'anmerkninger', 'noter', 'anteckningar', 'hinweis', 'hinweise',
  'naeringsinnhold', 'naeringsverdi', 'nutrition', 'nutrition facts', 'naringsinnehall', 'naringsvarde', 'naeringsindhold', 'nahrwerte', 'nahrwertangaben',
  'kommentarer', 'kommentar', 'comments', 'leave a comment', 'leave a reply', 'kommentare', 'skriv en kommentar', 'legg igjen en kommentar',
  'relaterte oppskrifter', 'flere oppskrifter', 'related recipes', 'you may also like', 'you might also like', 'more recipes', 'liknande recept',
  'relaterede opskrifter', 'ahnliche rezepte', 'das konnte dir auch gefallen', 'del oppskriften', 'share this recipe', 'share', 'del', 'dela', 'teilen',
  'om forfatteren', 'about the author', 'variasjoner', 'variations', 'serving suggestions', 'oppbevaring', 'storage',
  'del opskriften', 'dela receptet', 'rezept teilen', 'share this', 'del denne', 'stikkord', 'tags', 'etiketter', 'kategori', 'kategorier',
  'categories', 'filed under', 'schlagworter', 'kategorien',
];

const joined = (words: readonly string[]) => words.map((w) => w.replace(/[.*+?^${}()|[\]\\']/g, (c) => (c === "'" ? "['’]" : `\\${c}`))).join('|');

/**
 * A heading is one of the words alone, or followed only by what says whom or what it is for: "Ingredienser (4
 * porsjoner)", "Zutaten für 4 Personen", "Method – the sauce", "Du trenger:". "Bakeingredienser" or "Slik gjør du
 * bestillingen" are not; nor is a sentence that happens to begin with the word.
 */
const headingOf = (words: readonly string[]) =>
  new RegExp(
    `^(?:[^\\p{L}\\p{N}]{0,3})(?:${joined(words)})(?![\\p{L}\\p{N}])\\s*(?:[(\\[].{0,40}[)\\]]|[-–—]\\s*.{0,30}|(?:til|for|till|fur|pour|to|zum|zur)\\s.{0,40})?\\s*:?\\s*$`,
    'u',
  );
const INGREDIENTS = headingOf(INGREDIENT_WORDS);
const METHOD = headingOf(METHOD_WORDS);
/** A byline or a date: whatever follows it, the recipe is over. */
const BYLINE_WORDS = ['publisert', 'published', 'posted', 'veroffentlicht', 'publicerad', 'udgivet', 'lagt inn av', 'skrevet av', 'written by', 'posted by', 'oppdatert', 'updated'];
const END = new RegExp(`^(?:(?:${joined(END_WORDS)})(?![\\p{L}\\p{N}])\\s*(?:[:!.].*)?|(?:${joined(BYLINE_WORDS)})(?![\\p{L}\\p{N}]).*)$`, 'u');
/** "Ingredienser: 200 g mel" on one line: the word, a colon, and the first line of the list. */
const INLINE = (words: readonly string[]) => new RegExp(`^(?:${joined(words)})\\s*:\\s*\\S`, 'u');
const INGREDIENTS_INLINE = INLINE(INGREDIENT_WORDS);
const METHOD_INLINE = INLINE(METHOD_WORDS);

export type HeadingKind = 'ingredients' | 'method' | 'end';

/** What a heading (or a line standing as one) opens, and the text on its line after the colon when it has any. */
export function headingKind(text: string): { kind: HeadingKind; rest: string | null } | null {
  const f = fold(text);
  if (f.length <= 60) {
    if (INGREDIENTS.test(f)) return { kind: 'ingredients', rest: null };
    if (METHOD.test(f)) return { kind: 'method', rest: null };
  }
  // "Tips: bruk gjerne …" ends the steps however long it goes on.
  if (END.test(f)) return { kind: 'end', rest: null };
  const colon = text.indexOf(':');
  if (INGREDIENTS_INLINE.test(f)) return { kind: 'ingredients', rest: text.slice(colon + 1).trim() };
  if (METHOD_INLINE.test(f)) return { kind: 'method', rest: text.slice(colon + 1).trim() };
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Lines that look like something to buy

const UNITS = [
  'g', 'gr', 'gram', 'kg', 'mg', 'l', 'dl', 'cl', 'ml', 'liter', 'litre', 'ss', 'ts', 'msk', 'tsk', 'spsk', 'krm', 'el', 'tl', 'ssk', 'tesk', 'stk', 'st',
  'pk', 'pakke', 'pakker', 'pose', 'boks', 'bokser', 'fedd', 'klype', 'klyper', 'never', 'neve', 'bunt', 'kvast', 'skive', 'skiver', 'beger', 'glass',
  'tsp', 'tbsp', 'tablespoons?', 'teaspoons?', 'cups?', 'oz', 'ounces?', 'lbs?', 'pounds?', 'pints?', 'cloves?', 'pinch', 'handful', 'cans?', 'tins?',
  'sprigs?', 'slices?', 'bunch', 'sticks?', 'knobs?', 'dash', 'nypa', 'burk', 'paket', 'dase', 'daser', 'knivspids', 'prise', 'bund', 'zehen?',
  'dosen?', 'packungen?', 'pck', 'becher', 'stuck', 'scheiben?', 'tasse', 'tassen', 'zweige?',
];
const FOODS = [
  'salt', 'pepper', 'peppar', 'peber', 'pfeffer', 'salz', 'olje', 'olivenolje', 'oil', 'olja', 'olie', 'ol', 'smor', 'butter', 'smer', 'mel', 'hvetemel',
  'flour', 'mjol', 'vetemjol', 'hvedemel', 'mehl', 'sukker', 'sugar', 'socker', 'zucker', 'egg', 'eggs', 'agg', 'aeg', 'eier', 'ei', 'lok', 'onions?',
  'log', 'zwiebeln?', 'hvitlok', 'garlic', 'vitlok', 'hvidlog', 'knoblauch', 'melk', 'milk', 'mjolk', 'maelk', 'milch', 'flote', 'cream', 'gradde',
  'flode', 'sahne', 'vann', 'water', 'vatten', 'vand', 'wasser', 'ost', 'cheese', 'kase', 'romme', 'tomat(?:er)?', 'tomato(?:es)?', 'tomaten', 'poteter?',
  'potatoes', 'potatis', 'kartofler', 'kartoffeln', 'ris', 'rice', 'reis', 'pasta', 'kylling', 'chicken', 'kyckling', 'hahnchen', 'kjottdeig', 'mince',
  'fisk', 'fish', 'laks', 'salmon', 'lax', 'sitron', 'lemon', 'citron', 'zitrone', 'honning', 'honey', 'gjaer', 'yeast', 'jast', 'hefe', 'bakepulver',
  'kanel', 'cinnamon', 'persille', 'parsley', 'basilikum', 'basil', 'gulrot', 'carrots?', 'paprika', 'chili', 'ingefaer', 'ginger', 'buljong', 'stock',
  'fond', 'bruhe', 'sjy', 'vin', 'wine', 'eddik', 'vinegar', 'soyasaus', 'soy sauce', 'sennep', 'mustard', 'senf', 'kjott', 'meat', 'fleisch',
];
const UNIT = new RegExp(`(?:^|[\\d½¼¾⅓⅔⅛\\s(])(?:${UNITS.join('|')})\\.?(?![\\p{L}])`, 'u');
const FOOD = new RegExp(`(?<![\\p{L}])(?:${FOODS.join('|')})(?![\\p{L}])`, 'u');
/** An amount at the start: a number, a fraction, "ca. 2", or a number word. */
const AMOUNT = /^(?:(?:ca\.?|ca|cirka|circa|approx\.?|about|omkring|etwa|ungefar|omtrent|ev\.?|evt\.?)\s*)?(?:[\d½¼¾⅓⅔⅛⅜]|(?:en|ei|ett|et|to|tre|fire|fem|seks|one|two|three|four|half|halv|halvt|ein|eine|einen|zwei|drei|vier|tva|fyra|1\/2)\s)/u;
/** Prices, addresses, questions: a shop's list or a comment, not a recipe's. */
const NOT_A_LINE = /(?:\bkr\.?\s*\d|\d\s*kr\b|,-(?:\s|$)|[€$£]\s*\d|\d\s*[€$£]|\b(?:nok|sek|dkk|eur|usd)\b|https?:|www\.|\?$|@)/u;

export interface LineLook {
  /** Short enough, and with an amount, a unit or a food in it. */
  readonly plausible: boolean;
  /** Begins with an amount, or has a unit in it: the surest sign. */
  readonly amount: boolean;
  /** Has a kitchen's unit or a common food in it: "4 screws" has an amount, but is not from a kitchen. */
  readonly kitchen: boolean;
}

export function lookOfLine(text: string): LineLook {
  const f = fold(text);
  if (f.length === 0 || f.length > 150 || NOT_A_LINE.test(f)) return { plausible: false, amount: false, kitchen: false };
  const amount = AMOUNT.test(f) || (/\d/.test(f) && UNIT.test(f));
  const kitchen = UNIT.test(f) || FOOD.test(f);
  return { plausible: amount || kitchen, amount, kitchen };
}

/** "Til sausen:", "For the dressing:": the name of a group of ingredients or steps, not one of them. */
export function isGroupLabel(text: string): boolean {
  return /:\s*$/.test(text) && !/\d/.test(text) && text.length <= 60;
}
