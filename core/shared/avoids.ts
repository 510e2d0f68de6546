/**
 * Whether an ingredient breaks a guest's avoid: the one matcher of the service (the plan-day route, event changes,
 * the planner). An avoid is a word or a short phrase in the household's own words, Norwegian (bokmål) or English.
 *
 * It fails closed: when in doubt it reports a match. A false alarm costs a swap of dish; a miss can hurt a guest.
 * - Text is compared folded: NFKC, lower case, accents off (æ, ø, å kept; ä and ö read as æ and ø), punctuation as
 *   spaces.
 * - Words and inflections: each word is also compared by a crude stem (nb: -ene, -er, -en, -et, -a, -e; en: -ies,
 *   -oes, -es, -s). A stem that is shorter than the word only ever matches more.
 * - Compounds: the avoid's stem may sit anywhere inside an ingredient's word (`nøtter` in `hasselnøtter`, `reke` in
 *   `rekesalat`, `nut` in `walnuts`). So `egg` also finds `eggplant`: an accepted false alarm.
 * - The EU's 14 allergen groups (Regulation 1169/2011, Annex II) in nb and en: an avoid that names a group (`nøtter`,
 *   `gluten`, `shellfish`, `melk`, `laktose`…) also finds the usual foods of the group in both languages (`mandler`,
 *   `pasta`, `reker`, `fløte`…); an avoid that names one such food finds its names in both languages (`mandler`
 *   finds `almond`). Foods of a group are found inside words when their name has four letters or more; a shorter one
 *   (`mel`, `ost`, `egg`) only as a whole word or at the end of a compound, where Norwegian puts the head
 *   (`hvetemel`, `geitost`), so that `mel` does not find `melk`. A few names a group knows are not of it (plant milks,
 *   nut butters) are not found through the group, only through the avoid's own words.
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

/** The first avoid an ingredient breaks: the avoid as the household wrote it and the ingredient as the recipe names it. */
export interface AvoidConflict {
  readonly avoid: string;
  readonly ingredient: string;
  /** `word`: the avoid's own words; `group`: a food the avoid's allergen group (or food) takes in. */
  readonly via: 'word' | 'group';
  readonly group: AllergenGroup | null;
}

interface GroupTable {
  readonly group: AllergenGroup;
  /** Words that name the group itself, nb and en. */
  readonly names: readonly string[];
  /** Foods of the group; each entry is one food's names (synonyms across the two languages, spellings). */
  readonly foods: readonly (readonly string[])[];
  /** Names that hold a food's name but are known not to be of the group (plant milks, nut butters). */
  readonly unless?: readonly string[];
}

