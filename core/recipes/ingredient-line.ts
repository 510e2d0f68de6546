import { normalizeFoodKey } from '../kernel/food-key.js';
import { canonicalUnit, convert, PIECE_UNIT, type CanonicalUnit } from '../food/units.js';
import { RECIPE_LIMITS } from './types.js';

/**
 * Reading one line of a recipe page's ingredient list ("2 dl fløte", "1 1/2 cups flour, sifted", "Salt og pepper")
 * into amount, unit and food, so that imported dishes shop and feed the pantry like typed ones. Pure.
 *
 * Unlike a shopping-list line (core/shopping/amounts.ts), a recipe line is written for a cook: ranges, foreign
 * measures, notes and "to taste" are common, so the parser says what it had to guess (`flags`, `confidence`: high
 * when an amount and a food were read plainly, medium when a flag in GUESSES was raised, low when no amount was
 * read or the line was kept whole) and the import can ask a person to look at the doubtful lines.
 *
 * - Amounts: 2, 1,5 and 1.5, 1/2, 1 1/2, ½ and 1½, "1 000". A range (2-3, 2–3, 2 til/to/or 3) takes the upper
 *   value, so the list buys enough. "2 x 400 g" is 800 g; "1 ss + 1 ts" is one amount in the first unit. A leading
 *   article or number word ("an onion", "en", "ein", "een", "to", "halvannen") is a number.
 * - Units: the shopping list's aliases and the recipe words it lacks (msk/tsk, EL/TL, el/tl, spsk, krm, Dose, blik,
 *   beger, pose). American measures have a fixed size, so they become metric ('converted', 2 decimals): cup
 *   2.37 dl, oz 28.35 g, lb 453.6 g, fl oz 29.57 ml, pint 4.73 dl, quart 0.946 l. "100g/3½oz" reads once.
 * - A count without a unit is in pcs. A measure with no size (fedd, clove, teentje, slice, sprig, glass) is counted
 *   in pcs but stays in the name ('unknown_unit'): "2 fedd hvitløk" as 2 pcs "hvitløk" would buy two heads.
 * - A pinch, dash, handful or "litt" has no size anyone shops by, and downstream a quantity without a unit counts
 *   as pieces; so quantity and unit are null and the words go to the note ('vague_amount'), even after an article
 *   or a number: "a pinch of salt" is salt with the note "a pinch".
 * - A size after the amount ("1 stor løk", "2 large eggs", "1 toppet ss") goes to the note ('size'), so the food
 *   keeps the key the pantry knows ("løk", not "stor løk").
 * - A package after a measure ("400g can", "2 x 400g tins") is the unit, its size the note ('pack_size'), as in
 *   "1 boks tomater (400 g)". An amount after the food ("Kjøttdeig 400 g", "Mel (ca. 5 dl)") counts ('amount_after').
 * - Brackets, text after a comma or spaced dash, an alternative ("eller 1/2 ts ...") and a use ("til steking",
 *   "to serve") are the note. "(valgfritt)", "optional", "evt." make the line optional. "to taste"/"etter smak",
 *   and salt and pepper without an amount, are 'to_taste'. "ca.", "about", "omtrent" are dropped ('approximate').
 * - Nothing is guessed at beyond these: a line whose amount cannot be read is kept whole as the name, quantity and
 *   unit null ('unparsed'). A line with no letter or digit is 'not_an_ingredient'; "Til sausen:" is a 'heading'.
 *   Whenever quantity is null, so is unit; 'no_quantity' says so.
 */
export interface ParsedIngredientLine {
  readonly original: string;
  readonly displayName: string;
  readonly quantity: number | null;
  readonly unit: CanonicalUnit | null;
  readonly note: string | null;
  readonly optional: boolean;
  readonly confidence: 'high' | 'medium' | 'low';
  readonly flags: readonly string[];
}

const VULGAR: Readonly<Record<string, string>> = {
  '½': '1/2', '⅓': '1/3', '⅔': '2/3', '¼': '1/4', '¾': '3/4', '⅕': '1/5', '⅖': '2/5', '⅗': '3/5', '⅘': '4/5',
  '⅙': '1/6', '⅚': '5/6', '⅛': '1/8', '⅜': '3/8', '⅝': '5/8', '⅞': '7/8',
};

