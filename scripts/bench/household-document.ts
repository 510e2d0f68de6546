/**
 * The made household of the bench (scripts/bench/household-size.ts, W10 in scripts/bench/w10-history.ts): years of
 * one household that plans every week, as a household document (what GET .../export writes and POST
 * /api/v1/households/import takes), made from one seed so that every run imports the same household but for ids and
 * the pictures' padding. Its Scale says how large: recipes, weeks, meal events a week, members, pantry observations
 * and the pictures' mean size (0: recipes without pictures). What each part holds is described at makeRecipes and
 * its siblings, and at the top of household-size.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { inspectImage } from '../../adapters/recipe-import/image.js';
import { mulberry32 } from '../../core/kernel/seeded.js';

const KB = 1000;
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------------------------
// Pictures.

/**
 * A baseline JPEG of `width`×`height`, one grey component, every 8×8 block flat (its DC difference 0, then end of
 * block): with one-symbol Huffman tables each block is the two bits 00, so the scan is all zero bytes and needs no
 * stuffing. `padding` bytes go into comment segments before the scan (a comment holds at most 65,533).
 */
function jpeg(width: number, height: number, padding: number): Buffer {
  const segment = (marker: number, body: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  const jfif = segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  const dqt = segment(0xdb, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)]));
  const sof = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  // One code of length 1 ("0") for symbol 0: DC category 0, and AC end of block.
  const table = (classAndId: number) => segment(0xc4, Buffer.concat([Buffer.from([classAndId, 1]), Buffer.alloc(15), Buffer.from([0])]));
  const sos = segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0]));
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan = Buffer.alloc(Math.ceil((blocks * 2) / 8));
  const fixed = 2 + jfif.length + dqt.length + (sof.length + 4) + 2 * table(0).length + sos.length + scan.length + 2;
  const comments: Buffer[] = [];
  // Each comment costs 4 bytes of marker and length besides what it holds.
  for (let left = Math.max(0, padding - fixed); left > 4; ) {
    const size = Math.min(65_533, left - 4);
    comments.push(segment(0xfe, randomBytes(size)));
    left -= size + 4;
  }
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, dqt, segment(0xc0, sof), table(0x00), table(0x10), ...comments, sos, scan, Buffer.from([0xff, 0xd9])]);
}

/**
 * `n` picture sizes in bytes with mean `meanBytes`: the triangular distribution from 0.4 to 2 times the mean with
 * its mode at 0.6 times it (mean (a + b + c) / 3 = the mean), one size at each of n evenly spread quantiles, in
 * a fixed shuffled order (so neighbouring recipes differ as a library's would).
 */
function pictureSizes(n: number, meanBytes: number): number[] {
  const a = 0.4 * meanBytes;
  const b = 2 * meanBytes;
  const c = 0.6 * meanBytes;
  const split = (c - a) / (b - a);
  const quantile = (u: number) => (u < split ? a + Math.sqrt(u * (b - a) * (c - a)) : b - Math.sqrt((1 - u) * (b - a) * (b - c)));
  const sizes = Array.from({ length: n }, (_, i) => Math.round(quantile((i + 0.5) / n)));
  const random = prng(42);
  for (let i = sizes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sizes[i], sizes[j]] = [sizes[j]!, sizes[i]!];
  }
  return sizes;
}

// ---------------------------------------------------------------------------------------------------------------
// The household.

/** The same household from run to run, but for ids and the pictures' padding. */
const prng = mulberry32;

