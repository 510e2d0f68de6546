import { normalizeFoodKey } from './food-key.js';

/**
 * Whether a recipe ingredient breaks a guest's avoid. `avoidMatcher` is the one place that decides: the planner, the
 * plan-day route and the shopping list all ask it, so that they never disagree about what a guest may eat.
 *
 * An avoid is a word or a short phrase in the household's own words, Norwegian bokmål or English. The matcher fails
 * closed: when in doubt it reports a match, since a false alarm costs a swap of dish and a miss can hurt a guest.
 *
 *  - Text is folded the way food keys are (NFKC, locale-independent lower case, accents off except æ, ø, å), so
 *    full-width letters and a decomposed å read like their plain forms, but ø never reads as o.
 *  - Each avoid word is cut to a stem that every inflection of it contains (`nøttene` → `nøtt`, `reker` → `reke`,
 *    `berries` → `berry` and `berri`, `mandler` → `mandel` and `mandl`), and the stem is looked for anywhere inside
 *    the ingredient's words. That one rule finds inflections and compounds alike (`hasselnøtter`, `peanøttsmør`,
 *    `walnuts`, `rekesalat`, `eggnudler`); it also finds `egg` in `eggplant`, an accepted false alarm.
 *  - An avoid that names one of the EU's 14 allergen groups (Regulation 1169/2011, Annex II) in either language
 *    (`nøtter`, `tree nuts`, `gluten`, `laktose`, `shellfish`, `nøtteallergi`, `dairy free` …) also finds the group's
 *    usual foods in both languages (`mandler`, `pasta`, `fløte`, `reker` …). Those lists are curated, so they may
 *    carry exceptions the avoid's own words do not: `dairy` passes `peanut butter` and `coconut milk`, while `milk`,
 *    as written, still finds `coconut milk` (its word is there).
 *  - An avoid that names one food of those lists finds the food's names in the other language too (`mandler` finds
 *    `almond flour`, `prawns` finds `kongereker`, `fish sauce` finds `fiskesaus`), but not the rest of its group.
 *  - An avoid too short to read (one or two letters) or without a letter or digit (`🥜`) is found by plain
 *    containment; a blank one names nothing and is skipped (the API refuses it anyway).
 */

export type AllergenGroup =
  | 'gluten'
  | 'crustaceans'
  | 'eggs'
  | 'fish'
  | 'peanuts'
  | 'soy'
  | 'milk'
  | 'nuts'
  | 'celery'
  | 'mustard'
  | 'sesame'
  | 'sulphites'
  | 'lupin'
  | 'molluscs';

/** The first avoid an ingredient breaks, and why. */
export interface AvoidConflict {
  /** The avoid exactly as the household wrote it. */
  readonly avoid: string;
  /** The ingredient's displayName as the recipe writes it. */
  readonly ingredient: string;
  /** 'word': the avoid's own word is in the ingredient; 'group': a food of the allergen group the avoid names is. */
  readonly via: 'word' | 'group';
  /** The allergen group the avoid names (for 'group': the group of the food found), or null when it names none. */
  readonly group: AllergenGroup | null;
}

/** The food an avoid is judged against: a recipe line's name as written and its food key. */
export interface IngredientName {
  readonly displayName: string;
  readonly foodKey: string;
}

/**
 * The matcher of a list of avoids: for an ingredient, the first of `avoids` (in their order) that it breaks, judged
 * by its displayName and its food key, or null. It runs for every ingredient of every candidate recipe, so the
 * avoids are read once, here; a call only folds the ingredient and searches strings.
 */
export function avoidMatcher(avoids: readonly string[]): (ingredient: IngredientName) => AvoidConflict | null {
  const rules = avoids.map((avoid) => ({ avoid, rule: compile(avoid) })).filter(({ rule }) => rule.raw !== null || rule.own.length > 0);
  return (ingredient) => {
    if (rules.length === 0) return null;
    const text = haystack(ingredient);
    let raw: string | undefined;
    for (const { avoid, rule } of rules) {
      if (rule.raw !== null) {
        raw ??= `${ingredient.displayName} ${ingredient.foodKey}`.normalize('NFKC').toLowerCase();
        if (raw.includes(rule.raw)) return { avoid, ingredient: ingredient.displayName, via: 'word', group: null };
      }
      for (const { term, group } of rule.own) if (found(text, term)) return { avoid, ingredient: ingredient.displayName, via: 'word', group };
      for (const { term, group } of rule.foods) if (found(text, term)) return { avoid, ingredient: ingredient.displayName, via: 'group', group };
      for (const group of rule.groups) {
        for (const term of foodTable().groupTerms.get(group)!) if (found(text, term)) return { avoid, ingredient: ingredient.displayName, via: 'group', group };
      }
    }
    return null;
  };
}