const words = (s: string): readonly string[] => s.split(' ');
const RECIPE_UNITS: ReadonlyMap<string, { readonly unit: CanonicalUnit; readonly factor: number }> = new Map(
  (
    [
      ['tbsp', 1, 'msk matsked matskedar spsk el esslöffel eetlepel eetlepels tbsps tblsp tbl'],
      ['tsp', 1, 'tsk tesked teskedar teske tl teelöffel theelepel theelepels tsps'],
      ['ml', 1, 'krm kryddmått'],
      ['pcs', 1, 'stuk stuks stück stck'],
      ['bx', 1, 'dåse dåser burk burkar dose dosen blik blikken blikje'],
      ['pk', 1, 'pose poser bag bags beger tub tubs tube jar jars pakning paket förp förpackning packung pck pkg päckchen pak pakje pakjes zak zakje'],
      ['bunt', 1, 'knippe bund bos bosje'],
      ['fl', 1, 'flaska flaskor flasche fles'],
      ['dl', 2.37, 'cup cups c'],
      ['g', 28.35, 'oz ounce ounces'],
      ['g', 453.6, 'lb lbs pound pounds'],
      ['ml', 29.57, 'fl oz|fluid ounce|fluid ounces'],
      ['dl', 4.73, 'pint pints pt'],
      ['l', 0.946, 'quart quarts qt'],
      ['pcs', 12, 'dozen'],
    ] as const
  ).flatMap(([unit, factor, list]) => (list.includes('|') ? list.split('|') : words(list)).map((w) => [w, { unit, factor }] as const)),
);
/** Measures without a size: counted in pcs, kept in the name. */
const SIZELESS = new Set(words('fedd clove cloves teentje teentjes teen tenen klyfta klyftor fed zehe zehen skive skiver slice slices skiva skivor scheibe scheiben plak plakjes kvist kvister sprig sprigs kvistar takje takjes zweig zweige stilk stilker stjelk stjelker stalk stalks glass glas kopp kopper head heads hode hoder blad leaf leaves stick sticks rasher rashers'));
/** Amounts no one shops by. */
const VAGUE = new Set(words('klype klyper knivsodd knivspiss pinch pinches dash dashes splash drizzle knob handful handfuls håndfull håndfuller neve never skvett dæsj nypa nypor knivsudd knivspets knivspids prise msp messerspitze snufje snufjes mespunt mespuntje scheutje schuss handvoll handvol'));
const SIZES = new Set(words('stor store stort liten lita lite lille små middels middelsstor middelsstore mellomstor mellomstore large small medium big jumbo medium-sized stora medelstor medelstora mellemstor mellemstore grote groot kleine klein middelgrote große großer großes groß kleiner kleines mittelgroße mittelgroßer heaped heaping level rounded toppet toppede strøken struken rågad gestrichener gehäufter god gode godt good generous'));
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...words('a an en én ei et ett one een ein eine einen').map((w) => [w, 1] as const),
  ...words('to tre fire fem seks sju åtte ni ti elleve tolv').map((w, i) => [w, i + 2] as const),
  ...words('two three four five six seven eight nine ten eleven twelve').map((w, i) => [w, i + 2] as const),
  ['syv', 7], ['en halv', 0.5], ['ei halv', 0.5], ['et halvt', 0.5], ['ett halvt', 0.5], ['half a', 0.5], ['half an', 0.5],
  ['a half', 0.5], ['halvannen', 1.5], ['halvanden', 1.5], ['a dozen', 12],
]);
/** Salt and pepper without an amount are seasoning "to taste", however the line words them. */
const SEASONING = new Set(words('salt pepper og and & och und en peber peppar pfeffer salz zout peper sort svart black white hvit kvernet nykvernet freshly fresh ground sea havsalt flaksalt kosher flaky malt nymalt grovmalt frisch gemahlener zwart versgemalen'));