const FOODS = [
  ['kyllingfilet', 'g'], ['kjøttdeig', 'g'], ['laksefilet', 'g'], ['torskefilet', 'g'], ['svinekotelett', 'stk'], ['bacon', 'g'], ['pølser', 'stk'],
  ['reker', 'g'], ['egg', 'stk'], ['melk', 'dl'], ['fløte', 'dl'], ['rømme', 'dl'], ['smør', 'g'], ['revet ost', 'g'], ['parmesan', 'g'],
  ['feta', 'g'], ['mozzarella', 'g'], ['yoghurt naturell', 'dl'], ['potet', 'g'], ['søtpotet', 'g'], ['gulrot', 'stk'], ['løk', 'stk'],
  ['rødløk', 'stk'], ['hvitløk', 'fedd'], ['purre', 'stk'], ['sellerirot', 'g'], ['brokkoli', 'g'], ['blomkål', 'g'], ['paprika', 'stk'],
  ['tomat', 'stk'], ['cherrytomater', 'g'], ['agurk', 'stk'], ['salat', 'stk'], ['spinat', 'g'], ['squash', 'stk'], ['aubergine', 'stk'],
  ['sopp', 'g'], ['mais', 'g'], ['erter', 'g'], ['kikerter', 'g'], ['kidneybønner', 'g'], ['linser', 'g'], ['ris', 'g'], ['pasta', 'g'],
  ['spaghetti', 'g'], ['nudler', 'g'], ['tortillalefser', 'stk'], ['hvetemel', 'dl'], ['havregryn', 'dl'], ['brød', 'stk'], ['hermetiske tomater', 'boks'],
  ['tomatpuré', 'ss'], ['kokosmelk', 'boks'], ['buljong', 'terning'], ['soyasaus', 'ss'], ['olivenolje', 'ss'], ['rapsolje', 'ss'], ['sitron', 'stk'],
  ['lime', 'stk'], ['ingefær', 'g'], ['chili', 'stk'], ['koriander', 'bunt'], ['persille', 'bunt'], ['basilikum', 'bunt'], ['dill', 'bunt'],
  ['salt', 'ts'], ['pepper', 'ts'], ['paprikapulver', 'ts'], ['spisskummen', 'ts'], ['karri', 'ts'], ['oregano', 'ts'], ['kanel', 'ts'],
  ['sukker', 'ss'], ['honning', 'ss'], ['sennep', 'ss'], ['majones', 'ss'], ['pesto', 'ss'], ['eple', 'stk'], ['banan', 'stk'], ['bringebær', 'g'],
] as const;
const DISHES = ['gryte', 'suppe', 'ovnsbakt', 'wok', 'taco', 'pasta', 'salat', 'burger', 'pai', 'lasagne', 'curry', 'grateng', 'frikassé', 'pizza', 'risotto', 'fiskekaker'];
const WORDS = ['med', 'og', 'i', 'på', 'til', 'fra', 'uten'];
const STEP_PARTS = [
  'Skrell og hakk løken fint, og fres den myk i litt olje i en stor panne på middels varme',
  'Skjær kjøttet i strimler og brun det godt i flere omganger, så det ikke koker i sin egen væske',
  'Tilsett hvitløk og krydder, og la det surre et minutt til det dufter',
  'Hell over tomatene og buljongen, rør godt om og la det småkoke under lokk i 20 minutter',
  'Kok pastaen i rikelig med saltet vann etter anvisningen på pakken, og ta vare på en kopp av kokevannet',
  'Smak til med salt, pepper og litt sitronsaft, og tilsett mer væske om sausen blir for tykk',
  'Forvarm ovnen til 200 grader, og legg grønnsakene utover et stekebrett med bakepapir',
  'Vend inn fløten og osten, og la det hele få et oppkok før du tar kjelen av platen',
  'Server med ris eller godt brød, og dryss over frisk urter rett før servering',
  'La retten hvile i fem minutter før den skjæres opp, så holder den seg saftig',
];

export interface Size {
  /** Bytes of the pictures in the document, as base64. */
  pictures: number;
  /** Bytes of the pictures themselves. */
  pictureBytes: number;
  /** The UTF-8 bytes of each part of the document, and their characters (what JSON.stringify has to hold). */
  parts: Record<string, { bytes: number; chars: number }>;
  total: number;
  totalChars: number;
}

/** How large the made household is. Its parts are made in memory (all but the recipes' picture data, which is made as it is written). */
export interface Scale {
  recipes: number;
  weeks: number;
  eventsPerWeek: number;
  /** The pictures' mean size in kB; 0 makes recipes without a picture. */
  pictureKb: number;
  /** Members, the exporting Owner included: 4 (two adults, two children) unless told. */
  members?: number;
  /** Pantry observations in all: 96 a week unless told (the trips' 60 a week, the rest entered by hand). */
  observations?: number;
  /** The Monday after the last planned week (ms since the epoch): 2026-10-26 unless told. */
  end?: number;
}

/** The members after the Owner: the first three are the family of four's, the rest family that joined later. */
const MEMBERS = [
  ['Kari', 'Adult'], ['Emma', 'Junior'], ['Jonas', 'Junior'], ['Ola', 'Adult'], ['Nora', 'Junior'], ['Ingrid', 'Adult'], ['Lars', 'Adult'],
  ['Sofie', 'Junior'], ['Henrik', 'Junior'], ['Maja', 'Adult'], ['Aksel', 'Junior'],
] as const;