/** The 14 groups. Linking forms of short Norwegian words (`oste-`, `egge-`) are listed so they are found in compounds. */
const GROUPS: readonly GroupTable[] = [
  {
    group: 'gluten',
    names: ['gluten', 'glutenholdig', 'korn med gluten', 'cereals containing gluten', 'cøliaki', 'coeliac', 'celiac'],
    foods: [
      ['hvete', 'wheat', 'durum', 'hvetemel'],
      ['mel', 'flour'],
      ['rug', 'rye', 'rugmel'],
      ['bygg', 'barley', 'byggryn'],
      ['havre', 'oat', 'oats', 'havregryn'],
      ['spelt', 'dinkel'],
      ['emmer', 'einkorn', 'khorasan', 'kamut'],
      ['pasta', 'spaghetti', 'spagetti', 'makaroni', 'macaroni', 'penne', 'lasagne', 'lasagna', 'tagliatelle', 'fusilli', 'linguine'],
      ['nudler', 'nudel', 'noodle', 'noodles', 'udon'],
      ['brød', 'bread', 'loff', 'baguette', 'ciabatta', 'rundstykke', 'tortilla', 'pita', 'lompe', 'knekkebrød', 'crispbread'],
      ['couscous', 'bulgur', 'semule', 'semolina', 'seitan'],
      ['panko', 'griljermel', 'breadcrumbs', 'kavring'],
      ['soyasaus', 'soy sauce'],
      ['kjeks', 'cracker', 'biscuit', 'kake', 'cake', 'deig', 'dough', 'pai', 'pie'],
      ['øl', 'beer', 'malt'],
    ],
  },
  {
    group: 'crustaceans',
    names: ['skalldyr', 'krepsdyr', 'crustacean', 'crustaceans', 'shellfish'],
    foods: [
      ['reke', 'reker', 'shrimp', 'prawn', 'scampi'],
      ['krabbe', 'crab', 'kongekrabbe'],
      ['hummer', 'lobster'],
      ['kreps', 'crayfish', 'crawfish'],
      ['sjøkreps', 'langust', 'langoustine'],
    ],
  },
  {
    group: 'eggs',
    names: ['egg', 'eggs', 'eggehvite', 'eggeplomme'],
    foods: [
      ['egg', 'egge', 'eggs'],
      ['majones', 'majonnes', 'mayonnaise', 'mayo', 'remulade', 'aioli', 'aïoli'],
      ['marengs', 'meringue'],
      ['eggnudler', 'egg noodles'],
    ],
  },
  {
    group: 'fish',
    names: ['fisk', 'fish'],
    foods: [
      ['laks', 'salmon'],
      ['torsk', 'cod', 'klippfisk', 'bacalao', 'skrei'],
      ['sei', 'pollock', 'coley'],
      ['hyse', 'haddock'],
      ['makrell', 'mackerel'],
      ['tunfisk', 'tuna'],
      ['ansjos', 'anchovy', 'anchovies', 'sardell'],
      ['sild', 'herring'],
      ['ørret', 'trout', 'røye', 'char'],
      ['kveite', 'halibut', 'flyndre', 'flounder', 'rødspette', 'plaice'],
      ['steinbit', 'catfish', 'breiflabb', 'monkfish', 'lange', 'brosme'],
      ['sardin', 'sardine'],
      ['fiskesaus', 'fish sauce', 'worcestershire'],
      ['kaviar', 'caviar', 'rogn', 'roe'],
    ],
  },
  {
    group: 'peanuts',
    names: ['peanøtt', 'peanøtter', 'peanut', 'peanuts', 'jordnøtt', 'jordnøtter', 'groundnut'],
    foods: [['peanøttsmør', 'peanut butter'], ['satay', 'saté']],
  },
  {
    group: 'soy',
    names: ['soya', 'soy', 'soja', 'soybean', 'soyabønne'],
    foods: [['tofu'], ['edamame'], ['miso'], ['tempeh'], ['soyasaus', 'soy sauce', 'tamari', 'shoyu'], ['soyamelk', 'soy milk']],
  },
  {
    group: 'milk',
    names: ['melk', 'milk', 'laktose', 'lactose', 'meieri', 'meieriprodukter', 'dairy', 'melkeprotein', 'kasein', 'casein'],
    foods: [
      ['fløte', 'cream', 'kremfløte', 'matfløte', 'crème fraîche', 'creme fraiche'],
      ['smør', 'butter', 'ghee'],
      ['ost', 'oste', 'cheese', 'parmesan', 'mozzarella', 'feta', 'cheddar', 'gouda', 'brie', 'ricotta', 'mascarpone', 'halloumi', 'pecorino', 'gruyère', 'jarlsberg', 'brunost', 'prim'],
      ['rømme', 'sour cream'],
      ['yoghurt', 'yogurt', 'skyr'],
      ['kesam', 'kvarg', 'quark', 'cottage'],
      ['kulturmelk', 'kefir', 'buttermilk', 'kjernemelk'],
      ['myse', 'whey'],
    ],
    unless: [
      'peanøttsmør', 'peanut butter', 'nøttesmør', 'nut butter', 'mandelsmør', 'almond butter', 'kakaosmør', 'cocoa butter', 'sheasmør', 'shea butter',
      'kokosmelk', 'coconut milk', 'kokosfløte', 'coconut cream', 'havremelk', 'oat milk', 'havrefløte', 'oat cream', 'soyamelk', 'soy milk',
      'soyafløte', 'soy cream', 'mandelmelk', 'almond milk', 'rismelk', 'rice milk',
    ],
  },
  {
    group: 'nuts',
    names: ['nøtt', 'nøtter', 'nut', 'nuts', 'tree nut', 'tree nuts', 'trenøtter'],
    foods: [
      ['mandel', 'mandler', 'mandl', 'almond', 'marsipan', 'marzipan'],
      ['hasselnøtt', 'hazelnut', 'nøttepålegg', 'nugatti', 'nutella'],
      ['valnøtt', 'walnut'],
      ['cashew', 'kasjew', 'cashewnøtt'],
      ['pekan', 'pecan'],
      ['pistasj', 'pistachio'],
      ['paranøtt', 'brazil nut'],
      ['macadamia'],
      ['pinjekjerne', 'pine nut'],
      ['praline', 'nougat'],
    ],
  },
  {
    group: 'celery',
    names: ['selleri', 'celery', 'celeriac'],
    foods: [['stangselleri', 'celery stalk'], ['sellerirot', 'celeriac'], ['sellerisalt', 'celery salt']],
  },
  {
    group: 'mustard',
    names: ['sennep', 'mustard'],
    foods: [['sennepsfrø', 'mustard seed'], ['dijon'], ['grovsennep'], ['remulade']],
  },
  {
    group: 'sesame',
    names: ['sesam', 'sesame'],
    foods: [['sesamfrø', 'sesame seed'], ['tahini', 'tahin'], ['sesamolje', 'sesame oil'], ['hummus'], ['halva', 'halvah']],
  },
  {
    group: 'sulphites',
    names: ['sulfitt', 'sulfitter', 'sulfite', 'sulfites', 'sulphite', 'sulphites', 'svoveldioksid', 'sulphur dioxide', 'sulfur dioxide'],
    foods: [['vin', 'wine', 'hvitvin', 'rødvin'], ['tørket frukt', 'dried fruit', 'tørket aprikos', 'dried apricot', 'rosin', 'raisin', 'svisker', 'prune'], ['eddik', 'vinegar']],
  },
  {
    group: 'lupin',
    names: ['lupin', 'lupiner', 'lupine'],
    foods: [['lupinmel', 'lupin flour']],
  },
  {
    group: 'molluscs',
    names: ['bløtdyr', 'mollusc', 'molluscs', 'mollusk', 'mollusks', 'skjell'],
    foods: [
      ['blåskjell', 'mussel', 'mussels'],
      ['østers', 'oyster'],
      ['kamskjell', 'scallop'],
      ['blekksprut', 'squid', 'octopus', 'calamari', 'akkar'],
      ['snegl', 'snail', 'escargot'],
      ['skjell', 'clam', 'clams', 'hjerteskjell', 'cockle'],
    ],
  },
];

