import { parse, parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5';
import type { ExtractedRecipe, RecipePageSource, RecipePageWarning } from '../../ports/recipe-page.js';
import { attr, children, isElement, ownText, plainLines, pushAll, textLines, tidy } from './html.js';
import { readLayout } from './layout.js';

/**
 * The recipe on a web page, read the way search engines read it: schema.org Recipe in JSON-LD, else in microdata,
 * else from the page's layout (its headings and lists, layout.ts; flagged 'read_from_page_layout'), else only the
 * OpenGraph title and image. The page is a stranger's: every walk over the DOM or over JSON is a loop
 * with its own stack (a page may nest as deep as it likes), a JSON-LD script is measured before it is parsed, and
 * every text that leaves here is plain text with the limits of a recipe.
 *
 * Choices where the vocabulary leaves room, each the simpler reading:
 * - A HowToSection's name is dropped: its steps are kept, in order (a heading alone makes a poor step).
 * - An ingredient group (an object with itemListElement) gives its lines, never its name.
 * - recipeInstructions as ONE string is split into steps at line breaks (newlines, <br>, <p>); an array gives one
 *   step per entry. recipeIngredient splits at line breaks either way: two lines are never one ingredient.
 * - recipeYield as an array: the first entry with a letter in it ("4 porsjoner" over "4"), else the first.
 * - A duration of zero (PT0M) counts as missing: sites write it for "not filled in".
 * - activeMinutes (prepTime) greater than totalMinutes contradicts the page: it is dropped, not clamped.
 * - Recipes on the page are counted within the source that was used (JSON-LD and microdata often describe the same
 *   recipe twice), and two with the same title count as one ('several_recipes' means a different one was left).
 * - A Recipe without a name takes the page's og:title, else its <title>.
 * - Text inside JSON-LD strings is decoded once: "&amp;amp;" stays "&amp;" (it is what the page said).
 * - Microdata values are already text (the parser decoded them): they are only tidied, never parsed again.
 * - 'opengraph_only' stands alone: it says there are no ingredients and no steps.
 */

const MAX_SCRIPT_CHARS = 1_000_000;
const MAX_JSON_DEPTH = 32;
/** Entries of a list read before the limits apply: enough for every empty line a page may have. */
const MAX_ENTRIES = 1_000;
const MAX = { title: 200, line: 200, step: 2_000, yields: 200, lines: 100, steps: 100, url: 2_048 } as const;

type Json = Record<string, unknown>;
type Warn = (w: RecipePageWarning) => void;

/** What one recipe on the page says, before the limits. Durations in minutes. */
interface Draft {
  title: string | null;
  ingredients: string[];
  steps: string[];
  yields: string | null;
  totalTime: number | null;
  prepTime: number | null;
  cookTime: number | null;
  imageUrl: string | null;
}

export function extractRecipe(html: string, pageUrl: string | null): ExtractedRecipe | null {
  const doc = parse(html);
  const page = survey(doc, pageUrl);
  const warnings = new Set<RecipePageWarning>();
  const warn: Warn = (w) => void warnings.add(w);

  // A recipe needs a title: one without a name takes the page's, and with none at all it is no recipe.
  const titled = (drafts: Draft[]) =>
    drafts.flatMap((d) => {
      const title = d.title ?? page.ogTitle ?? page.title;
      return title === null ? [] : [{ ...d, title }];
    });
  let source: RecipePageSource = 'json-ld';
  let recipes = titled(
    page.ldScripts.flatMap((text) => {
      const found = readJsonLd(text, warn);
      return found === null ? [] : recipesInJsonLd(found).map(({ recipe, ids }) => draftFromJsonLd(recipe, ids, page.base));
    }),
  );
  if (recipes.length === 0) {
    source = 'microdata';
    recipes = titled(page.recipeScopes.map((scope) => draftFromMicrodata(scope, page.base)));
  }
  const first = recipes[0];
  if (first !== undefined) {
    if (new Set(recipes.map((d) => d.title.toLowerCase())).size > 1) warn('several_recipes');
    return finish(first, source, warnings);
  }
  const laid = readLayout(doc);
  // The page's own name for it: og:title, its <h1>, the heading its <title> begins with, else its <title>.
  const named = laid?.headings.find((h) => page.title?.toLowerCase().startsWith(h.toLowerCase()) === true) ?? null;
  const title = laid === null ? null : (siteless(page.ogTitle, page.siteName) ?? laid.heading ?? named ?? siteless(page.title, page.siteName));
  if (laid !== null && title !== null) {
    warn('read_from_page_layout');
    return finish({ ...laid, title, imageUrl: page.ogImage }, 'layout', warnings);
  }
  if (page.ogTitle === null) return null;
  warn('opengraph_only');
  return finish(
    { title: page.ogTitle, ingredients: [], steps: [], yields: null, totalTime: null, prepTime: null, cookTime: null, imageUrl: page.ogImage },
    'opengraph',
    warnings,
  );
}

/**
 * A page's title without the site's name: "Kjøttkaker i brun saus | Matbloggen" and "Kjøttkaker – Matbloggen" (when
 * og:site_name says Matbloggen) are "Kjøttkaker i brun saus" and "Kjøttkaker". Only for pages read from their layout:
 * a markup recipe has its own name.
 */
function siteless(title: string | null, siteName: string | null): string | null {
  if (title === null) return null;
  const site = siteName?.trim().toLowerCase();
  let t = title.split(/\s+[|•·»]\s+/).find((part) => part.trim() !== '' && part.trim().toLowerCase() !== site) ?? title;
  if (siteName !== null) {
    const name = siteName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    t = t.replace(new RegExp(`\\s+[-–—:]\\s+${name}$`, 'i'), '').replace(new RegExp(`^${name}\\s*[-–—:]\\s+`, 'i'), '');
  }
  return tidy(t) || null;
}

/** The limits of a recipe, and what follows from the fields: servings from the yield, the two durations. */
function finish(d: Draft & { title: string }, source: RecipePageSource, warnings: Set<RecipePageWarning>): ExtractedRecipe {
  const ingredientLines = d.ingredients.map((l) => cut(l, MAX.line)).filter((l) => l !== '').slice(0, MAX.lines);
  const steps = d.steps.map((s) => cut(s, MAX.step)).filter((s) => s !== '').slice(0, MAX.steps);
  if (source !== 'opengraph') {
    if (ingredientLines.length === 0) warnings.add('no_ingredients');
    if (steps.length === 0) warnings.add('no_steps');
  }
  const yields = d.yields === null || d.yields === '' ? null : cut(d.yields, MAX.yields);
  const totalMinutes = d.totalTime ?? (d.prepTime !== null || d.cookTime !== null ? (d.prepTime ?? 0) + (d.cookTime ?? 0) : null);
  const activeMinutes = d.prepTime !== null && totalMinutes !== null && d.prepTime <= totalMinutes ? d.prepTime : null;
  return {
    title: cut(d.title, MAX.title),
    ingredientLines,
    steps,
    yields,
    servings: servingsIn(yields),
    totalMinutes,
    activeMinutes,
    imageUrl: d.imageUrl,
    source,
    warnings: [...warnings],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The page: one walk collects every place a recipe may be.

interface Survey {
  ldScripts: string[];
  /** Microdata Recipe scopes, outermost only, in document order. */
  recipeScopes: T.Element[];
  ogTitle: string | null;
  ogImage: string | null;
  /** og:site_name, to take the site's name off a title. */
  siteName: string | null;
  title: string | null;
  /** What relative addresses resolve against: <base href>, else the page's address. */
  base: string | null;
}

function survey(doc: T.Document, pageUrl: string | null): Survey {
  const found: Omit<Survey, 'base'> = { ldScripts: [], recipeScopes: [], ogTitle: null, ogImage: null, siteName: null, title: null };
  let baseHref: string | null = null;
  const stack: { node: T.ChildNode; inRecipe: boolean }[] = children(doc).map((node) => ({ node, inRecipe: false }));
  while (stack.length > 0) {
    const { node, inRecipe } = stack.pop()!;
    if (!isElement(node)) continue;
    const tag = node.tagName;
    if (tag === 'script' && (attr(node, 'type') ?? '').split(';')[0]!.trim().toLowerCase() === 'application/ld+json') {
      found.ldScripts.push(ownText(node));
      continue;
    }
    if (tag === 'meta') {
      const key = (attr(node, 'property') ?? attr(node, 'name') ?? '').trim().toLowerCase();
      const content = tidy(attr(node, 'content') ?? '');
      if (key === 'og:title' && found.ogTitle === null && content !== '') found.ogTitle = content;
      if (key === 'og:site_name' && found.siteName === null && content !== '') found.siteName = content;
      if (/^og:image(:url|:secure_url)?$/.test(key) && found.ogImage === null && content !== '') found.ogImage = content;
    }
    if (tag === 'title' && found.title === null) found.title = tidy(ownText(node)) || null;
    if (tag === 'base' && baseHref === null) baseHref = attr(node, 'href');
    let nowInRecipe = inRecipe;
    if (!inRecipe && isRecipeScope(node)) {
      found.recipeScopes.push(node);
      nowInRecipe = true;
    }
    pushAll(stack, children(node).map((child) => ({ node: child, inRecipe: nowInRecipe })));
  }
  const base = baseHref !== null ? (URL.parse(baseHref, pageUrl ?? undefined)?.href ?? pageUrl) : pageUrl;
  return { ...found, base, ogImage: found.ogImage === null ? null : absoluteUrl(found.ogImage, base) };
}

// ---------------------------------------------------------------------------------------------------------------
// JSON-LD

/** The script's JSON, or null with the reason as a warning. Size and depth are checked before JSON.parse sees it. */
function readJsonLd(raw: string, warn: Warn): unknown {
  if (raw.length > MAX_SCRIPT_CHARS) {
    warn('json_ld_too_large');
    return null;
  }
  // Some CMSs wrap the JSON in an HTML comment or CDATA, as for an old inline script.
  const text = raw
    .trim()
    .replace(/^(?:\/\/\s*)?(?:<!--|<!\[CDATA\[)/, '')
    .replace(/(?:\/\/\s*)?(?:-->|\]\]>)$/, '')
    .trim();
  if (text === '') return null;
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    warn('json_ld_too_deep');
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A raw line break inside a string is the commonest fault of hand-templated JSON-LD: escape it and try again.
    try {
      return JSON.parse(escapeControlsInStrings(text)) as unknown;
    } catch {
      warn('json_ld_invalid');
      return null;
    }
  }
}

/** The deepest nesting of arrays and objects, by scanning the text: stops counting once past the limit. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function escapeControlsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const c = ch.charCodeAt(0);
    if (inString && c === 0x5c) {
      out += ch + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === 0x22) inString = !inString;
    out += inString && c < 0x20 ? (c === 0x0a ? '\\n' : c === 0x0d ? '\\r' : c === 0x09 ? '\\t' : ' ') : ch;
  }
  return out;
}

/** Every Recipe in a script, in order: at the top, in an array, in @graph, or as a mainEntity; with the @ids seen. */
function recipesInJsonLd(root: unknown): { recipe: Json; ids: Map<string, Json> }[] {
  const recipes: Json[] = [];
  const ids = new Map<string, Json>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    if (!isJson(v)) continue;
    if (typeof v['@id'] === 'string' && Object.keys(v).length > 1) ids.set(v['@id'], v);
    if (hasType(v, 'recipe')) recipes.push(v);
    else stack.push(v['mainEntityOfPage'], v['mainEntity'], v['@graph']);
  }
  return recipes.map((recipe) => ({ recipe, ids }));
}

function draftFromJsonLd(r: Json, ids: Map<string, Json>, base: string | null): Draft {
  const name = str(r['name']) ?? str(r['headline']);
  const ingredients = r['recipeIngredient'] ?? r['ingredients'];
  const instructions = r['recipeInstructions'];
  const yields = r['recipeYield'] ?? r['yield'];
  return {
    title: name === null ? null : oneLine(name) || null,
    ingredients: typeof ingredients === 'string' ? htmlLines(ingredients) : listOf(ingredients).flatMap((l) => htmlLines(l)),
    steps: typeof instructions === 'string' ? htmlLines(instructions) : listOf(instructions).map(oneLine),
    yields: pickYield((Array.isArray(yields) ? yields : [yields]).map((y) => oneLine(str(y) ?? ''))),
    totalTime: minutes(str(r['totalTime'])),
    prepTime: minutes(str(r['prepTime'])),
    cookTime: minutes(str(r['cookTime'])),
    imageUrl: jsonLdImage(r['image'], ids, base),
  };
}

/**
 * The texts of a list that may hold strings, HowToSteps (text, else name), or groups with itemListElement
 * (HowToSection, ItemList), flattened in order; a group's own name is left out. At most MAX_ENTRIES are read.
 */
function listOf(v: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [v];
  while (stack.length > 0 && out.length < MAX_ENTRIES) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (typeof x === 'string' || typeof x === 'number') {
      out.push(String(x));
    } else if (isJson(x)) {
      const text = str(x['text']);
      if (x['itemListElement'] !== undefined && (hasType(x, 'howtosection') || text === null)) stack.push(x['itemListElement']);
      else if (text !== null || str(x['name']) !== null) out.push(text ?? str(x['name'])!);
    }
  }
  return out;
}