/** The random choices of one made household, from one seed, and its span of weeks. */
interface Maker {
  readonly random: () => number;
  pick<T>(list: readonly T[]): T;
  between(low: number, high: number): number;
  /** An instant as ISO text; `date`, its day. */
  at(ms: number): string;
  date(ms: number): string;
  readonly start: number;
  readonly end: number;
  readonly scale: Scale;
}

function maker(scale: Scale): Maker {
  const random = prng(7);
  const end = scale.end ?? Date.UTC(2026, 9, 26); // a Monday
  return {
    random,
    pick: (list) => list[Math.floor(random() * list.length)]!,
    between: (low, high) => low + Math.floor(random() * (high - low + 1)),
    at: (ms) => new Date(ms).toISOString(),
    date: (ms) => new Date(ms).toISOString().slice(0, 10),
    start: end - scale.weeks * 7 * DAY,
    end,
    scale,
  };
}

/**
 * Writes the household document of `scale` to `file`, part by part (a document of hundreds of megabytes is never
 * one string here), on the head `fresh` (a real export of a fresh household: its settings and its one member, the
 * Owner, who exported it). Answers its size. The parts are made in the order of the document, from one seed.
 */
export async function writeDocument(file: string, fresh: Record<string, unknown>, scale: Scale): Promise<{ size: Size; counts: Record<string, number> }> {
  const m = maker(scale);
  const owner = fresh['members'] as object[];
  const more = (scale.members ?? 4) - owner.length;
  if (more < 0 || more > MEMBERS.length) throw new Error(`a made household has ${owner.length} to ${owner.length + MEMBERS.length} members`);
  const members = [
    ...owner,
    ...MEMBERS.slice(0, more).map(([displayName, role], i) => ({ id: randomUUID(), displayName, role, createdAt: m.at(m.start + (i < 3 ? 0 : i * 20 * 7 * DAY)) })),
  ] as { id: string }[];
  const recipes = makeRecipes(m);
  const plans = makePlans(m, recipes.map((r) => r.id));
  const mealEvents = makeMealEvents(m, members);
  const { pantry, tripObservations } = makePantry(m);
  const shoppingLists = makeShoppingLists(m, plans, tripObservations);
  const parts = { members, recipes, plans, mealEvents, pantry, shoppingLists };
  const size = await writeParts(file, fresh, m, parts);
  return { size, counts: countsOf({ recipes: recipes.map(() => ({ image: scale.pictureKb > 0 ? {} : null })), plans, mealEvents, pantry, shoppingLists }) };
}

/** Recipes, without their picture data, which is written as each is made. */
function makeRecipes(m: Maker) {
  const { random, pick, between, at, start, end, scale } = m;
  const recipeIds = Array.from({ length: scale.recipes }, () => randomUUID());
  const step = () => {
    // 80 to 320 characters: one to three of a recipe site's clauses, cut at a word.
    const target = between(80, 320);
    let text = pick(STEP_PARTS);
    while (text.length < target) text += `. ${pick(STEP_PARTS)}`;
    return `${text.slice(0, target).replace(/\s+\S*$/, '')}.`;
  };
  const recipes = recipeIds.map((id, i) => {
    const created = start + Math.floor((i / scale.recipes) * (end - start));
    const baseRecipeId = i > 20 && i % 20 === 0 ? recipeIds[i - 20]! : null;
    const ingredients = Array.from({ length: between(6, 14) }, (_, k) => {
      const [displayName, unit] = pick(FOODS);
      if (k === 0 && baseRecipeId) return { displayName: 'Pizzadeig', quantity: 1, unit: 'porsjon', optional: false, baseRecipeId, reference: null };
      return { displayName, quantity: unit === 'g' ? between(1, 12) * 50 : between(1, 4), unit, optional: random() < 0.08, baseRecipeId: null, reference: null };
    });
    const slug = `${pick(DISHES)}-${pick(WORDS)}-${pick(FOODS)[0].replace(/\s/g, '-')}-${i}`;
    const main = pick(FOODS)[0];
    const title = `${main[0]!.toUpperCase()}${main.slice(1)}${pick(DISHES)} ${pick(WORDS)} ${pick(FOODS)[0]} og ${pick(FOODS)[0]}`;
    const site = pick(['https://www.matprat.no/oppskrifter/', 'https://www.tine.no/oppskrifter/middag/', 'https://trinesmatblogg.no/recipe/', 'https://www.godt.no/oppskrifter/']);
    const totalMinutes = between(2, 12) * 5;
    return {
      id,
      title: title.slice(0, 200),
      servings: pick([2, 4, 4, 4, 6]),
      activeMinutes: Math.min(totalMinutes, between(2, 8) * 5),
      totalMinutes,
      steps: Array.from({ length: between(4, 8) }, step),
      ingredients,
      sourceUrl: `${site}${slug}`,
      imageUrl: `https://images.example-recipes.no/og/${slug}-1200x800.jpg`,
      createdAt: at(created),
      updatedAt: at(created + between(0, 30) * DAY),
    };
  });
  return recipes;
}

