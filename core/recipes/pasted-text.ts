import { parseIngredientLine } from './ingredient-line.js';
import type { RecipeRead } from './import.js';

/**
 * A whole recipe pasted as text (from a notes app, an e-mail, a blog, a PDF) read into the parts a recipe page gives:
 * title, servings, time, the ingredient lines as written and the steps. Pure: the lines are then parsed as a page's
 * are (previewOf), so a pasted recipe gets the same preview and the same confidences.
 *
 * - Sections by their headings in nb/nn/sv/da/en/de ("Ingredienser", "Du trenger", "Ingredients", "Zutaten",
 *   "Fremgangsmåte", "Slik gjør du", "Method", "Instructions", "Zubereitung", "Gör så här", ...), with or without a
 *   colon, markdown marks or a count ("Ingredienser (4 porsjoner)"). A section that is neither ("Tips", "Notes",
 *   "Næringsinnhold") is left out.
 * - Without headings: after the title, a block of short lines with amounts and then a block of sentences. The split
 *   is the one that puts the fewest lines on the wrong side (lines that look like both, or neither, count for none);
 *   sentences before the first amount are the introduction and are left out.
 * - The title is the first line that is not a heading, a servings or time line, or junk (a line with no letter,
 *   "Print", "Sendt fra min iPhone", an e-mail header, a bare address).
 * - Servings from "4 porsjoner", "Serves 4", "Til 4 personer", "Porsjoner: 4", "Ingredienser til 4" (1..100).
 *   Time from "Tid: 45 min", "Total time: 1 hour 10 minutes", "Prep time"/"Cook time" (added up), "Ca. 1 time".
 * - Steps lose their numbers ("1.", "1)", "Steg 1:", "Step 1") and bullets; a step wrapped over several lines (a
 *   number followed by lines of text, or a line that runs on in lower case) is one step again.
 * - Ingredient lines lose bullets and check boxes ("-", "•", "*", "▢", "[ ]").
 * Never throws; whatever the text, the answer keeps the limits of ExtractedRecipe (previewOf keeps a RecipeRequest's).
 */
export function readPastedRecipe(text: string): RecipeRead {
  const lines = linesOf(text);
  const meta = metaOf(lines);
  const kinds = lines.map(kindOf);
  const titleAt = titleOf(lines, kinds, meta.used);
  const { ingredientLines, stepLines } = sectionsOf(lines, kinds, meta.used, titleAt);
  let title = titleAt >= 0 ? cleanTitle(lines[titleAt]!) : '';
  // "Spaghetti carbonara (2 servings)": the count in brackets is the servings, not part of the name.
  const bracket = /\s*\(([^()]*\d[^()]*)\)$/.exec(title);
  if (bracket && meta.servings === null && servingsIn(bracket[1]!) !== null) {
    [meta.servings, meta.yields] = [servingsIn(bracket[1]!), bracket[1]!.trim().slice(0, MAX.yields)];
    title = title.slice(0, bracket.index).trim() || title;
  }
  const heading = lines.find((l, i) => kinds[i] === 'ingredients' && /\d/.test(l));
  const servingsFromHeading = meta.servings === null && heading !== undefined ? servingsIn(heading, true) : null;
  const steps = stepsOf(stepLines);
  const warnings: string[] = [];
  if (ingredientLines.length === 0) warnings.push('no_ingredients');
  if (steps.length === 0) warnings.push('no_steps');
  return {
    title: (title || firstWords(ingredientLines[0] ?? steps[0] ?? '') || '…').slice(0, MAX.title),
    ingredientLines: ingredientLines.map((l) => l.slice(0, MAX.line)).slice(0, MAX.lines),
    steps: steps.map((s) => s.slice(0, MAX.step)).slice(0, MAX.steps),
    yields: meta.yields ?? (servingsFromHeading !== null ? heading!.slice(0, MAX.yields) : null),
    servings: meta.servings ?? servingsFromHeading,
    totalMinutes: meta.totalMinutes,
    activeMinutes: meta.activeMinutes !== null && (meta.totalMinutes === null || meta.activeMinutes <= meta.totalMinutes) ? meta.activeMinutes : null,
    imageUrl: null,
    warnings,
  };
}

/** The most text read; what follows is left unread (the route refuses longer text before it comes here). */
export const PASTED_TEXT_MAX_CHARS = 50_000;
const MAX = { title: 200, lines: 100, line: 500, steps: 100, step: 2000, yields: 100, lineCount: 2000 } as const;