/** NFKC, lower case, accents off but æ, ø, å (ä, ö read as æ, ø), everything else that is no letter or digit a space. */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ä/g, 'æ')
    .replace(/ö/g, 'ø')
    .normalize('NFD')
    .replace(/(?<!a)\u030a|[\u0300-\u0309\u030b-\u036f]/g, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const SUFFIXES: readonly (readonly [string, string])[] = [
  ['ies', 'y'],
  ['oes', 'o'],
  ['ene', ''],
  ['ane', ''],
  ['es', ''],
  ['er', ''],
  ['en', ''],
  ['et', ''],
  ['s', ''],
  ['a', ''],
  ['e', ''],
];

/** A crude stem of one folded word: the first inflection ending taken off that leaves three letters or more. */
export function stemOf(word: string): string {
  for (const [ending, instead] of SUFFIXES) {
    if (word.endsWith(ending) && word.length - ending.length + instead.length >= 3 && !(ending === 's' && word.endsWith('ss'))) {
      return word.slice(0, word.length - ending.length) + instead;
    }
  }
  return word;
}

/** One thing to look for: folded words (a phrase when several), and how a word of the ingredient may hold it. */
interface Term {
  readonly words: readonly string[];
  /** A group's food found in a name the group knows is not of it counts for nothing. */
  readonly unless?: readonly Term[];
  /** `inside`: anywhere in a word; `head`: the whole word or its end (a short food name). */
  readonly how: 'inside' | 'head';
  readonly via: 'word' | 'group';
  readonly group: AllergenGroup | null;
}

const wordsOf = (text: string): string[] => foldText(text).split(' ').filter((w) => w !== '');
const stemsOf = (text: string): string[] => wordsOf(text).map(stemOf);

/** A food name of a group as terms: long names are found inside words, short ones as a whole word or a compound's end. */
const foodTerm = (name: string, g: GroupTable): Term => {
  // A food's name as written (its stem could be another food's: laks, lakris), found inflected through the ingredient's stems.
  const words = wordsOf(name);
  const short = words.length === 1 && words[0]!.length < 4;
  return { words, how: short ? 'head' : 'inside', via: 'group', group: g.group, unless: unlessOf(g) };
};
const unlessOf = (g: GroupTable): Term[] => (g.unless ?? []).map((n): Term => ({ words: wordsOf(n), how: 'inside', via: 'group', group: g.group }));

/**
 * How well an avoid names a group or a food name: the length of the name when the avoid holds it (a name of four
 * letters or more anywhere in the avoid, a shorter one only as a whole word), or when a name of the group holds the
 * whole avoid (four letters or more); 0 when neither.
 */
function naming(avoid: readonly string[], name: readonly string[]): number {
  const a = avoid.join(' ');
  const n = name.join(' ');
  if (n.length < 4) return avoid.includes(n) || a === n ? n.length : 0;
  if (a.includes(n)) return n.length;
  return a.length >= 4 && n.includes(a) ? a.length : 0;
}

/**
 * Everything one avoid is to find: its own words, and what an allergen group or a food it names takes in. When the
 * avoid names several groups, only the one it names most closely counts (`peanøtter` names peanuts, not nuts through
 * its `nøtt`).
 */
function termsOf(avoid: string): Term[] {
  const own = stemsOf(avoid);
  if (own.length === 0) return [];
  const terms: Term[] = [{ words: own, how: 'inside', via: 'word', group: null }];
  const byGroup = GROUPS.map((g) => ({ g, score: Math.max(0, ...g.names.map((n) => naming(own, stemsOf(n)))) }));
  const best = Math.max(0, ...byGroup.map((x) => x.score));
  for (const { g, score } of byGroup) {
    if (best > 0 && score === best) {
      for (const n of g.names) terms.push({ words: stemsOf(n), how: 'inside', via: 'group', group: g.group, unless: unlessOf(g) });
      for (const food of g.foods) for (const n of food) terms.push(foodTerm(n, g));
      continue;
    }
    for (const food of g.foods) {
      if (food.some((n) => naming(own, stemsOf(n)) > 0)) for (const n of food) terms.push(foodTerm(n, g));
    }
  }
  return terms;
}

/** Whether a term is in the ingredient's words (and their stems): one word, or a phrase over consecutive words. */
function holds(term: Term, words: readonly string[], stems: readonly string[]): boolean {
  const found = (w: string, s: string, t: string) => (term.how === 'inside' ? w.includes(t) || s.includes(t) : w === t || s === stemOf(t) || w.endsWith(t));
  if (term.words.length === 1) return words.some((w, i) => found(w, stems[i]!, term.words[0]!));
  // A phrase: its words one after another; the last may be inflected or the head of a compound.
  const joined = ` ${words.join(' ')} `;
  const joinedStems = ` ${stems.join(' ')} `;
  const phrase = term.words.join(' ');
  return joined.includes(` ${phrase}`) || joinedStems.includes(` ${phrase}`) || joined.replace(/ /g, '').includes(phrase.replace(/ /g, ''));
}

/**
 * The matcher of a day's avoids, built once and asked for every ingredient of every candidate recipe. Answers the
 * first avoid (in the order given) that the ingredient breaks, by its display name or its food key, or null.
 */
export function avoidMatcher(avoids: readonly string[]): (ingredient: { readonly displayName: string; readonly foodKey: string }) => AvoidConflict | null {
  const compiled = avoids.map((avoid) => ({ avoid, terms: termsOf(avoid) })).filter((a) => a.terms.length > 0);
  return (ingredient) => {
    if (compiled.length === 0) return null;
    const texts = [ingredient.displayName, ingredient.foodKey.replace(/-/g, ' ')];
    const parsed = texts.map((t) => {
      const words = wordsOf(t);
      return { words, stems: words.map(stemOf) };
    });
    for (const { avoid, terms } of compiled) {
      for (const term of terms) {
        const breaks = (p: { words: string[]; stems: string[] }) => holds(term, p.words, p.stems) && !(term.unless ?? []).some((u) => holds(u, p.words, p.stems));
        if (parsed.some(breaks)) return { avoid, ingredient: ingredient.displayName, via: term.via, group: term.group };
      }
    }
    return null;
  };
}

/** The first avoid an ingredient breaks, or null: `avoidMatcher` for a single question. */
export const avoidConflict = (avoids: readonly string[], ingredient: { readonly displayName: string; readonly foodKey: string }): AvoidConflict | null =>
  avoidMatcher(avoids)(ingredient);