/** Plans: one a week, each with its seven days. */
function makePlans(m: Maker, recipeIds: readonly string[]) {
  const { random, pick, between, at, date, start, scale } = m;
  const plans = Array.from({ length: scale.weeks }, (_, w) => {
    const monday = start + w * 7 * DAY;
    return {
      id: randomUUID(),
      weekStart: date(monday),
      createdAt: at(monday - 3 * DAY),
      updatedAt: at(monday - 2 * DAY),
      days: Array.from({ length: 7 }, (_, d) => ({
        id: randomUUID(),
        date: date(monday + d * DAY),
        recipeId: random() < 0.86 ? pick(recipeIds) : null,
        portionsOverride: random() < 1 / 12 ? between(2, 8) : null,
        note: random() < 0.1 ? pick(['Rester fra søndag', 'Fotballtrening, spis tidlig', 'Bestemor kommer', 'Lag dobbel porsjon til matpakke']) : null,
      })),
    };
  });
  return plans;
}

/** Meal events: about four a week. */
function makeMealEvents(m: Maker, members: readonly { id: string }[]) {
  const { random, pick, between, at, date, start, scale } = m;
  const eventTypes = [
    ['Guests', 0.3], ['EatingOut', 0.25], ['PersonAbsent', 0.25], ['Activity', 0.1], ['Celebration', 0.05], ['Travel', 0.05],
  ] as const;
  const eventType = () => {
    let u = random();
    for (const [type, share] of eventTypes) if ((u -= share) < 0) return type;
    return 'Custom';
  };
  const avoids = ['nøtter', 'skalldyr', 'gluten', 'laktose', 'svinekjøtt', 'koriander', 'sopp', 'fisk'];
  const mealEvents = Array.from({ length: Math.round(scale.weeks * scale.eventsPerWeek) }, () => {
    const day = start + between(0, scale.weeks * 7 - 1) * DAY;
    const type = eventType();
    const memberRow = (m: { id: string }, isPresent: boolean) => ({ id: randomUUID(), householdMemberId: m.id, isPresent, guestType: null, guestCount: 0, dietaryNotes: null, avoids: [] });
    const guests = () =>
      Array.from({ length: between(1, 2) }, (_, g) => ({
        id: randomUUID(),
        householdMemberId: null,
        isPresent: true,
        guestType: g === 0 ? 'Adult' : pick(['Child', 'Baby']),
        guestCount: between(1, 4),
        dietaryNotes: random() < 0.2 ? 'En av gjestene er vegetarianer' : null,
        avoids: Array.from({ length: between(0, 3) }, () => pick(avoids)).filter((a, k, all) => all.indexOf(a) === k),
      }));
    const participants =
      type === 'Guests' || type === 'Celebration'
        ? [...members.map((m) => memberRow(m, true)), ...guests()]
        : type === 'PersonAbsent'
          ? [memberRow(pick(members), false)]
          : [];
    return {
      id: randomUUID(),
      date: date(day),
      eventType: type,
      servingTime: random() < 0.4 ? pick(['17:00', '17:30', '18:30', '19:00']) : null,
      availableCookingMinutes: type === 'Activity' ? pick([20, 25, 30]) : null,
      notes: random() < 0.3 ? pick(['Håndballkamp', 'Bursdag til Emma', 'Middag hos svigers', 'Jobbreise til Bergen', 'Foreldremøte']) : null,
      participants,
      createdAt: at(day - 5 * DAY),
      updatedAt: at(day - 4 * DAY),
    };
  });
  return mealEvents;
}