/** The text as trimmed lines, blank ones kept as '' (they separate blocks): CRLF, tabs, odd spaces and marks undone. */
function linesOf(text: string): string[] {
  return String(text)
    .slice(0, PASTED_TEXT_MAX_CHARS)
    .replace(/\r\n?/g, '\n')
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '')
    .replace(/[\t\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '')
    .split(/\n|\u2028|\u2029/)
    .slice(0, MAX.lineCount)
    .map((l) => l.replace(/\s+/g, ' ').trim());
}

type Kind = 'blank' | 'junk' | 'ingredients' | 'steps' | 'other' | 'text';

const HEADINGS: Readonly<Record<'ingredients' | 'steps' | 'other', readonly string[]>> = {
  ingredients: [
    'ingredienser', 'ingrediensar', 'ingredienslista', 'ingrediensliste', 'du trenger', 'du treng', 'dette trenger du', 'det här behöver du', 'du behöver', 'det skal du bruge', 'du skal bruge',
    'ingredients', 'ingredient list', 'you will need', "you'll need", 'what you need', 'zutaten', 'sie brauchen', 'til oppskriften', 'handleliste', 'shopping list',
  ],
  steps: [
    'fremgangsmåte', 'framgangsmåte', 'fremgangsmåde', 'slik gjør du', 'slik gjer du', 'slik lager du', 'sånn gjør du', 'gjør slik', 'tilberedning', 'tillaging', 'tillagning', 'gör så här', 'så här gör du', 'sådan gør du', 'instruksjoner', 'oppskrift', 'beskrivelse',
    'method', 'methods', 'instructions', 'directions', 'preparation', 'steps', 'how to make it', 'how to make', 'zubereitung', 'anleitung', 'so geht es', "so geht's",
  ],
  other: [
    'tips', 'tips!', 'tips og triks', 'tip', 'notes', 'note', 'recipe notes', 'notater', 'merknad', 'merk', 'servering', 'server med', 'serving suggestions', 'næringsinnhold', 'næringsverdi',
    'nutrition', 'nutrition facts', 'nutrition information', 'näringsvärde', 'kommentarer', 'comments', 'relaterte oppskrifter', 'related recipes', 'you may also like', 'del oppskriften', 'share this recipe', 'oppbevaring', 'storage', 'hinweis', 'tipp',
  ],
};