/** The first image that resolves to an http(s) address: a URL, an ImageObject (or a reference to one), a list. */
function jsonLdImage(v: unknown, ids: Map<string, Json>, base: string | null): string | null {
  const stack: unknown[] = [v];
  let hops = 0;
  while (stack.length > 0 && hops++ < 1_000) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (typeof x === 'string') {
      const url = absoluteUrl(x, base);
      if (url !== null) return url;
    } else if (isJson(x)) {
      const ref = typeof x['@id'] === 'string' && Object.keys(x).length === 1 ? ids.get(x['@id']) : undefined;
      if (ref !== undefined) stack.push(ref);
      else stack.push(x['contentUrl'], x['url']);
    }
  }
  return null;
}

function hasType(v: Json, type: string): boolean {
  const types = Array.isArray(v['@type']) ? v['@type'] : [v['@type']];
  return types.some((t) => typeof t === 'string' && t.replace(/^(?:https?:\/\/(?:www\.)?schema\.org\/|schema:)/i, '').toLowerCase() === type);
}

/** A JSON-LD text value: a string, a number, a {"@value"}, or the first of a list of those. */
function str(v: unknown): string | null {
  for (const x of Array.isArray(v) ? v : [v]) {
    const value = isJson(x) ? x['@value'] : x;
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

function isJson(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------------------------
// Microdata

/** schema.org's Recipe, or the old Google vocabulary's (ingredient, instructions, yield, photo) still on older sites. */
const MICRODATA_RECIPE = /^https?:\/\/(?:www\.)?(?:schema\.org|data-vocabulary\.org)\/Recipe\/?$/i;

function isRecipeScope(el: T.Element): boolean {
  return attr(el, 'itemscope') !== null && (attr(el, 'itemtype') ?? '').split(/\s+/).some((t) => MICRODATA_RECIPE.test(t));
}

function draftFromMicrodata(scope: T.Element, base: string | null): Draft {
  const props = itemProps(scope);
  const of = (...names: string[]) => props.filter((p) => p.names.some((n) => names.includes(n))).map((p) => p.el).slice(0, MAX_ENTRIES);
  const value = (names: string[]) => {
    const el = of(...names)[0];
    return el === undefined ? null : tidy(microdataValue(el)) || null;
  };
  return {
    title: value(['name']),
    ingredients: of('recipeIngredient', 'ingredients', 'ingredient').flatMap((el) => (attr(el, 'content') !== null ? [tidy(attr(el, 'content')!)] : textLines(el, false))),
    steps: of('recipeInstructions', 'instructions').flatMap(microdataSteps),
    yields: pickYield(of('recipeYield', 'yield').map((el) => tidy(microdataValue(el)))),
    totalTime: minutes(value(['totalTime'])),
    prepTime: minutes(value(['prepTime'])),
    cookTime: minutes(value(['cookTime'])),
    imageUrl: microdataImage(of('image', 'photo'), base),
  };
}

/** The properties of a scope, in document order; those inside a nested itemscope belong to it, not to this one. */
function itemProps(scope: T.Element): { names: string[]; el: T.Element }[] {
  const out: { names: string[]; el: T.Element }[] = [];
  const stack = children(scope);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    const names = (attr(node, 'itemprop') ?? '').split(/\s+/).filter((n) => n !== '');
    if (names.length > 0) out.push({ names, el: node });
    if (attr(node, 'itemscope') === null) pushAll(stack, children(node));
  }
  return out;
}

/** A property's value as microdata defines it, except that a content or datetime attribute wins on any element. */
function microdataValue(el: T.Element): string {
  const fromAttr = attr(el, 'content') ?? attr(el, 'datetime');
  if (fromAttr !== null) return fromAttr;
  switch (el.tagName) {
    case 'img': case 'audio': case 'video': case 'source': case 'iframe': case 'embed': case 'track':
      return attr(el, 'src') ?? '';
    case 'a': case 'area': case 'link':
      return attr(el, 'href') ?? '';
    case 'object':
      return attr(el, 'data') ?? '';
    case 'data': case 'meter':
      return attr(el, 'value') ?? '';
    default:
      return textLines(el, false).join(' ');
  }
}

/**
 * Steps from one recipeInstructions element: a HowToStep or HowToSection scope (its text, else name; a section's
 * steps in order), a list (one step per top-level item), or a block of paragraphs (one step per paragraph or line).
 */
function microdataSteps(el: T.Element): string[] {
  if (attr(el, 'content') !== null) return plainLines(attr(el, 'content')!);
  if (attr(el, 'itemscope') === null) {
    const items = topLevelListItems(el);
    return items.length > 0 ? items.map((li) => textLines(li, false).join(' ')) : textLines(el, false);
  }
  const out: string[] = [];
  const stack: T.Element[] = [el];
  while (stack.length > 0) {
    const scope = stack.pop()!;
    const props = itemProps(scope);
    const inner = props.filter((p) => p.names.includes('itemListElement') || p.names.includes('step')).map((p) => p.el);
    const text = props.find((p) => p.names.includes('text')) ?? props.find((p) => p.names.includes('name'));
    if (inner.length > 0 && text?.names.includes('text') !== true) pushAll(stack, inner.reverse());
    else out.push(text !== undefined ? tidy(microdataValue(text.el)) : textLines(scope, false).join(' '));
  }
  return out;
}

function topLevelListItems(root: T.Element): T.Element[] {
  const out: T.Element[] = [];
  const stack = children(root);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.tagName === 'li') out.push(node);
    else pushAll(stack, children(node));
  }
  return out;
}