/** The pantry log: per week the trip's 34, a second shop's 26 and the rest by hand (36 by default); merges, rejections, unit weights. */
function makePantry(m: Maker) {
  const { random, pick, between, at, date, start, scale } = m;
  const storage = (unit: string) => (unit === 'g' && random() < 0.3 ? 'Freezer' : pick(['Fridge', 'Pantry', 'Pantry', 'Unknown']));
  const observation = (when: number, observationType: string) => {
    const [displayName, unit] = pick(FOODS);
    return {
      id: randomUUID(),
      foodKey: displayName,
      displayName,
      observationType,
      quantity: observationType === 'Gone' ? 0 : unit === 'g' ? between(1, 10) * 100 : between(1, 6),
      unit,
      storageLocation: storage(unit),
      confidence: observationType === 'Estimated' ? 0.6 : observationType === 'Purchased' ? 1 : 0.9,
      bestBefore: random() < 0.4 ? date(when + between(2, 30) * DAY) : null,
      observedAt: at(when),
    };
  };
  // The trips' 60 a week; the rest entered by hand, spread evenly over the weeks (36 a week by default).
  const handTotal = (scale.observations ?? 96 * scale.weeks) - 60 * scale.weeks;
  if (handTotal < 0) throw new Error(`a made household has at least the trips' ${60 * scale.weeks} observations`);
  const byHand = (w: number) => Math.floor(((w + 1) * handTotal) / scale.weeks) - Math.floor((w * handTotal) / scale.weeks);
  const observations: ReturnType<typeof observation>[] = [];
  const tripObservations: string[][] = [];
  for (let w = 0; w < scale.weeks; w++) {
    const saturday = start + w * 7 * DAY - 2 * DAY + 11 * 3_600_000;
    const trip = Array.from({ length: 34 }, () => observation(saturday, 'Purchased'));
    tripObservations.push(trip.map((o) => o.id));
    observations.push(...trip);
    for (let k = 0; k < 26; k++) observations.push(observation(saturday + 4 * DAY, 'Purchased'));
    for (let k = 0; k < byHand(w); k++) observations.push(observation(saturday + between(0, 6) * DAY + between(8, 22) * 3_600_000, pick(['Seen', 'Used', 'Used', 'Gone', 'Estimated'])));
  }
  const pairs = Array.from({ length: 100 }, (_, i) => [`vare ${i} fra butikk`, `vare ${i}`] as const);
  const pantry = {
    observations,
    merges: pairs.map(([from, to], i) => ({ fromKey: from, toKey: to, fromDisplayName: from, toDisplayName: to, mergedAt: at(start + i * 17 * DAY) })),
    rejections: pairs.map(([a, b], i) => ({ keyA: `${a} økologisk`, keyB: `${b} lett`, keyADisplayName: `${a} økologisk`, keyBDisplayName: `${b} lett`, decidedAt: at(start + i * 17 * DAY) })),
    unitWeights: pairs.map(([, food], i) => ({ foodKey: food, unit: 'stk', displayName: food, grams: 50 + i * 7, updatedAt: at(start + i * 17 * DAY) })),
  };
  return { pantry, tripObservations };
}