/** One question: `avoidMatcher(avoids)(ingredient)`. To ask about many ingredients, build the matcher once. */
export const avoidConflict = (avoids: readonly string[], ingredient: IngredientName): AvoidConflict | null => avoidMatcher(avoids)(ingredient);

// ---------------------------------------------------------------------------------------------------------------
// The groups. A food is one entry: its names, nb and en, joined by `|`. Names are written as stems where the word
// changes (a string every inflection holds: `anchov` for anchovy and anchovies, `lasagn` for lasagne and lasagna).
// A name is found anywhere inside a word unless a prefix narrows it, for names short enough to hide inside unrelated
// words: `^` at a word's start, or at its end before at most an inflection ending (the head of a compound: `hvetemel`,
// `geitost`); `>` at a word's start only; `=` as the whole word, inflected.
// ---------------------------------------------------------------------------------------------------------------

interface GroupTable {
  /** What the household may write to name the group (also found as foods of the group). */
  readonly names: readonly string[];
  readonly foods: readonly string[];
}

const GROUPS: Readonly<Record<AllergenGroup, GroupTable>> = {
  gluten: {
    // Wheat is the group's main cereal: a wheat avoid takes the whole group in, rye and oats too (fail closed).
    names: ['gluten', 'korn med gluten', 'glutenholdig korn', 'cereals containing gluten', 'hvete', 'wheat', 'cøliaki', 'coeliac', 'celiac'],
    foods: [
      'hvete|wheat', 'spelt|dinkel', 'durum', 'emmer', 'einkorn', 'kamut|khorasan', 'triticale', 'farro', 'freekeh', '^rug|^rye', 'bygg|barley',
      'malt', 'havre|^oat', 'musli|granola', 'fullkorn|sammalt|graham',
      // Flour not said otherwise is wheat flour.
      '^mel|flour', 'jevning|roux', 'bechamel',
      'brød|bread', 'loff', 'baguette', 'ciabatta', 'focaccia', 'croissant', 'brioche', '^pita', 'naan', 'tortilla', '=wrap', 'lefse', 'lompe',
      'pizza', 'bagel', 'scone', 'rundstykke', 'kringle', 'bolle', 'kjeks|cracker|biscuit|cookie', 'kavring', 'krutong|crouton', 'panko',
      'kake|cake', 'vaffel|vafl|waffle', 'muffin', 'brownie', '=pai|=pie', 'deig|dough', 'pastry',
      'pasta', 'spaghetti|spagetti', 'makaroni|macaroni', 'lasagn', 'penne', 'fusilli', 'tagliatelle', 'linguine', 'fettuccine', 'tortellini',
      'ravioli', 'gnocchi', 'orzo', 'farfalle', 'rigatoni', 'cannelloni',
      // Noodles not said otherwise are wheat noodles.
      'nudel|nudl|noodle', 'udon', 'ramen', '=soba', 'dumpling', 'wonton', 'vårrull|spring roll',
      'couscous', 'bulgur|tabbouleh', 'semule|semolina', 'seitan',
      // Breaded, brewed, and sweets made with wheat or barley malt.
      'panert|panering|breaded', 'nugget', 'fiskepinne|fish finger', 'cornflakes', 'lakris|liquorice|licorice', '>øl|beer|=ale|>pils',
      // Soy sauce is brewed with wheat; so are the sauces made of it.
      'soyasaus|sojasaus|soy sauce|soya sauce|shoyu', 'teriyaki', 'hoisin',
    ],
  },
  crustaceans: {
    // In everyday nb and en a shellfish avoid means molluscs too (listed there as well).
    names: ['skalldyr', 'krepsdyr', 'crustacean', 'crustaceans', 'shellfish', 'sjømat', 'seafood'],
    foods: ['reke|shrimp|prawn|scampi', 'krabbe|crab', 'hummer|lobster', 'kreps|crayfish|crawfish', 'sjøkreps|langust|langoust', 'krill'],
  },
  eggs: {
    names: ['egg', 'eggs'],
    foods: [
      'egg', 'majones|majonnes|mayonnaise|mayo', 'aioli', 'remulade|remoulade', 'marengs|meringue|pavlova', 'hollandaise', 'bearnaise',
      'omelett|omelette', 'frittata', 'quiche', 'carbonara', 'vaniljesaus|custard', 'eggnog', 'eggeplomme|yolk',
    ],
  },
  fish: {
    names: ['fisk', 'fish', 'sjømat', 'seafood'],
    foods: [
      'fisk|fish', 'laks|salmon', 'torsk|skrei|^cod', 'klippfisk|bacalao', '^sei|pollock|saithe|coley', 'hyse|haddock', 'makrell|mackerel',
      'tunfisk|tuna', 'ansjos|anchov|sardell', 'sild|herring', 'brisling|sprat', 'sardin|pilchard', 'ørret|trout', 'røye', 'kveite|halibut',
      'flyndre|flounder', 'rødspette|plaice', 'sjøtunge', 'breiflabb|monkfish', 'steinbit|catfish', 'brosme', 'lysing|^hake', '^lyr', 'gjedde',
      'abbor', 'snapper', 'tilapia', 'pangasius', '>ål|=eel', 'kaviar|caviar', 'rogn|^roe', 'surimi', 'fiskesaus|fish sauce', 'worcestershire',
      'dashi', 'bonito|katsuobushi',
    ],
  },
  peanuts: {
    names: ['peanøtt', 'peanøtter', 'peanut', 'peanuts', 'jordnøtt', 'jordnøtter', 'groundnut', 'groundnuts'],
    foods: ['peanøtt|peanut|jordnøtt|groundnut|arachis', 'satay|=sate'],
  },
  soy: {
    names: ['soya', 'soy', 'soja', 'soyabønne', 'soyabønner', 'soybean', 'soybeans'],
    foods: ['soy|soja', 'tofu', 'edamame', 'miso', 'tempeh', 'natto', 'shoyu', 'tamari', 'teriyaki', 'hoisin', 'yuba', 'lecitin|lecithin'],
  },
  milk: {
    names: ['melk', 'milk', 'mjølk', 'kumelk', 'cow milk', 'laktose', 'lactose', 'dairy', 'meieri', 'meieriprodukt', 'melkeprodukt', 'melkeprotein', 'kasein', 'casein', 'myse', 'whey'],
    foods: [
      'melk|mjølk|milk', 'fløte|cream', 'smør|butter', 'ghee', '^ost|cheese', 'parmesan|parmigiano', 'pecorino', 'padano', 'mozzarella', 'feta',
      'ricotta', 'mascarpone', 'cheddar', 'gouda', 'brie', 'camembert', 'halloumi', 'gorgonzola', 'emmental', 'jarlsberg', 'norvegia',
      'manchego', 'burrata', 'gruyere', 'chevre', 'paneer', 'queso', 'cottage', 'kesam', 'kvarg|quark', 'skyr', 'rømme|sour cream',
      'creme fraiche|cremefraiche', 'yoghurt|yogurt|jogurt', 'kefir', 'myse|whey', 'mysost|brunost|=prim', 'iskrem|ice cream|softis',
      'bechamel', 'bearnaise', 'hollandaise', 'tzatziki', 'raita', 'labneh', '=lassi',
    ],
  },
  nuts: {
    // Peanuts are a group of their own, but a nut avoid finds them anyway: `nøtt` and `nut` are in their names.
    names: ['nøtt', 'nøtter', 'nut', 'nuts', 'tree nut', 'tree nuts', 'trenøtt', 'trenøtter'],
    foods: [
      'nøtt|nut', 'mandel|mandl|almond|marsipan|marzipan|frangipane', 'hasselnøtt|hazelnut|hassel|hazel|nougat|nugatti|nutella|gianduja',
      'valnøtt|walnut', 'cashew|kasju|kasjew', 'pekan|pecan', 'pistasj|pistach', 'paranøtt|brazil nut', 'macadamia', 'pralin',
      'pinjekjerne|pine nut|pesto', 'kastanje|chestnut',
    ],
  },
  celery: {
    names: ['selleri', 'celery', 'celeriac'],
    foods: ['selleri|celer', 'stangselleri|celery stalk', 'sellerirot|knollselleri|celeriac', 'mirepoix'],
  },
  mustard: {
    names: ['sennep', 'mustard'],
    foods: ['sennep|mustard|moutarde', 'dijon', 'wasabi'],
  },
  sesame: {
    names: ['sesam', 'sesame', 'sesamfrø', 'sesame seed', 'sesame seeds'],
    foods: ['sesam', 'tahin', 'hummus', 'halva', 'gomasio', 'zaatar', 'furikake'],
  },
  sulphites: {
    names: ['sulfitt', 'sulfitter', 'sulfite', 'sulfites', 'sulphite', 'sulphites', 'svoveldioksid', 'sulfur dioxide', 'sulphur dioxide', 'e220'],
    foods: [
      'sulfit|sulphit', 'svoveldioksid|sulfur dioxide|sulphur dioxide', 'e220', 'e221', 'e222', 'e223', 'e224', 'e225', 'e226', 'e227', 'e228',
      '^vin|wine', 'rødvin|red wine', 'hvitvin|white wine', 'sherry', 'madeira', 'marsala', 'vermut|vermouth', '=cider|=sider', 'champagne',
      'prosecco', '=cava', 'balsamico|balsamic',
      // Dried fruit is usually sulphured; fresh apricots are found too (fail closed).
      'aprikos|apricot', 'rosin|raisin|sultana', 'tørket frukt|tørkede frukt|dried fruit',
    ],
  },
  lupin: {
    names: ['lupin', 'lupine', 'lupiner', 'lupins'],
    foods: ['lupin'],
  },
  molluscs: {
    names: ['bløtdyr', 'mollusc', 'molluscs', 'mollusk', 'mollusks', 'skjell', 'skalldyr', 'shellfish', 'sjømat', 'seafood'],
    foods: [
      'skjell|clam', 'blåskjell|mussel', 'øster|oyster', 'kamskjell|scallop', 'hjerteskjell|cockle', 'blekksprut|squid|octopus|calamar|akkar',
      'sepia|cuttlefish', 'snegl|snail|escargot', 'whelk', 'abalone', 'conch', 'vongole',
    ],
  },
};