/** Thousands spaced ("1 000 g"), mixed fraction, fraction, decimal or whole. */
const NUM = String.raw`\d{1,3}(?: \d{3})+(?= ?[a-zA-Z])|\d+ \d+/\d+|\d+/\d+|\d+(?:[.,]\d+)?`;
const LEAD = new RegExp(String.raw`^(${NUM})(?:(?:\s*[-–—]\s*|\s+(?:til|to|till|tot|bis|à|or|eller)\s+)(${NUM}))?`);
const TIMES = new RegExp(String.raw`^\s*[x×]\s*(${NUM})`);
const APPROX = /^(?:(?:ca|approx)\.\s*|~\s*|(?:ca|cirka|circa|omtrent|omkring|about|approx|approximately|around|roughly|ungefär|ongeveer|etwa|ungefähr)\s+)/i;
const VAGUE_LEAD = /^(?:a little(?: bit of)?|a bit of|a few|a couple of|some|litt|noe|noen|et par|ett par|lite|wat|etwas)\s+/i;
const TOKEN = /^(\s*)(fl\.? ?oz\.?|fluid ounces?|[\p{L}-]+\.?)(?=[\s,;:/]|$)/iu;
/** "100g/3½oz", "200 ml/7 fl oz": the same amount again in other units. */
const SAME_AMOUNT = new RegExp(String.raw`^\s*/\s*(?:${NUM})\s*(?:fl\.? ?oz\.?|\p{L}+\.?)(?=[\s,;:]|$)`, 'u');
const CONNECTOR = /^\s*(?:of|av|med|van)\s+/i;
const TO_TASTE = String.raw`(?:to taste|etter smak|efter smak|efter smag|naar smaak|nach geschmack|nach belieben|as needed|etter behov|ved behov)`;
const TO_TASTE_IN_TEXT = new RegExp(String.raw`(?:^|[,\s]+)(?:(?:or|eller)\s+)?${TO_TASTE}(?=$|[\s,.;:])`, 'i');
const TO_TASTE_NOTE = new RegExp(String.raw`^(?:(?:or|eller)\s+)?${TO_TASTE}$`, 'i');
const OPTIONAL_NOTE = /^(?:valgfritt|valgfri|valfritt|valgfrit|optional|optioneel|if desired|if you like|if using|kan sløyfes|kan utelates|evt\.?|eventuelt|etter ønske|naar wens)$/i;
const OPTIONAL_LEAD = /^(?:evt\.?|ev\.|eventuelt|eventuellt|evtl\.|eventueel|optional:?|valgfritt:|valfritt:)\s+/i;
const PURPOSE_LEAD = /^(to serve|to garnish|til servering|til pynt|for serving|for garnish)\s*:\s*/i;
const PURPOSE_END = /\s+((?:til|for|to|zum)\s+(?:steking|stekning|servering|pynt|pensling|frying|serving|garnish|greasing|dusting|serve|decorate|drizzling|braten|servieren))$/i;
const PACK_SIZE_END = /\s+[àá]\s+(\d[\d.,/ ]*\s*\p{L}+\.?)$/u;
const PART_OF = /^((?:finely )?(?:grated )?(?:juice|zest|juice and zest|zest and juice|saft|saften|skall|skallet|revet skall|saft og (?:revet )?skall|revet skall og saft))\s+(?:of|av|fra)\s+(?=\S)/i;
const BOUND_ADJECTIVES = /^(?:(?:boneless|skinless|benfri|skinnfri)\s*)+$/i;
const PACKAGES: ReadonlySet<CanonicalUnit> = new Set(['pk', 'bx', 'fl']);
/** Flags that mean the parser chose between readings; they make a line 'medium'. */
const GUESSES = new Set(['range', 'converted', 'approximate', 'note_split', 'unknown_unit', 'vague_amount', 'multiplied', 'pack_size', 'amount_after', 'sum', 'part_of', 'truncated']);

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();
const trimEnds = (s: string): string => s.replace(/^[\s,;:.–—-]+|[\s,;:.–—-]+$/g, '');
const tidy = (n: number): number => Number(n.toPrecision(12));
const twoDecimals = (n: number): number => Math.round(tidy(n * 100)) / 100;

function numberOf(text: string): number {
  if (/^\d{1,3}(?: \d{3})+$/.test(text)) return Number(text.replace(/ /g, ''));
  const mixed = /^(\d+) (\d+)\/(\d+)$/.exec(text);
  if (mixed) return Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]);
  const fraction = /^(\d+)\/(\d+)$/.exec(text);
  if (fraction) return Number(fraction[1]) / Number(fraction[2]);
  return Number(text.replace(',', '.'));
}