/** Shopping lists: one a plan, 40 lines, closed by a trip that bought 34 of them. */
function makeShoppingLists(m: Maker, plans: ReturnType<typeof makePlans>, tripObservations: readonly string[][]) {
  const { random, pick, between, at } = m;
  const shoppingLists = plans.map((plan, w) => {
    const lines = Array.from({ length: 40 }, (_, k) => {
      const [displayName, unit] = pick(FOODS);
      const quantity = unit === 'g' ? between(1, 10) * 100 : between(1, 4);
      const bought = k < 34;
      const days = plan.days.filter((d) => d.recipeId !== null);
      const related = days.length === 0 ? [] : [pick(days).id, ...(random() < 0.3 ? [pick(days).id] : [])].filter((d, j, all) => all.indexOf(d) === j);
      return {
        id: randomUUID(),
        foodKey: displayName,
        displayName,
        requiredQuantity: quantity,
        unit,
        extraQuantity: 0,
        status: bought ? 'Purchased' : 'Buy',
        purchasedQuantity: bought ? quantity : 0,
        purchasedUnit: bought ? unit : null,
        reasonCode: k >= 36 ? 'Manual' : random() < 0.2 ? 'PartlyInPantry' : 'Planned',
        haveQuantity: 0,
        relatedPlanEntryIds: k >= 36 ? [] : related,
        isManual: k >= 36,
        addedAfterShopping: false,
        aisle: pick(['Frukt og grønt', 'Meieri', 'Kjøtt', 'Fisk', 'Tørrvarer', 'Frysevarer', 'Brød']),
        suggestedPrice: random() < 0.8 ? between(990, 8990) / 100 : null,
        suggestedProductName: random() < 0.8 ? `${displayName[0]!.toUpperCase()}${displayName.slice(1)} ${between(1, 5) * 100} g` : null,
        suggestedPriceSource: random() < 0.8 ? 'FoodTable' : 'None',
        suggestedPriceIsAggregate: random() < 0.3,
        tickNotified: bought,
        preferenceFit: 'Fits',
      };
    });
    const generated = Date.parse(`${plan.weekStart}T00:00:00Z`) - 3 * DAY;
    return {
      id: randomUUID(),
      planId: plan.id,
      generatedAt: at(generated),
      completedAt: at(generated + DAY + 12 * 3_600_000),
      skippedReferences: [],
      addedReferences: [],
      trip: {
        summary: { linesBought: 34, linesLeft: 6, observationsWritten: 34 },
        observationIds: tripObservations[w]!,
        closingTicks: lines.map((l) => ({ lineId: l.id, status: l.status, purchasedQuantity: l.purchasedQuantity, purchasedUnit: l.purchasedUnit })),
      },
      lines,
      madeFor: Object.fromEntries(plan.days.flatMap((d) => (d.recipeId ? [[d.date, { recipeId: d.recipeId, portions: d.portionsOverride ?? 4 }]] : []))),
      wouldAdd: Array.from({ length: between(0, 3) }, () => {
        const [displayName, unit] = pick(FOODS);
        return { foodKey: displayName, displayName, quantity: 1, unit };
      }),
      staleSince: null,
    };
  });
  return shoppingLists;
}

interface Parts {
  readonly members: readonly object[];
  readonly recipes: ReturnType<typeof makeRecipes>;
  readonly plans: unknown;
  readonly mealEvents: unknown;
  readonly pantry: unknown;
  readonly shoppingLists: unknown;
}

/** Writes the document: the head, each recipe with its picture made as it goes, then the other parts whole. */
async function writeParts(file: string, fresh: Record<string, unknown>, m: Maker, { members, recipes, plans, mealEvents, pantry, shoppingLists }: Parts): Promise<Size> {
  const { at, end, scale } = m;
  const size: Size = { pictures: 0, pictureBytes: 0, parts: {}, total: 0, totalChars: 0 };
  const out = createWriteStream(file);
  const write = (part: string, text: string) => {
    const bytes = Buffer.byteLength(text);
    const counted = (size.parts[part] ??= { bytes: 0, chars: 0 });
    counted.bytes += bytes;
    counted.chars += text.length;
    size.total += bytes;
    size.totalChars += text.length;
    return writeOut(out, text);
  };
  const { recipes: _r, plans: _p, mealEvents: _m, pantry: _y, shoppingLists: _s, ...head } = fresh;
  await write('settings and members', `${JSON.stringify({ ...head, exportedAt: at(end), members }).slice(0, -1)},"recipes":[`);
  const sizes = scale.pictureKb > 0 ? pictureSizes(scale.recipes, scale.pictureKb * KB) : [];
  for (const [i, recipe] of recipes.entries()) {
    if (scale.pictureKb <= 0) {
      await write('recipes (text)', `${i > 0 ? ',' : ''}${JSON.stringify({ ...recipe, image: null })}`);
      continue;
    }
    const picture = jpeg(1200, 800, sizes[i]!);
    if (i === 0) {
      // The import keeps a picture only when inspectImage does: a padding that broke it would fail the whole import.
      const inspected = await inspectImage(picture);
      if (!inspected.ok || inspected.mediaType !== 'image/jpeg') throw new Error(`the made picture is not a JPEG to inspectImage: ${JSON.stringify(inspected)}`);
    }
    const data = picture.toString('base64');
    size.pictures += data.length;
    size.pictureBytes += picture.length;
    const text = JSON.stringify({ ...recipe, image: { sourceUrl: recipe.imageUrl, mediaType: 'image/jpeg', data: '' } });
    // The data goes in as it is (base64 needs no escaping), so the recipe's own text is counted apart from it.
    const at = text.lastIndexOf('"data":""') + '"data":"'.length;
    await write('recipes (text)', `${i > 0 ? ',' : ''}${text.slice(0, at)}`);
    await write('pictures (base64)', data);
    await write('recipes (text)', text.slice(at));
  }
  await write('plans', `],"plans":${JSON.stringify(plans)}`);
  await write('meal events', `,"mealEvents":${JSON.stringify(mealEvents)}`);
  await write('pantry', `,"pantry":${JSON.stringify(pantry)}`);
  await write('shopping lists', `,"shoppingLists":${JSON.stringify(shoppingLists)}}`);
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return size;
}