/**
 * Names that hold a group's entry without holding the group's food. Kept to names that say plainly what the food is
 * (`maismel` is maize flour); a name that leaves it open stays a match (`mel`, `nudler`, `ostesaus`).
 */
const NOT_IN: Readonly<Record<string, readonly string[]>> = {
  mel: ['melk', 'melon', 'melis', 'meli', 'melass', 'melange', 'mellom', 'karamel', 'caramel', 'maismel', 'rismel', 'potetmel', 'mandelmel', 'kokosmel', 'kikertmel', 'lupinmel', 'bokhvetemel', 'teffmel', 'hirsemel', 'quinoamel', 'soyamel', 'tapiokamel', 'chiamel', 'linfrømel'],
  flour: ['rice flour', 'riceflour', 'corn flour', 'cornflour', 'maize flour', 'potato flour', 'almond flour', 'coconut flour', 'chickpea flour', 'gram flour', 'buckwheat flour', 'tapioca flour', 'cassava flour', 'lupin flour', 'soy flour'],
  hvete: ['bokhvete'],
  wheat: ['buckwheat'],
  oat: ['goat', 'boat', 'float'],
  nudel: ['risnudel', 'risnudl', 'glassnudel', 'glassnudl'],
  nudl: ['risnudl', 'glassnudl'],
  noodle: ['rice noodle', 'ricenoodle', 'glass noodle'],
  deig: ['kjøttdeig', 'karbonadedeig', 'kyllingdeig', 'svinedeig', 'lammedeig'],
  cake: ['rice cake', 'ricecake'],
  pasta: ['karripasta', 'currypasta', 'misopasta', 'chilipasta', 'sesampasta', 'mandelpasta'],
  kake: ['riskake'],
  pita: ['pitaya'],
  beer: ['ginger beer', 'root beer'],
  sei: ['seitan', 'seig'],
  hake: ['shake'],
  rogn: ['rognebær'],
  crab: ['crab apple', 'crabapple'],
  øster: ['østerssopp'],
  oyster: ['oyster mushroom', 'oystermushroom'],
  scallop: ['scalloped'],
  snegl: ['kanelsnegl', 'vaniljesnegl', 'sjokoladesnegl'],
  melk: ['kokosmelk', 'havremelk', 'soyamelk', 'sojamelk', 'mandelmelk', 'rismelk', 'cashewmelk', 'nøttemelk', 'hampemelk', 'plantemelk'],
  mjølk: ['kokosmjølk', 'havremjølk', 'soyamjølk'],
  milk: ['coconut milk', 'coconutmilk', 'oat milk', 'oatmilk', 'soy milk', 'soymilk', 'soya milk', 'almond milk', 'rice milk', 'cashew milk', 'hemp milk', 'nut milk', 'plant milk'],
  fløte: ['kokosfløte', 'havrefløte', 'soyafløte', 'plantefløte'],
  cream: ['coconut cream', 'oat cream', 'soy cream', 'cream of tartar'],
  smør: ['nøttsmør', 'nøttesmør', 'mandelsmør', 'kakaosmør', 'sheasmør', 'cashewsmør', 'sesamsmør', 'plantesmør'],
  butter: ['nut butter', 'nutbutter', 'almond butter', 'cashew butter', 'cocoa butter', 'cacao butter', 'shea butter', 'apple butter', 'seed butter', 'sesame butter', 'butternut', 'butter bean'],
  yoghurt: ['soyayoghurt', 'kokosyoghurt', 'havreyoghurt', 'soy yoghurt', 'coconut yoghurt', 'oat yoghurt'],
  yogurt: ['soy yogurt', 'coconut yogurt', 'oat yogurt'],
  ost: ['ostrich'],
  hassel: ['hasselback'],
  halva: ['halvannen'],
  vin: ['vindrue'],
  wine: ['swine'],
};

