import { expect } from 'chai';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';

/** [displayName, expected key, why] */
const EXAMPLES: ReadonlyArray<readonly [string, string, string]> = [
  // case, width and whitespace
  ['Melk', 'melk', 'lower case'],
  ['  Cherry   Tomatoes ', 'cherry-tomato', 'trimmed, inner whitespace one "-", plural of the last word'],
  ['ＭＥＬＫ', 'melk', 'full-width letters (NFKC)'],
  ['ﬁsh', 'fish', 'ligature (NFKC)'],
  ['İstanbul', 'istanbul', 'locale-independent lower case; the dot of İ is folded'],
  ['ÅRSTID', 'årstid', 'upper-case Å lowered, kept'],
  ['Straße', 'strasse', 'ß → ss'],
  // Norwegian letters stay, other diacritics fold
  ['Blåbær', 'blåbær', 'å and æ are letters'],
  ['Rømme', 'rømme', 'ø is a letter'],
  ['Crème fraîche', 'creme-fraiche', 'è, î folded'],
  ['Crème-Fraîche', 'creme-fraiche', 'a hyphen separates like a space'],
  ['Jalapeño', 'jalapeno', 'ñ folded'],
  ['Müsli', 'musli', 'ü folded'],
  ['Ölbrød', 'olbrød', 'ö folded, ø kept'],
  ['Cre\u0300me', 'creme', 'a combining accent (decomposed input) folds like a composed one'],
  ['a\u030Abor', 'åbor', 'a + combining ring composes to å (NFKC), which stays'],
  // punctuation and numbers
  ["O'Boy", 'oboy', 'apostrophes vanish'],
  ['Kylling (filet)', 'kylling-filet', 'brackets separate'],
  ['Salt & pepper', 'salt-pepper', 'symbols separate'],
  ['2 dl melk', '2-dl-melk', 'numbers stay: no amount or unit is read from the name'],
  ['7up', '7up', 'digits inside a word stay'],
  ['!!!', '', 'no letter or digit: empty key'],
  // English plurals
  ['Tomatoes', 'tomato', '-oes'],
  ['potatoes', 'potato', '-oes'],
  ['berries', 'berry', '-ies'],
  ['cherries', 'cherry', '-ies'],
  ['onions', 'onion', '-s'],
  ['olives', 'olive', '-ves is not -f unless listed'],
  ['leaves', 'leaf', 'irregular, listed'],
  ['loaves', 'loaf', 'irregular, listed'],
  ['peaches', 'peach', '-ches'],
  ['radishes', 'radish', '-shes'],
  ['boxes', 'box', '-xes'],
  ['glasses', 'glass', '-sses'],
  ['cheeses', 'cheese', '-ses is only -s'],
  ['pies', 'pie', 'too short a stem for -ies → y'],
  ['cookies', 'cookie', 'listed'],
  ['peas', 'pea', '-s'],
  ['bananas', 'banana', '-s'],
  ['kiwis', 'kiwi', '-s'],
  ['glass', 'glass', '-ss is singular'],
  ['hummus', 'hummus', '-us is singular'],
  ['couscous', 'couscous', '-us is singular'],
  ['asparagus', 'asparagus', '-us is singular'],
  ['molasses', 'molasses', 'listed singular'],
  ['butter', 'butter', 'English -er is never a plural'],
  ['egg', 'egg', 'short words are left alone'],
  ['eggs', 'egg', '-s'],
  // Norwegian plurals: a closed list, matched at the end of a word so that compounds follow
  ['tomater', 'tomat', 'listed'],
  ['Løker', 'løk', 'listed'],
  ['poteter', 'potet', 'listed'],
  ['bananer', 'banan', 'listed'],
  ['epler', 'eple', 'listed'],
  ['gulrøtter', 'gulrot', 'irregular, listed'],
  ['cherrytomater', 'cherrytomat', 'compound ending in a listed plural'],
  ['hvitløker', 'hvitløk', 'compound'],
  ['hasselnøtter', 'hasselnøtt', 'compound'],
  ['kikerter', 'kikert', 'compound'],
  ['søtpoteter', 'søtpotet', 'compound'],
  ['sukker', 'sukker', 'singular -er is not stripped'],
  ['pepper', 'pepper', 'singular -er is not stripped'],
  ['krydder', 'krydder', 'singular -er is not stripped'],
  ['ris', 'ris', 'singular -s word (short)'],
  ['basmatiris', 'basmatiris', 'compound of ris'],
  ['laks', 'laks', 'listed singular -s'],
  ['røkelaks', 'røkelaks', 'compound of laks'],
  ['kjeks', 'kjeks', 'listed singular -s'],
  ['ananas', 'ananas', 'listed singular -s'],
  ['vaniljeis', 'vaniljeis', 'compound of is'],
  ['Grønne erter', 'grønne-ert', 'each word'],
];

describe('normalizeFoodKey', () => {
  for (const [name, key, why] of EXAMPLES) {
    it(`${JSON.stringify(name)} → ${JSON.stringify(key)} (${why})`, () => {
      expect(normalizeFoodKey(name)).to.equal(key);
    });
  }

  it('is stable: a key normalizes to itself', () => {
    for (const [name] of EXAMPLES) {
      const key = normalizeFoodKey(name);
      expect(normalizeFoodKey(key), name).to.equal(key);
    }
  });

  it('gives singular and plural of a listed food one key', () => {
    const pairs = [
      ['tomat', 'tomater'],
      ['løk', 'løker'],
      ['eple', 'epler'],
      ['gulrot', 'gulrøtter'],
      ['tomato', 'tomatoes'],
      ['berry', 'berries'],
      ['onion', 'onions'],
    ];
    for (const [one, many] of pairs) expect(normalizeFoodKey(many!), many).to.equal(normalizeFoodKey(one!));
  });
});
