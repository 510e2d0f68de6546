/**
 * The food key: the one normalized name under which recipes, the pantry and the shopping list meet a food.
 *
 * The rule (stable: changing it changes stored keys, so extend the tables below only with care):
 *  1. Unicode NFKC (ligatures, full-width and compatibility forms become their plain letters and digits).
 *  2. Lower case by the Unicode default mapping (locale-independent: `toLowerCase()`, never `toLocaleLowerCase`).
 *  3. Diacritics are folded (é→e, ü→u, ö→o, ä→a, ñ→n, ç→c), except æ, ø and å, which are letters of their own in
 *     Norwegian and stay. ß becomes ss, œ becomes oe.
 *  4. Apostrophes vanish ("o'boy" → "oboy"); every other run of characters that are neither letters nor digits
 *     (spaces, punctuation, symbols) separates words. Nothing else is removed: numbers stay, and no amount or unit
 *     is read out of the name (quantity and unit are fields of their own).
 *  5. Each word of four or more letters is made singular by a small, closed set of rules (below); a word the
 *     rules do not know keeps its form. Irregular and ambiguous words are listed, not guessed.
 *  6. The words are joined with single '-'.
 * A name without any letter or digit has the empty key; callers refuse such names.
 */
export function normalizeFoodKey(displayName: string): string {
  const lowered = displayName.normalize('NFKC').toLowerCase();
  let folded = '';
  for (const ch of lowered) folded += KEPT_LETTERS.has(ch) ? ch : (SPECIAL_FOLDS[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, ''));
  const words = folded
    .replace(/['’ʼ`´]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  return words.map(singular).join('-');
}

const KEPT_LETTERS = new Set(['æ', 'ø', 'å']);
const SPECIAL_FOLDS: Readonly<Record<string, string>> = { ß: 'ss', œ: 'oe', ı: 'i', ð: 'd', þ: 'th', ł: 'l' };

/**
 * Norwegian plurals, matched at the END of a word so that compounds follow their last part
 * ("cherrytomater" → "cherrytomat", "hvitløker" → "hvitløk", "hasselnøtter" → "hasselnøtt"). A closed list:
 * a general "-er" rule would turn singular sukker, pepper, krydder (and English butter, water) into stems.
 */
const NORWEGIAN_PLURALS: ReadonlyArray<readonly [string, string]> = (
  [
    ['gulrøtter', 'gulrot'],
    ['tomater', 'tomat'],
    ['poteter', 'potet'],
    ['bananer', 'banan'],
    ['løker', 'løk'],
    ['epler', 'eple'],
    ['pærer', 'pære'],
    ['plommer', 'plomme'],
    ['sitroner', 'sitron'],
    ['appelsiner', 'appelsin'],
    ['mandariner', 'mandarin'],
    ['klementiner', 'klementin'],
    ['agurker', 'agurk'],
    ['paprikaer', 'paprika'],
    ['avokadoer', 'avokado'],
    ['aprikoser', 'aprikos'],
    ['nøtter', 'nøtt'],
    ['mandler', 'mandel'],
    ['erter', 'ert'],
    ['bønner', 'bønne'],
    ['reker', 'reke'],
    ['pølser', 'pølse'],
    ['champignoner', 'champignon'],
    ['auberginer', 'aubergine'],
    ['druer', 'drue'],
    ['dadler', 'daddel'],
    ['rosiner', 'rosin'],
    ['kiwier', 'kiwi'],
    ['limer', 'lime'],
    ['mangoer', 'mango'],
    ['reddiker', 'reddik'],
    ['rødbeter', 'rødbete'],
    ['tortillaer', 'tortilla'],
    ['lomper', 'lompe'],
    ['boller', 'bolle'],
    ['kaker', 'kake'],
    ['vafler', 'vaffel'],
    ['karbonader', 'karbonade'],
    ['koteletter', 'kotelett'],
    ['fileter', 'filet'],
    ['sardiner', 'sardin'],
    ['nudler', 'nudel'],
    ['urter', 'urt'],
  ] as const
)
  .slice()
  .sort((a, b) => b[0].length - a[0].length);

/** English irregulars and words whose "-ies"/"-ves" would be mistaken. */
const ENGLISH_IRREGULAR: Readonly<Record<string, string>> = {
  leaves: 'leaf',
  loaves: 'loaf',
  halves: 'half',
  calves: 'calf',
  knives: 'knife',
  geese: 'goose',
  cookies: 'cookie',
  brownies: 'brownie',
  smoothies: 'smoothie',
  veggies: 'veggie',
  molasses: 'molasses',
};

/**
 * Word endings (so compounds follow: basmatiris, røkelaks, vaniljeis) that end in "s" but are singular: English
 * -ss, -us (glass, hummus, couscous, asparagus) and Norwegian ris, is, mais, laks, kjeks, asparges, kokos, rips,
 * saus, brus, jus. Whole words only where an ending would catch a plural (ananas, but bananas → banana).
 */
const SINGULAR_S_ENDINGS = ['ss', 'us', 'ris', 'eis', 'mais', 'laks', 'kjeks', 'asparges', 'kokos', 'rips', 'pommes'];
const SINGULAR_S_WORDS = new Set(['ananas']);

function singular(word: string): string {
  if (word.length < 4 || !/^\p{L}+$/u.test(word)) return word;
  const irregular = ENGLISH_IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  for (const [plural, one] of NORWEGIAN_PLURALS) if (word.endsWith(plural)) return word.slice(0, word.length - plural.length) + one;
  if (!word.endsWith('s') || SINGULAR_S_WORDS.has(word) || SINGULAR_S_ENDINGS.some((e) => word.endsWith(e))) return word;
  // English: berries → berry (but pies → pie: too short a stem), tomatoes → tomato, peaches → peach,
  // radishes → radish, boxes → box, glasses → glass; otherwise the final s goes (onions → onion, olives → olive).
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(oes|ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}