// ---------------------------------------------------------------------------------------------------------------
// Reading avoids.
// ---------------------------------------------------------------------------------------------------------------

/** Words that carry no food of their own: allergy talk, quantifiers, kitchen states (`rå løk` avoids onions). */
const FILLER = new Set(
  (
    'allergi allergy allergies allergic allergisk intoleranse intolerance intolerant fri free ingen no none not ikke uten without ' +
    'mot against to til av of med with som that inneholder containing contains contain holdig alle all any andre other typer type ' +
    'kinds kind slags produkt produkter product products korn kornsorter cereal cereals grain grains rå raw fersk ferske fresh kokt ' +
    'kokte cooked stekt stekte fried hel hele whole hakket hakkede chopped tørket tørkede dried fryst frosne frozen i in the a an en et ei'
  ).split(' '),
);
/** Words that join two avoids written as one (`nøtter og skalldyr`). */
const CONJUNCTIONS = new Set(['og', 'and', 'eller', 'or', 'samt', 'plus']);
/** Ends of compounds that talk about a food rather than name one (`nøtteallergi`, `glutenfri`, `melkeprotein`). */
const TALK_TAILS = ['allergi', 'allergy', 'intoleranse', 'intolerance', 'fri', 'free', 'holdig', 'produkter', 'produkt', 'proteiner', 'protein'];
/** Norwegian inflection endings a stem drops, longest first (definite plural, definite singular, plural, feminine). */
const ENDINGS_CUT = ['ene', 'en', 'et', 'er', 'a'];
/** Whole words whose ending is part of the word: cutting it would find unrelated foods (`liv` in `olive`). */
const KEEP = new Set(['gluten', 'oliven', 'pepper', 'sukker', 'butter', 'water', 'hummer', 'oyster', 'lobster', 'cider', 'liver', 'ginger', 'koriander', 'coriander', 'chicken', 'filet', 'fillet', 'sorbet', 'lager']);
const VOWELS = new Set([...'aeiouyæøå']);

