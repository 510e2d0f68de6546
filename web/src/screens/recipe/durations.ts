// The durations a recipe's step names, read for the cooking view's timers (use-cook-timers.ts); kept apart from
// the hooks so that it reads, and is tested, without a browser.

// Number words a step may use instead of digits ("trekk i fem minutter", "simmer for ten minutes"). Norwegian and
// English; a recipe is written in its own language, whatever the household reads the screens in.
const NORWEGIAN: Readonly<Record<string, number>> = {
  en: 1, ett: 1, ei: 1, to: 2, tre: 3, fire: 4, fem: 5, seks: 6, sju: 7, syv: 7, åtte: 8, ni: 9, ti: 10,
  elleve: 11, tolv: 12, femten: 15, tjue: 20, tretti: 30, førti: 40, femti: 50,
};
const ENGLISH: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50,
};
const WORDS = [...Object.keys(NORWEGIAN), ...Object.keys(ENGLISH)].sort((a, b) => b.length - a.length).join('|');
const NUMBER = `(\\d+(?:[.,]\\d+)?(?:\\s*½)?|½|${WORDS})`;
// "10–12 minutter", "10 til 12 min", "10 to 12 minutes", "1½ time", "2 timer", "fem minutter", "25 min."
const DURATION = new RegExp(`(?<![\\p{L}\\d])${NUMBER}(?:\\s*(?:-|–|—|til|to|or|eller)\\s*${NUMBER})?\\s*(minutter|minutt|minutes|minute|mins|min|timer|time|hours|hour)(?![\\p{L}])`, 'giu');
// Fixed phrases for a quarter and a half hour, which name no number.
const PHRASES: readonly (readonly [RegExp, number])[] = [
  [/(?<![\p{L}])(?:et|ett)\s+kvarter(?![\p{L}])/giu, 15],
  [/(?<![\p{L}])halvannen\s+time(?![\p{L}])/giu, 90],
  [/(?<![\p{L}])(?:en\s+)?halv\s*time(?![\p{L}])/giu, 30],
  [/(?<![\p{L}])half\s+an\s+hour(?![\p{L}])/giu, 30],
];

/** A number as a step writes it: digits (a comma or a point for decimals, ½ for a half) or a word. */
function numberOf(text: string): number | null {
  const word = text.toLowerCase();
  if (word in NORWEGIAN) return NORWEGIAN[word]!;
  if (word in ENGLISH) return ENGLISH[word]!;
  const half = text.includes('½') ? 0.5 : 0;
  const digits = text.replace('½', '').trim();
  const n = digits === '' ? 0 : Number(digits.replace(',', '.'));
  return Number.isFinite(n) ? n + half : null;
}

/**
 * The durations a step names, in minutes, in the order it names them: "kok i 10 minutter" is [10], "stek 5 min, snu og
 * stek 3 min til" is [5, 3], "la det trekke et kvarter" is [15], "1½ time" is [90]. A range ("10–12 minutter") gives
 * its first, smaller number: a timer that rings at the earliest time lets the cook look and add a minute, while a
 * dish cooked too long cannot be taken back. "time" (Norwegian for hour) counts only after digits or a Norwegian
 * word, so English "one time" is no hour. At most a day; durations under a minute are left out.
 */
export function minutesIn(step: string): number[] {
  const found: { at: number; minutes: number }[] = [];
  for (const match of step.matchAll(DURATION)) {
    const [, first, , unit] = match;
    const n = numberOf(first!);
    const hours = /^(timer|time|hours|hour)$/i.test(unit!);
    if (n === null || (/^(timer|time)$/i.test(unit!) && first!.toLowerCase() in ENGLISH)) continue;
    // Under a minute as written ("0,5 min") is left out before rounding, which would make it one.
    const exact = hours ? n * 60 : n;
    if (exact >= 1) found.push({ at: match.index, minutes: Math.round(exact) });
  }
  for (const [pattern, minutes] of PHRASES) for (const match of step.matchAll(pattern)) found.push({ at: match.index, minutes });
  return found
    .sort((a, b) => a.at - b.at)
    .map((f) => f.minutes)
    .filter((m) => m >= 1 && m <= 24 * 60);
}


/** Seconds as a kitchen clock shows them: 09:05, and 75:00 past the hour. */
export const clock = (seconds: number): string => `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