function unitOf(token: string): { unit: CanonicalUnit; factor: number } | null {
  const unit = canonicalUnit(token);
  if (unit !== null) return { unit, factor: 1 };
  return RECIPE_UNITS.get(clean(token.toLowerCase().replace(/\./g, ' '))) ?? null;
}

const bare = (token: string): string => token.toLowerCase().replace(/\.$/, '');

interface Amount {
  readonly quantity: number | null;
  readonly unit: CanonicalUnit | null;
  readonly rest: string;
  readonly flags: readonly string[];
  readonly notes: readonly string[];
  /** A digit or a number word was read (even if a pinch then made the quantity null). */
  readonly numeric: boolean;
}

/** The amount at the start of `text`; null when there is none, 'invalid' when one is there but cannot be taken. */
function readAmount(text: string): Amount | null | 'invalid' {
  const flags: string[] = [];
  const notes: string[] = [];
  const vagueLead = VAGUE_LEAD.exec(text);
  if (vagueLead) return { quantity: null, unit: null, rest: text.slice(vagueLead[0].length).replace(CONNECTOR, ''), flags: ['vague_amount'], notes: [vagueLead[0].trim()], numeric: false };
  const approx = APPROX.exec(text);
  // "a 400g can": the article counts the can, which the pack size below already does
  let s = (approx ? text.slice(approx[0].length) : text).replace(/^(?:a|an|en|ei|et|ett|one)\s+(?=\d)/i, '');
  let value: number | null = null;
  const lead = LEAD.exec(s);
  if (lead) {
    value = numberOf(lead[2] ?? lead[1] ?? '');
    if (lead[2] !== undefined) flags.push('range');
    s = s.slice(lead[0].length);
  } else {
    const w = words(s);
    const n = [2, 1].find((k) => w.length > k && NUMBER_WORDS.has(w.slice(0, k).join(' ').toLowerCase()));
    if (n !== undefined) {
      value = NUMBER_WORDS.get(w.slice(0, n).join(' ').toLowerCase()) ?? null;
      flags.push('number_word');
      s = ' ' + w.slice(n).join(' ');
    } else if (!VAGUE.has(bare(TOKEN.exec(s)?.[2] ?? ''))) {
      return null;
    }
  }
  if (approx && value !== null) flags.push('approximate');
  const times = TIMES.exec(s);
  const packSize = times ? numberOf(times[1] ?? '') : null;
  if (times) s = s.slice(times[0].length);
  else if (lead) s = s.replace(/^\s*[x×](?=\s)/, ''); // "2 x egg": a count
  const size = /^\s+((?:extra[- ])?([\p{L}-]+))(?=\s)/u.exec(s);
  if (size && SIZES.has((size[2] ?? '').toLowerCase())) {
    notes.push(size[1] ?? '');
    flags.push('size');
    s = s.slice(size[0].length);
  }
  const token = TOKEN.exec(s);
  const word = token?.[2] ?? '';
  const glued = token !== null && token[1] === '' && s !== '';
  if (VAGUE.has(bare(word))) {
    const after = s.slice(token?.[0].length ?? 0);
    const said = clean(text.slice(0, text.length - after.length));
    return { quantity: null, unit: null, rest: after.replace(CONNECTOR, ''), flags: [...flags.filter((f) => f !== 'size'), 'vague_amount'], notes: [said], numeric: value !== null };
  }
  if (value === null) return null;
  let measure = token && !SIZELESS.has(bare(word)) ? unitOf(word) : null;
  if (glued && measure === null) return lead ? 'invalid' : null; // "7up", "3egg": letters glued to a number that are not a unit
  if (measure === null) {
    if (SIZELESS.has(bare(word))) flags.push('unknown_unit');
  } else {
    s = s.slice(token?.[0].length ?? 0).replace(SAME_AMOUNT, '');
    const pack = TOKEN.exec(s);
    const packUnit = pack ? unitOf(pack[2] ?? '') : null;
    if (packUnit !== null && PACKAGES.has(packUnit.unit) && !PACKAGES.has(measure.unit)) {
      // "400g can chickpeas", "2 x 400 g tins": a count of packages, the size of one in the note (like "1 boks (400 g)")
      notes.push(clean(`${packSize === null ? lead?.[0] ?? '' : times?.[1] ?? ''}${token?.[0] ?? ''}`));
      if (packSize === null) value = 1;
      flags.push('pack_size');
      measure = packUnit;
      s = s.slice(pack?.[0].length ?? 0);
    } else if (packSize !== null) {
      value *= packSize;
      flags.push('multiplied');
    }
    if (measure.factor !== 1) flags.push('converted');
    s = s.replace(CONNECTOR, ' ');
  }
  if (measure === null && packSize !== null) return 'invalid';
  const quantity = measure !== null && measure.factor !== 1 ? twoDecimals(value * measure.factor) : tidy(value);
  if (!Number.isFinite(quantity) || quantity <= 0 || quantity > RECIPE_LIMITS.quantityMax) return 'invalid';
  return { quantity, unit: measure?.unit ?? PIECE_UNIT, rest: s, flags, notes, numeric: true };
}