interface Term {
  /** Folded; words of a phrase joined by one space. */
  readonly text: string;
  readonly at: 'part' | 'edge' | 'start' | 'word';
  /** [a name that holds this term but not its food, where the term sits in it]. */
  readonly except: readonly (readonly [string, number])[];
}

interface Rule {
  /** The avoid's own words, each with the group it names (if any). */
  readonly own: readonly { readonly term: Term; readonly group: AllergenGroup | null }[];
  /** Foods of a group the avoid names one by one (when it names no group): their names in both languages. */
  readonly foods: readonly { readonly term: Term; readonly group: AllergenGroup }[];
  /** Allergen groups the avoid names, in the order named. */
  readonly groups: readonly AllergenGroup[];
  /** An avoid without a letter or digit, found by containment in the NFKC, lower-case ingredient. */
  readonly raw: string | null;
}

/** The same folding as the food key (core/kernel/food-key.ts, steps 1 to 4), kept as words. */
function foldWords(text: string): string[] {
  const lowered = text.normalize('NFKC').toLowerCase();
  let folded = '';
  for (const ch of lowered) folded += ch < '\u0080' || KEPT_LETTERS.has(ch) ? ch : (SPECIAL_FOLDS[ch] ?? ch.normalize('NFD').replace(MARKS, ''));
  return folded.replace(APOSTROPHES, '').split(NOT_WORD).filter((w) => w !== '');
}
const KEPT_LETTERS = new Set(['æ', 'ø', 'å']);
const SPECIAL_FOLDS: Readonly<Record<string, string>> = { ß: 'ss', œ: 'oe', ı: 'i', ð: 'd', þ: 'th', ł: 'l' };
const MARKS = /\p{M}/gu;
const APOSTROPHES = /['’ʼ`´]/g;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const LETTERS = /^\p{L}+$/u;
const PIECES = /[,;/&+|]/;

const unmarked = (name: string): string => name.replace(/^[>^=]/, '');

/**
 * A table made from GROUPS at its first use, once. Made at the first avoid read, not when the module loads: the
 * tables took a tenth of a second of every start, and most starts read no avoid for a while (docs/performance.md).
 */
function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/** Words this module itself names: their endings are part of them and stay (`pasta`, `feta`, `hvete`). */
const known = once(() => {
  const words = new Set<string>(KEEP);
  for (const table of Object.values(GROUPS)) {
    for (const entry of [...table.names, ...table.foods]) for (const name of entry.split('|')) for (const w of foldWords(unmarked(name))) words.add(normalizeFoodKey(w) || w);
  }
  return words;
});

/** The singular by the food key's own rules (a single folded word in, a single word out). */
const singularOf = (word: string): string => normalizeFoodKey(word) || word;

/** A string every inflection of the word contains: the singular, less a Norwegian inflection ending. */
function stemOf(word: string): string {
  const one = singularOf(word);
  if (one.length < 4 || known().has(one) || !LETTERS.test(one)) return one;
  for (const ending of ENDINGS_CUT) {
    if (!one.endsWith(ending)) continue;
    const rest = one.slice(0, -ending.length);
    // After a vowel the ending is likely the word's own (`green`, `chia`), unless what is left is a known food.
    if (rest.length >= 3 && (known().has(rest) || !VOWELS.has(rest.at(-1)!))) return rest;
  }
  return one;
}

/**
 * Strings an inflection may hold instead of the stem: `berri` (berries) and, for the household's own words, the
 * Norwegian stem that drops its e (`mandl` for mandler, `vafl` for vafler). The group tables list those forms
 * themselves: guessed for every entry they would find `musl` (mussel) in `musli`.
 */
function variants(text: string, own: boolean): string[] {
  const out = [text];
  if (/[^aeiouyæøå]y$/.test(text)) out.push(`${text.slice(0, -1)}i`);
  const dropped = own ? /^(.*[^aeiouyæøå ])e([lrn])$/.exec(text) : null;
  if (dropped) {
    const head = dropped[1]!;
    const short = (head.length >= 2 && head.at(-1) === head.at(-2) ? head.slice(0, -1) : head) + dropped[2]!;
    if (short.length >= 4) out.push(short);
  }
  if (text.includes(' ')) out.push(text.replaceAll(' ', ''));
  return out;
}

const makeTerms = (text: string, at: Term['at'], exceptions: readonly string[], own = false): Term[] =>
  variants(text, own).map((v) => {
    const except: [string, number][] = [];
    for (const name of exceptions) for (let i = name.indexOf(v); i !== -1; i = name.indexOf(v, i + 1)) except.push([name, i]);
    return { text: v, at, except };
  });

/** How one avoid word reads: its stem (talk stripped off) and the groups it names. */
function readWord(word: string): { readonly stem: string; readonly groups: readonly AllergenGroup[] } {
  let cur = singularOf(word);
  for (let cut = true; cut; ) {
    cut = false;
    for (const tail of TALK_TAILS) {
      if (cur.endsWith(tail) && cur.length - tail.length >= 3) {
        cur = cur.slice(0, -tail.length);
        cut = true;
        break;
      }
    }
  }
  const stem = stemOf(cur);
  const direct = aliases().get(stem) ?? aliases().get(cur);
  if (direct) return { stem, groups: direct };
  // A compound's linking letter (`nøtte-`, `fiske-`, `senneps-`) hides a group name.
  if (cur !== word && cur.length >= 4 && (cur.endsWith('e') || cur.endsWith('s'))) {
    const linked = stemOf(cur.slice(0, -1));
    const groups = aliases().get(linked);
    if (groups) return { stem: linked, groups };
  }
  return { stem, groups: [] };
}

/** One avoid phrase (no conjunctions): the text its own words are found by, and the groups it names. */
function readPhrase(words: readonly string[]): { readonly texts: readonly string[]; readonly groups: readonly AllergenGroup[] } {
  // Too short to read as a word: plain containment (fail closed).
  if (words.join('').length <= 2) return { texts: [words.join(' ')], groups: [] };
  const content = words.filter((w) => !FILLER.has(w) && !FILLER.has(singularOf(w)));
  const kept = content.length > 0 ? content : words;
  const read = kept.map(readWord);
  if (read.length === 1) return { texts: [read[0]!.stem], groups: read[0]!.groups };
  // A phrase: words before the last are modifiers and keep their form but for the plural (`tree nuts` → `tree nut`).
  const phrase = [...kept.slice(0, -1).map(singularOf), read.at(-1)!.stem].join(' ');
  const named = aliases().get(phrase);
  if (named) return { texts: [phrase], groups: named };
  // Group names side by side (`nuts shellfish`): each counts. Otherwise the phrase is one food (`peanut butter`).
  if (read.every((r) => r.groups.length > 0)) return { texts: read.map((r) => r.stem), groups: [...new Set(read.flatMap((r) => r.groups))] };
  return { texts: [phrase], groups: [] };
}

function compile(avoid: string): Rule {
  const trimmed = avoid.normalize('NFKC').toLowerCase().trim();
  const own: { term: Term; group: AllergenGroup | null }[] = [];
  const foods: { term: Term; group: AllergenGroup }[] = [];
  const groups: AllergenGroup[] = [];
  let read = false;
  for (const piece of trimmed.split(PIECES)) {
    let phrase: string[] = [];
    const flush = () => {
      if (phrase.length === 0) return;
      read = true;
      const r = readPhrase(phrase);
      for (const text of r.texts) {
        for (const term of makeTerms(text, 'part', [], true)) own.push({ term, group: r.groups[0] ?? null });
        if (r.groups.length === 0) for (const food of foodsNamed(text)) for (const term of food.terms) foods.push({ term, group: food.group });
      }
      for (const g of r.groups) if (!groups.includes(g)) groups.push(g);
      phrase = [];
    };
    for (const w of foldWords(piece)) {
      if (CONJUNCTIONS.has(w)) flush();
      else phrase.push(w);
    }
    flush();
  }
  const raw = !read && trimmed !== '' ? trimmed.replace(/\s+/g, ' ') : null;
  return { own, foods, groups, raw };
}

/** Group names as the household may write them, read the way avoids are read, to the groups they name. */
const aliases = once(() => {
  const byName = new Map<string, AllergenGroup[]>();
  for (const [group, table] of Object.entries(GROUPS) as [AllergenGroup, GroupTable][]) {
    for (const name of table.names) {
      const words = foldWords(name).filter((w) => !FILLER.has(w));
      const key = [...words.slice(0, -1).map(singularOf), stemOf(words.at(-1)!)].join(' ');
      const list = byName.get(key) ?? [];
      if (!list.includes(group)) list.push(group);
      byName.set(key, list);
    }
  }
  return byName;
});

/** One food of a group: its names (folded, unmarked) and the terms that find them, compiled once. */
interface Food {
  readonly group: AllergenGroup;
  readonly names: readonly string[];
  readonly terms: readonly Term[];
}

function foodOf(group: AllergenGroup, entry: string): Food {
  const names: string[] = [];
  const terms: Term[] = [];
  for (const name of entry.split('|')) {
    const mark = name[0];
    const at: Term['at'] = mark === '^' ? 'edge' : mark === '>' ? 'start' : mark === '=' ? 'word' : 'part';
    const text = foldWords(unmarked(name)).join(' ');
    names.push(text);
    terms.push(...makeTerms(text, at, (NOT_IN[text] ?? []).map((e) => foldWords(e).join(' '))));
  }
  return { group, names, terms };
}

/** Every food of every group, and each group's foods and names as terms. */
const foodTable = once(() => {
  const foods: Food[] = [];
  const groupTerms = new Map<AllergenGroup, Term[]>();
  for (const [group, table] of Object.entries(GROUPS) as [AllergenGroup, GroupTable][]) {
    const terms = new Map<string, Term>();
    for (const entry of table.foods) {
      const food = foodOf(group, entry);
      foods.push(food);
      for (const term of food.terms) if (!terms.has(term.text)) terms.set(term.text, term);
    }
    for (const name of table.names) for (const term of foodOf(group, name).terms) if (!terms.has(term.text)) terms.set(term.text, term);
    groupTerms.set(group, [...terms.values()]);
  }
  return { foods, groupTerms };
});

/**
 * The foods an avoid that names no group names: by one of their names (`mandler` → mandel, almond, marsipan;
 * `prawns` → reke, shrimp), or by a name at the start or the end of a compound (`kongereker`, `torskefilet`). So a
 * food avoided in one language is found in the other. A group's own word at the end of a compound (`kokosmelk`,
 * `muskatnøtt`) names one food, not the group, and takes nothing in.
 */
function foodsNamed(text: string): Food[] {
  return foodTable().foods.filter((food) =>
    food.names.some((name) => name === text || (name.length >= 4 && !aliases().has(name) && (text.startsWith(name) || text.endsWith(name)))),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Searching an ingredient.
// ---------------------------------------------------------------------------------------------------------------

/**
 * The ingredient's words as written (folded) and its food key's words (singular: `mandler` → `mandel`), each word
 * between spaces; ' | ' keeps a phrase from running from one into the other.
 */
function haystack(ingredient: IngredientName): string {
  const words = foldWords(ingredient.displayName).join(' ');
  const key = foldWords(ingredient.foodKey).join(' ');
  return key === '' || key === words ? ` ${words} ` : ` ${words} | ${key} `;
}

/** What may follow a short entry at the end of a word: an inflection ending, nb or en. */
const INFLECTIONS = new Set(['', 's', 'e', 'r', 'n', 'er', 'en', 'et', 'es', 'ne', 'ar', 'a', 'ene', 'ens', 'ets', 'ers']);

function found(text: string, term: Term): boolean {
  for (let p = text.indexOf(term.text); p !== -1; p = text.indexOf(term.text, p + 1)) {
    if (!fits(text, p, term)) continue;
    if (term.except.some(([name, at]) => text.startsWith(name, p - at))) continue;
    return true;
  }
  return false;
}

function fits(text: string, p: number, term: Term): boolean {
  if (term.at === 'part') return true;
  const atStart = text[p - 1] === ' ';
  if (term.at === 'start') return atStart;
  const end = p + term.text.length;
  const inflected = INFLECTIONS.has(text.slice(end, text.indexOf(' ', end)));
  return term.at === 'word' ? atStart && inflected : atStart || inflected;
}