/** A heading: short, one of HEADINGS once marks, a colon and a trailing count ("til 4 personer", "(4 servings)") are off. */
function headingOf(line: string): 'ingredients' | 'steps' | 'other' | null {
  if (line.length > 60) return null;
  const bare = line
    .toLowerCase()
    .replace(/^[#*_=\s-]+|[*_=\s]+$/g, '')
    .replace(/\s*[:.]\s*$/, '')
    .replace(/\s*\(.*\)$/, '')
    .replace(/\s+(?:til|for|für|till)\s+\d.*$|\s*\d+\s*(?:porsjoner|personer|servings|portionen|portioner|pers\.?)$/, '')
    .replace(/[*_:]+$/, '')
    .trim();
  for (const kind of ['ingredients', 'steps', 'other'] as const) if (HEADINGS[kind].includes(bare)) return kind;
  return null;
}

const JUNK = [
  /^(?:print|skriv ut|utskrift|jump to recipe|hopp til oppskrift|pin(?: it)?|save|lagre|share|del|dele|annonse|annonsørinnhold|advertisement|ad|reklame|sponset|rate this recipe|gi karakter|vurder oppskriften|email|e-post|facebook|twitter|instagram|pinterest|whatsapp|kopier lenke|copy link|les mer|read more|vis mer|show more|logg inn|log in|sign up|subscribe|abonner)$/i,
  /^(?:from|fra|från|von|to|til|an|subject|emne|ämne|betreff|date|dato|datum|sent|sendt|cc|reply-to|svar til):\s/i,
  /^(?:fwd?|vs|sv|re|aw|wg):\s/i,
  /^(?:-{2,}|_{2,}|={2,}).*(?:original message|opprinnelig melding|forwarded message|videresendt melding|ursprüngliche nachricht|-{2,}|_{2,}|={2,})$/i,
  /^https?:\/\/\S+$|^www\.\S+$/i,
  /^(?:foto|photo|bilde|bild|image|kilde|source|quelle|oppskrift fra|recipe from|recipe by|av|by):\s?\S.{0,80}$/i,
  /^[★☆✩✪⭐\s\d.,/()]+$|^\d+(?:[.,]\d)?\s*(?:\/\s*5|stars?|stjerner)\b.*$|^\(?\d+\s+(?:reviews?|vurderinger|anmeldelser|kommentarer|comments|ratings?)\)?$/i,
];
/** The end of a letter: what follows is its signature, not the recipe. */
const SIGN_OFF = /^(?:hilsen|mvh|med vennlig hilsen|vennlig hilsen|klem|klemmer|best regards|regards|cheers|love|kind regards|best|vänliga hälsningar|hälsningar|kram|liebe grüße|viele grüße)\b[\s,!.]*$|^(?:sent from my|sendt fra min|skickat från min|sendt fra|von meinem) /i;

function kindOf(line: string): Kind {
  if (line === '') return 'blank';
  const heading = headingOf(line);
  if (heading) return heading;
  if (SIGN_OFF.test(line)) return 'other';
  if (!/[\p{L}\p{N}]/u.test(line) || JUNK.some((re) => re.test(line))) return 'junk';
  return 'text';
}

/** The lines of each part; each line is read once, in order. */
function sectionsOf(lines: readonly string[], kinds: readonly Kind[], used: readonly boolean[], titleAt: number) {
  const ingredientLines: string[] = [];
  const stepLines: string[] = [];
  /** Lines before any heading (after the title), each with the blank-line block it belongs to. */
  const loose: { line: string; block: number }[] = [];
  let section: Kind | null = null;
  let block = 0;
  const hasIngredientHeading = kinds.includes('ingredients');
  const hasStepHeading = kinds.includes('steps');
  for (let i = 0; i < lines.length; i++) {
    const kind = kinds[i]!;
    if (kind === 'blank') block++;
    if (kind === 'ingredients' || kind === 'steps' || kind === 'other') section = kind;
    if (kind !== 'text' || used[i] === true || i === titleAt) continue;
    const line = lines[i]!;
    if (section === 'ingredients') {
      // A list under its heading, then the steps without one: the first sentence starts them.
      if (!hasStepHeading && isSentence(line)) section = 'steps';
      else {
        ingredientLines.push(unbullet(line));
        continue;
      }
    }
    if (section === 'steps') stepLines.push(line);
    else if (section === null) loose.push({ line, block });
  }
  if (!hasIngredientHeading) {
    const split = splitLoose(loose, hasStepHeading);
    ingredientLines.push(...split.ingredients.map(unbullet));
    stepLines.unshift(...split.steps);
  }
  return { ingredientLines: ingredientLines.filter((l) => l !== ''), stepLines };
}

const BULLET = /^(?:[-–—•·*+▪▫◦‣⁃○●□■☐☑✓✔▢>]|\[[ xX]?\])\s*/;
const unbullet = (line: string) => line.replace(BULLET, '').trim();
const STEP_NUMBER = /^(?:(?:steg|step|trinn|punkt|schritt|steg nr\.?)\s*\d{1,3}\s*[:.)-]?|\d{1,3}\s*[.)]|\(\d{1,3}\))(?:\s+|$)/i;

/** A line with an amount at its start, short: an ingredient line by its look. */
function looksLikeIngredient(line: string): boolean {
  const bare = unbullet(line);
  if (bare.length > 90 || STEP_NUMBER.test(bare) || /[.!?]$/.test(bare)) return false;
  if (/^(?:ca\.?|ca|about|omtrent|approx\.?|circa)?\s*(?:\d|[½⅓⅔¼¾⅛])/i.test(bare)) return true;
  const parsed = parseIngredientLine(bare);
  return parsed.quantity !== null && bare.split(' ').length <= 8;
}