const isSeasoning = (food: string): boolean => {
  const ws = food.toLowerCase().split(/[\s,]+/).filter((w) => w !== '');
  return ws.length > 0 && ws.every((w) => SEASONING.has(w)) && ws.some((w) => /salt|salz|zout|pep|peb|pfeffer/.test(w));
};

function keepWhole(original: string, flags: readonly string[]): ParsedIngredientLine {
  return finish({ original, name: clean(original), quantity: null, unit: null, notes: [], optional: false, flags: new Set(flags), numeric: false });
}

interface Draft {
  readonly original: string;
  name: string;
  quantity: number | null;
  unit: CanonicalUnit | null;
  readonly notes: string[];
  optional: boolean;
  readonly flags: Set<string>;
  numeric: boolean;
}

function finish(d: Draft): ParsedIngredientLine {
  let name = d.name;
  if (name.length > RECIPE_LIMITS.displayNameMax) {
    name = name.slice(0, RECIPE_LIMITS.displayNameMax).trimEnd();
    d.flags.add('truncated');
  }
  if (d.quantity === null) d.flags.add('no_quantity');
  const flags = [...d.flags];
  const low = flags.some((f) => f === 'unparsed' || f === 'not_an_ingredient' || f === 'heading') || (d.quantity === null && !d.numeric);
  const confidence = low ? 'low' : flags.some((f) => GUESSES.has(f)) ? 'medium' : 'high';
  const note = d.notes.filter((n) => n !== '').join(', ');
  return { original: d.original, displayName: name, quantity: d.quantity, unit: d.quantity === null ? null : d.unit, note: note === '' ? null : note, optional: d.optional, confidence, flags };
}

/** A bracket or comma part: an optional or to-taste marker is noted on the draft, anything else is a note. */
function noteOrMarker(d: Draft, raw: string, into: string[]): boolean {
  const t = trimEnds(clean(raw));
  if (t === '') return false;
  if (OPTIONAL_NOTE.test(t)) d.optional = true;
  else if (TO_TASTE_NOTE.test(t)) d.flags.add('to_taste');
  else return into.push(t) > 0;
  return false;
}

/** The line without decoration, brackets and the words that only qualify it (to serve, to taste, optional, juice of). */
function unwrap(d: Draft, bracketNotes: string[]): string {
  let text = clean(
    d.original
      .replace(/(\d?)\s*([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])/g, (_, whole: string, f: string) => `${whole} ${VULGAR[f] ?? ''}`)
      .replace(/⁄/g, '/')
      .replace(/^\s*(?:[-–—•*·▪▢☐□◦‣]\s*)+/, '')
      .replace(/\s*[([]([^()[\]]*)[)\]]/g, (_, inner: string) => (noteOrMarker(d, inner, bracketNotes), ' ')),
  );
  const purpose = PURPOSE_LEAD.exec(text);
  if (purpose) {
    d.notes.push(purpose[1] ?? '');
    text = text.slice(purpose[0].length);
  }
  if (TO_TASTE_IN_TEXT.test(text)) {
    d.flags.add('to_taste');
    text = clean(text.replace(TO_TASTE_IN_TEXT, ''));
  }
  text = text.replace(OPTIONAL_LEAD, () => ((d.optional = true), ''));
  const part = PART_OF.exec(text);
  if (part) {
    d.notes.push(part[1] ?? '');
    d.flags.add('part_of');
    text = text.slice(part[0].length);
  }
  return text;
}