/** Writes, waiting when the stream's buffer is full. */
const writeOut = (out: WriteStream, text: string): Promise<void> =>
  out.write(text) ? Promise.resolve() : new Promise((resolve) => out.once('drain', () => resolve()));

/** How many there are of each part of a household document. */
export function countsOf(doc: Record<string, unknown>): Record<string, number> {
  const d = doc as { recipes: { image: unknown }[]; plans: unknown[]; mealEvents: unknown[]; shoppingLists: { lines: unknown[] }[]; pantry: Record<string, unknown[]> };
  return {
    recipes: d.recipes.length,
    pictures: d.recipes.filter((r) => r.image !== null).length,
    plans: d.plans.length,
    mealEvents: d.mealEvents.length,
    observations: d.pantry['observations']!.length,
    merges: d.pantry['merges']!.length + d.pantry['rejections']!.length + d.pantry['unitWeights']!.length,
    shoppingLists: d.shoppingLists.length,
    lines: d.shoppingLists.reduce((n, l) => n + l.lines.length, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A made household, imported (W10, and W9 on W10's household).

/** Routes of an imported household that W10 measures: this week's plan and list, recipe search, the pantry. */
export interface MadePaths {
  week: string;
  list: string;
  byTitle: string;
  byIngredient: string;
  pantry: string;
}

/** The Monday of the week after today's (UTC): the made household's last planned week is then this one. */
export function nextMonday(now: number): number {
  const today = Math.floor(now / DAY) * DAY;
  return today + (7 - ((new Date(today).getUTCDay() + 6) % 7)) * DAY;
}

/** W10's household: five years, 10 members, 60,000 observations; no pictures. */
export const W10_SCALE: Scale = { recipes: 2000, weeks: 260, eventsPerWeek: 1000 / 261, pictureKb: 0, members: 10, observations: 60_000 };

/** POST of a JSON body over node:http, which waits for the answer as long as it takes (fetch gives up after 300 s). */
function post(url: string, cookie: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, Cookie: cookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Imports a made household of `scale` and answers the paths of its routes; the signed-in account is its Owner. */
export async function importMade(appUrl: string, cookie: string, head: Record<string, unknown>, scale: Scale, dir: string) {
  const file = join(dir, `household-${scale.weeks}.json`);
  const { counts } = await writeDocument(file, head, scale);
  const started = performance.now();
  const res = await post(`${appUrl}/api/v1/households/import`, cookie, readFileSync(file));
  if (res.status !== 201) throw new Error(`import of ${scale.weeks} weeks: ${res.status} ${res.text.slice(0, 500)}`);
  const importSeconds = (performance.now() - started) / 1000;
  const { id } = JSON.parse(res.text) as { id: string };
  const base = `/api/v1/households/${id}`;
  const today = new Date().toISOString().slice(0, 10);
  const week = await fetch(`${appUrl}${base}/plans/week/${today}`, { method: 'PUT', headers: { Cookie: cookie } });
  if (week.status !== 200) throw new Error(`this week's plan: ${week.status} ${await week.text()}`);
  const plan = (await week.json()) as { id: string };
  const paths: MadePaths = {
    week: `${base}/plans/${plan.id}`,
    list: `${base}/plans/${plan.id}/shopping-list`,
    // A dish word is in titles only; a food is in ingredients (and some titles).
    // As the web app's recipe list searches: summaries, 100 to a page.
    byTitle: `${base}/recipe-summaries?q=grateng&limit=100`,
    byIngredient: `${base}/recipe-summaries?q=kokosmelk&limit=100`,
    pantry: `${base}/inventory`,
  };
  for (const path of Object.values(paths)) {
    const check = await fetch(appUrl + path, { headers: { Cookie: cookie } });
    if (check.status !== 200) throw new Error(`GET ${path}: ${check.status} ${(await check.text()).slice(0, 500)}`);
  }
  return { paths, counts, importSeconds, exportPath: `${base}/export`, planId: plan.id, householdId: id };
}