function microdataImage(els: T.Element[], base: string | null): string | null {
  for (const el of els) {
    const candidates =
      attr(el, 'itemscope') !== null
        ? itemProps(el).filter((p) => p.names.includes('url') || p.names.includes('contentUrl')).map((p) => microdataValue(p.el))
        : [attr(el, 'content'), attr(el, 'src'), attr(el, 'data-src'), attr(el, 'data-lazy-src'), attr(el, 'href')];
    for (const c of candidates) {
      const url = c === null ? null : absoluteUrl(c, base);
      if (url !== null) return url;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Text, numbers, addresses

/** A JSON-LD string as plain lines: entities decoded and tags dropped by parsing it as an HTML fragment. */
function htmlLines(s: string): string[] {
  return /[<&]/.test(s) ? textLines(parseFragment(s), true) : plainLines(s);
}

function oneLine(s: string): string {
  return htmlLines(s).join(' ');
}

/** At most `max` characters, cut at the last space when there is one in the second half. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const space = s.lastIndexOf(' ', max);
  let end = space > max / 2 ? space : max;
  if (/[\ud800-\udbff]/.test(s[end - 1] ?? '')) end--; // never half a surrogate pair
  return s.slice(0, end).trimEnd();
}

function pickYield(entries: string[]): string | null {
  const written = entries.filter((e) => e !== '');
  return written.find((e) => /\p{L}/u.test(e)) ?? written[0] ?? null;
}

/** The first whole number of the yield ("Serves 4-6" → 4; "1,5 liter" has none), when a sane count of servings. */
function servingsIn(yields: string | null): number | null {
  const m = yields === null ? null : /(?<![\d.,])\d+(?!\d|[.,]\d)/.exec(yields);
  const n = m === null ? NaN : Number(m[0]);
  return n >= 1 && n <= 100 ? n : null;
}

const ISO_DURATION = /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i;
const MINUTES_PER = [525_600, 43_200, 10_080, 1_440, 60, 1, 1 / 60] as const;

/** An ISO 8601 duration in whole minutes ("PT1H30M" → 90, "P0DT45M" → 45); zero, or not a duration → null. */
function minutes(text: string | null): number | null {
  const m = text === null || text.length > 64 ? null : ISO_DURATION.exec(text.trim());
  if (m === null) return null;
  const total = MINUTES_PER.reduce((sum, per, i) => sum + Number((m[i + 1] ?? '0').replace(',', '.')) * per, 0);
  return total > 0 && Number.isFinite(total) ? Math.round(total) : null;
}

/** An absolute http(s) address, or null: data:, javascript: and unresolvable addresses are no image. */
function absoluteUrl(raw: string, base: string | null): string | null {
  const s = raw.trim().replaceAll('&amp;', '&');
  if (s === '' || s.length > MAX.url) return null;
  const url = URL.parse(s, base ?? undefined) ?? URL.parse(s);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
}