/** The food from what follows the amount, its notes split off. */
function foodOf(d: Draft, rest: string): string {
  let food = rest
    .replace(OPTIONAL_LEAD, () => ((d.optional = true), ''))
    .replace(/\s+((?:eller|or|alternativt|oder)\s+\d.*)$/i, (_, alternative: string) => `, ${alternative}`); // "1 ts X eller 1/2 ts Y"
  const pieces = isSeasoning(food) ? [food] : food.split(/,(?!\d)|\s+[–—-]\s+/);
  food = pieces.shift() ?? '';
  while (pieces.length > 0 && BOUND_ADJECTIVES.test(food.trim())) food = `${food.trim()}, ${pieces.shift()?.trim() ?? ''}`;
  const later: string[] = [];
  for (const p of pieces) if (noteOrMarker(d, p, later)) d.flags.add('note_split');
  food = trimEnds(food.replace(PACK_SIZE_END, (_, size: string) => (d.notes.push(clean(size)), '')));
  food = trimEnds(food.replace(PURPOSE_END, (_, p: string) => (later.push(p), '')));
  d.notes.push(...later);
  return food;
}

/** An amount with its unit written after the food ("Kyllingfilet 400 g") or as its note ("Mel (ca. 5 dl)"). */
function amountAfter(d: Draft, food: string): string {
  const whole = (n: string): Amount | null => {
    const a = readAmount(n);
    return a !== null && a !== 'invalid' && a.quantity !== null && trimEnds(a.rest) === '' && /\p{L}/u.test(n.replace(APPROX, '')) ? a : null;
  };
  const tail = /^(.*\S)\s+(\d[\d.,/ ]*\s*\p{L}+\.?)$/u.exec(food);
  const inTail = tail ? whole(tail[2] ?? '') : null;
  const i = inTail ? -1 : d.notes.findIndex((n) => whole(n) !== null);
  const a = inTail ?? (i < 0 ? null : whole(d.notes[i] ?? ''));
  if (a === null) return food;
  if (i >= 0) d.notes.splice(i, 1);
  d.quantity = a.quantity;
  d.unit = a.unit;
  d.numeric = true;
  [...a.flags, 'amount_after'].forEach((f) => d.flags.add(f));
  return inTail ? (tail?.[1] ?? food) : food;
}

/** Amount, unit, food and note of one ingredient line of a recipe page; see the module comment for the rules. */
export function parseIngredientLine(line: string): ParsedIngredientLine {
  const original = line.trim();
  if (normalizeFoodKey(original) === '') return keepWhole(original, ['not_an_ingredient']);
  if (/:$/.test(original) && !/\d/.test(original)) return keepWhole(original, ['heading']);
  const d: Draft = { original, name: '', quantity: null, unit: null, notes: [], optional: false, flags: new Set(), numeric: false };
  const bracketNotes: string[] = [];
  const text = unwrap(d, bracketNotes);
  const amount = readAmount(text);
  if (amount === 'invalid' || (amount === null && /^\d/.test(text))) return keepWhole(original, ['unparsed']);
  let rest = text;
  if (amount !== null) {
    ({ quantity: d.quantity, unit: d.unit, numeric: d.numeric, rest } = amount);
    amount.flags.forEach((f) => d.flags.add(f));
    d.notes.push(...amount.notes);
    const plus = /^\s*(?:\+|plus)\s*(?=\d)/i.exec(rest);
    const more = plus ? readAmount(rest.slice(plus[0].length)) : null;
    if (more !== null) {
      // "1 ss + 1 ts olje": one amount, in the first unit; units that do not convert are not added up
      const added = more === 'invalid' || more.quantity === null || d.quantity === null ? null : convert(more.quantity, more.unit ?? '', d.unit ?? '');
      if (added === null || more === 'invalid') return keepWhole(original, ['unparsed']);
      d.quantity = tidy((d.quantity ?? 0) + added);
      d.flags.add('sum');
      rest = more.rest;
    }
  }
  d.notes.push(...bracketNotes);
  let food = foodOf(d, rest);
  if (amount === null) food = amountAfter(d, food);
  if (normalizeFoodKey(food) === '') return keepWhole(original, ['unparsed']);
  if (d.quantity === null && isSeasoning(food)) d.flags.add('to_taste');
  d.name = food;
  return finish(d);
}
