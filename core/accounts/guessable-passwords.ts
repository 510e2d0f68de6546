/*
 * A password built only from words anyone would try first: the service's own name, the person's e-mail address or
 * name, or the common words of a Norwegian household's passwords ("passord1", "Sommer2024!", "kari.hansen"). The
 * breach lists (adapters/passwords) catch passwords seen before; this catches the ones built the same way that no
 * breach has shown yet. Digits and signs around and between the words add nothing a guesser does not try: they are
 * left out before the words are looked for. A password with any other word in it (three random words, a sentence)
 * is not refused here.
 */

/** Why a password is too easy to guess: what it is built from. */
export type GuessableReason = 'service-name' | 'email' | 'name' | 'common-word';

/** The service's own names, as a guesser who knows where the password is used would try them. */
const SERVICE_WORDS = ['middag', 'middager', 'middagsplan', 'middagsplanlegger', 'dinner', 'dinners', 'dinnerplanner', 'handleliste'];

/**
 * Words that Norwegian passwords are most often built from (the seasons, places, football, love and family words,
 * the word "passord" itself), and their English counterparts. Lower case, as the password is compared.
 */
const COMMON_WORDS = [
  'passord', 'password', 'pass', 'hemmelig', 'secret', 'qwerty', 'asdf', 'abc', 'admin', 'login', 'velkommen', 'welcome',
  'hallo', 'hello', 'heisann', 'hei', 'sommer', 'summer', 'vinter', 'winter', 'host', 'høst', 'autumn', 'var', 'vår',
  'spring', 'januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november',
  'desember', 'jul', 'julaften', 'påske', 'paske', 'norge', 'norway', 'noreg', 'oslo', 'bergen', 'trondheim',
  'stavanger', 'tromsø', 'tromso', 'kristiansand', 'drammen', 'fredrikstad', 'rosenborg', 'brann', 'vålerenga',
  'valerenga', 'molde', 'lyn', 'fotball', 'football', 'elsker', 'kjærlighet', 'love', 'kjæreste', 'kjaereste',
  'elskling', 'skatt', 'mamma', 'pappa', 'familie', 'family', 'barna', 'hjem', 'home', 'hund', 'katt', 'hytta',
  'hytte', 'ski', 'fjell', 'sol', 'sola', 'lykke', 'glad', 'super', 'test', 'bruker', 'user', 'mat', 'kake',
];

/** Letters a guesser swaps for digits and signs, read back as the letters. */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '!': 'i' };

/**
 * The letters of a text, lower-cased; when `leet`, look-alike digits and signs between its first and last letter
 * read as letters ("P4ssw0rd!" is "password": the sign after the last letter stays a sign).
 */
function lettersOf(text: string, leet: boolean): string {
  const chars = [...text.toLowerCase()];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const first = chars.findIndex(isLetter);
  const last = chars.findLastIndex(isLetter);
  return chars
    .map((c, i) => (leet && i > first && i < last ? (LEET[c] ?? c) : c))
    .filter(isLetter)
    .join('');
}

/** The parts of an e-mail address or a name a password could be built from: each of at least three letters, and the whole. */
function partsOf(text: string): string[] {
  const parts = text.toLowerCase().split(/[^\p{L}]+/u).filter((p) => p.length >= 3);
  const whole = lettersOf(text, false);
  return whole.length >= 3 ? [...parts, whole] : parts;
}

/** Whether `letters` is nothing but words of `words`, one after the other (any of them any number of times). */
function builtFrom(letters: string, words: ReadonlySet<string>): boolean {
  if (letters === '') return false;
  // can[i]: letters[0, i) is made of words.
  const can = [true, ...Array.from({ length: letters.length }, () => false)];
  for (let i = 1; i <= letters.length; i += 1) {
    for (let j = Math.max(0, i - 20); j < i && !can[i]; j += 1) can[i] = can[j]! && words.has(letters.slice(j, i));
  }
  return can[letters.length]!;
}

/**
 * Why `password` is too easy to guess, or null when it is not: it is nothing but the service's name, the person's
 * e-mail address or name, and common words (any mix of them), once digits and signs are left out (also when read as
 * the letters they look like). A password of no letters at all is left to the breach lists and the length rule.
 */
export function guessableReason(password: string, person: { readonly email: string; readonly displayName?: string | null }): GuessableReason | null {
  const own = { email: partsOf(person.email.split('@')[0] ?? ''), name: partsOf(person.displayName ?? '') };
  const everything = new Set([...SERVICE_WORDS, ...COMMON_WORDS, ...own.email, ...own.name]);
  const built = [lettersOf(password, false), lettersOf(password, true)].find((letters) => builtFrom(letters, everything));
  if (built === undefined) return null;
  // Said by what it leans on most: the person's own address or name, then the service, then common words.
  const has = (words: readonly string[]) => words.some((w) => built.includes(w));
  if (has(own.email)) return 'email';
  if (has(own.name)) return 'name';
  if (has(SERVICE_WORDS)) return 'service-name';
  return 'common-word';
}

/** What a guessable password is built from, as a phrase for a problem's detail or the operator's command line. */
export function guessableBuiltFrom(reason: GuessableReason): string {
  const own = { 'service-name': "the service's name", email: 'your e-mail address', name: 'your name', 'common-word': null }[reason];
  return own === null ? 'common words' : `${own} and common words`;
}