/** A sentence of a step by its look: numbered, or several words ending as a sentence, or long. */
function isSentence(line: string): boolean {
  const bare = unbullet(line);
  if (STEP_NUMBER.test(bare) && !/^\d{1,3}[.,]\d/.test(bare)) return true;
  const words = bare.split(' ').length;
  return (words >= 5 && /[.!?]["”»)]?$/.test(bare)) || words >= 14;
}

/**
 * Lines under no heading: [introduction][ingredients][steps], split where the fewest lines are on a side they do not
 * look like. A line that looks like neither, in a block (blank lines part them) after the last one with an amount,
 * leans to the steps: short steps without a full stop ("Brun kjøttet") in a block of their own are steps, while
 * "Salt og pepper" ending the list stays in it. With a steps heading further down, all of them after the introduction are ingredients.
 */
function splitLoose(loose: readonly { line: string; block: number }[], stepsFollow: boolean): { ingredients: string[]; steps: string[] } {
  const lines = loose.map((l) => l.line);
  const n = lines.length;

  const ing = lines.map(looksLikeIngredient);
  const sen = lines.map(isSentence);
  // cost(a, k): ingredient-like lines in the introduction [0, a), sentences among the ingredients [a, k),
  // ingredient-like lines among the steps [k, n).
  const prefix = (flags: readonly boolean[]) => {
    const sums = [0];
    for (const f of flags) sums.push(sums[sums.length - 1]! + (f ? 1 : 0));
    return sums;
  };
  const pi = prefix(ing);
  const ps = prefix(sen);
  const lastListBlock = Math.max(-1, ...loose.filter((_, i) => ing[i]).map((l) => l.block));
  const pl = prefix(loose.map((l, i) => !ing[i] && !sen[i] && l.block > lastListBlock));
  let best = { cost: Infinity, a: 0, k: stepsFollow ? n : 0 };
  for (let k = stepsFollow ? n : 0; k <= n; k++) {
    for (let a = 0; a <= k; a++) {
      const cost = pi[a]! + (ps[k]! - ps[a]!) + (pl[k]! - pl[a]!) / 2 + (pi[n]! - pi[k]!);
      // Ties: the longer list of ingredients, then the shorter introduction.
      if (cost < best.cost || (cost === best.cost && k - a > best.k - best.a)) best = { cost, a, k };
    }
    if (n > 400) break; // a quadratic split on a huge paste is not worth it: everything is a step
  }
  if (n > 400 && !stepsFollow) return { ingredients: [], steps: [...lines] };
  return { ingredients: lines.slice(best.a, best.k), steps: lines.slice(best.k) };
}

/** Steps without their numbers and bullets; a step wrapped over lines is joined again. */
function stepsOf(lines: readonly string[]): string[] {
  const numbered = lines.some((l) => STEP_NUMBER.test(unbullet(l)));
  const steps: string[] = [];
  let open = false;
  for (const raw of lines) {
    const startsNumbered = STEP_NUMBER.test(unbullet(raw));
    const line = unbullet(raw).replace(STEP_NUMBER, '').trim();
    const last = steps.length - 1;
    const runsOn = last >= 0 && open && !startsNumbered && (numbered || (!/[.!?:)"”]$/.test(steps[last]!) && /^\p{Ll}/u.test(line)));
    if (runsOn) steps[last] = `${steps[last]} ${line}`.trim();
    else steps.push(line);
    open = true;
  }
  return steps.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/**
 * The title's line: the first line of text that reads as a name (not a sentence, not an amount) before the
 * ingredients start; else the first line of text.
 */
function titleOf(lines: readonly string[], kinds: readonly Kind[], used: readonly boolean[]): number {
  const candidates = lines.map((_, i) => i).filter((i) => kinds[i] === 'text' && used[i] !== true);
  const end = kinds.findIndex((k, i) => k === 'ingredients' || k === 'steps' || (k === 'text' && used[i] !== true && looksLikeIngredient(lines[i]!)));
  const named = candidates.find((i) => (end < 0 || i < end) && lines[i]!.length <= 100 && !isSentence(lines[i]!) && !/[.!?]$/.test(lines[i]!));
  return named ?? candidates[0] ?? -1;
}

const cleanTitle = (line: string) => line.replace(/^[#*_=\s]+|[*_=\s]+$/g, '').replace(/\s*[:]$/, '').trim();
const firstWords = (line: string) => line.split(' ').slice(0, 8).join(' ');

interface Meta {
  /** Lines read as servings or time, by index: not a title, an ingredient or a step. */
  readonly used: boolean[];
  yields: string | null;
  servings: number | null;
  totalMinutes: number | null;
  activeMinutes: number | null;
}

const SERVINGS_LABEL = /^(?:porsjoner|porsjon|antall porsjoner|antall|personer|portioner|portionen|serves|servings|serving|yield|yields|makes|gir|til|for|für|till|räcker till|rekker til|mengde)\b\s*:?\s*/i;
const SERVINGS_UNIT = /^(\d{1,3})(?:\s*[-–]\s*\d{1,3})?\s*(?:porsjoner|porsjon|pors\.?|personer|person|pers\.?|portioner|portion|portionen|personen|servings|serving|people|persons)\b(?=.{0,20}$)/i;

/** The servings a short line says, 1..100 ("4 porsjoner", "Serves 4", "Til 4 personer", "Porsjoner: 4"), or null. */
function servingsIn(line: string, inHeading = false): number | null {
  const bare = line.replace(/^[#*_\s-]+|[*_\s]+$/g, '');
  if (bare.length > 50 && !inHeading) return null;
  let m = SERVINGS_UNIT.exec(bare);
  if (!m) {
    const label = SERVINGS_LABEL.exec(bare);
    // "Porsjoner: 4", "Makes 2 pizzas", "Serves 4 people": a number and at most two words after it.
    if (label) m = /^(\d{1,3})(?:\s*[-–]\s*\d{1,3})?(?:\s+[\p{L}.]+){0,2}\s*\.?$/iu.exec(bare.slice(label[0].length));
  }
  if (!m && inHeading) m = /(?:til|for|für|till|\()\s*(\d{1,3})\b/i.exec(bare);
  const n = m ? Number(m[1]) : NaN;
  return n >= 1 && n <= 100 ? n : null;
}

const TOTAL_LABELS = ['total', 'totalt', 'total tid', 'tid totalt', 'tid', 'tidsbruk', 'time', 'total time', 'ready in', 'klar på', 'gesamtzeit', 'zeit', 'dauer', 'tid i alt', 'total tid i alt'];
const ACTIVE_LABELS = ['forberedelse', 'forberedelsestid', 'forberedning', 'aktiv tid', 'arbeidstid', 'prep', 'prep time', 'preparation time', 'active time', 'hands-on time', 'zubereitungszeit', 'arbeitszeit', 'förberedelse', 'forberedelser'];
const COOK_LABELS = ['tilberedning', 'tilberedningstid', 'tillagning', 'tillagningstid', 'koketid', 'steketid', 'baketid', 'cook time', 'cooking time', 'bake time', 'baking time', 'kochzeit', 'backzeit', 'garzeit'];
/** Longest first, so that "Total time" is not read as "Total" followed by "time". */
const alternatives = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length).join('|');
const TIME_LABEL = new RegExp(`^(?:(${alternatives(TOTAL_LABELS)})|(${alternatives(ACTIVE_LABELS)})|(${alternatives(COOK_LABELS)}))\\b\\s*:?\\s*`, 'i');
const HOURS = String.raw`(?:t|time|timer|timar|timme|timmar|h|hr|hrs|hour|hours|std\.?|stunde|stunden|tim)`;
const MINUTES = String.raw`(?:m|min\.?|mins|minutt|minutter|minuter|minutes|minute|minuten)`;
const DURATION = new RegExp(String.raw`^(?:ca\.?|ca|about|omtrent|cirka|circa|approx\.?|under|ungefär|etwa)?\s*(?:(\d{1,3}(?:[.,]5)?|en|ei|one|an|ein|eine|1\/2|½|halv)\s*${HOURS}\b)?\s*(?:og|and|och|und|&)?\s*(?:(\d{1,4})\s*${MINUTES}(?![\p{L}]))?\s*\.?$`, 'iu');

/** Minutes a duration says ("45 min", "1 t 15 min", "ca. 1 time", "1,5 timer"), or null. */
function minutesIn(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  const word = (m[1] ?? '').toLowerCase();
  const hours = m[1] === undefined ? 0 : ['en', 'ei', 'one', 'an', 'ein', 'eine'].includes(word) ? 1 : ['1/2', '½', 'halv'].includes(word) ? 0.5 : Number(word.replace(',', '.'));
  const total = Math.round(hours * 60 + Number(m[2] ?? 0));
  return total > 0 && total <= 10_080 ? total : null;
}

/** The servings and times the text states on lines of their own (or parts of one: "4 porsjoner | 45 min"). */
function metaOf(lines: readonly string[]): Meta {
  const meta: Meta = { used: lines.map(() => false), yields: null, servings: null, totalMinutes: null, activeMinutes: null };
  let cook: number | null = null;
  lines.forEach((line, i) => {
    if (line.length > 120 || headingOf(line) !== null) return;
    const parts = line.split(/\s+[|•·–—]\s+|\s*\|\s*/).map((p) => p.replace(/^[#*_\s-]+|[*_\s]+$/g, ''));
    let read = 0;
    for (const part of parts) {
      const servings = servingsIn(part);
      if (servings !== null) {
        if (meta.servings === null) [meta.servings, meta.yields] = [servings, part.slice(0, MAX.yields)];
        read++;
        continue;
      }
      const label = TIME_LABEL.exec(part);
      const minutes = minutesIn(label ? part.slice(label[0].length) : part);
      if (minutes === null) continue;
      read++;
      if (label?.[2] !== undefined) meta.activeMinutes ??= minutes;
      else if (label?.[3] !== undefined) cook ??= minutes;
      else meta.totalMinutes ??= minutes;
    }
    if (read > 0 && read === parts.length) meta.used[i] = true;
  });
  if (meta.totalMinutes === null && (cook !== null || meta.activeMinutes !== null)) meta.totalMinutes = (cook ?? 0) + (meta.activeMinutes ?? 0);
  return meta;
}
