import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { attr, BLOCKS, children, isElement, pushAll, tidy } from './html.js';
import { headingKind, isGroupLabel, lookOfLine } from './layout-words.js';

/**
 * A recipe read from how a page is laid out, for pages with no recipe markup: the list under a heading such as
 * "Ingredienser" and the steps under one such as "Slik gjør du". Read only when no markup recipe is found, and
 * flagged as less sure. Rules, each the cautious reading:
 * - The page is read as a run of blocks (headings, list items, lines), skipping what is not the article: <nav>,
 *   <aside>, <form>, <footer>, a <header> outside <article>/<main>, scripts and styles, hidden elements, and boxes
 *   named for comments, cookies, sidebars, sharing, newsletters, related posts or menus.
 * - A heading is <h1>–<h6> (or role=heading), or a line that is only one of the words (layout-words.ts), bold or not.
 * - The ingredients are the list items under the heading, or, when there are none, its short lines (<p> per line,
 *   <br>-lines, table rows), up to the next heading. A sub-heading ("Til sausen") whose own run reads as
 *   ingredients is a group: the run goes on, without the group's name.
 * - Those lines must look like ingredients (most with an amount, a unit or a food; some with an amount, and some with
 *   a kitchen's unit or a food), else the page has no recipe: a menu, a shop's shelf, a comment thread or a DIY
 *   page's "What you need" is not one.
 * - The steps are every item and line under the method heading, up to a heading of its level or higher, or one that
 *   ends a recipe ("Tips", "Kommentarer", "Nutrition"); "1." or "Step 1:" before a step is dropped.
 * - A page needs both, ingredients and steps, to hold a recipe.
 */

export interface LayoutDraft {
  /** The first <h1> in the article. */
  readonly heading: string | null;
  /** Every <h1>–<h3>, in order: a page without an <h1> may name its recipe in one. */
  readonly headings: string[];
  readonly ingredients: string[];
  readonly steps: string[];
  readonly yields: string | null;
  readonly totalTime: number | null;
  readonly prepTime: number | null;
  readonly cookTime: number | null;
}

/** One piece of the page's text, in reading order. */
interface Block {
  readonly kind: 'heading' | 'item' | 'line';
  readonly text: string;
  /** 1–6 for <h1>–<h6>; 7 for a line, an item, or a line standing as a heading. */
  readonly level: number;
  /** Every letter of the line is inside <b> or <strong>: the way blogs write a heading in a paragraph. */
  readonly bold: boolean;
  /** What the block opens when it is a heading (or a line standing as one) of the words; never for an item. */
  readonly opens: Opening | null;
}

type Opening = NonNullable<ReturnType<typeof headingKind>>;

/** Blocks read from a page, read after a heading, and sections kept, at most: a stranger's page stays cheap to read. */
const MAX_BLOCKS = 20_000;
const MAX_SECTION = 500;
const MAX_SECTIONS = 20;

export function readLayout(doc: T.Document): LayoutDraft | null {
  const blocks = blocksOf(doc);
  const ingredients: string[][] = [];
  const steps: string[][] = [];
  const headings: string[] = [];
  for (let i = 0; i < blocks.length && ingredients.length < MAX_SECTIONS && steps.length < MAX_SECTIONS; i++) {
    const b = blocks[i]!;
    const h = b.opens;
    if (h === null || h.kind === 'end') continue;
    const level = b.kind === 'heading' ? b.level : 7;
    if (h.kind === 'ingredients') {
      const lines = ingredientSection(blocks, i + 1, h.rest);
      if (plausibleList(lines) && !ingredients.some((l) => same(l, lines))) {
        ingredients.push(lines);
        headings.push(b.text);
      }
    } else {
      const found = stepSection(blocks, i + 1, level, h.rest);
      if (found.length > 0 && !steps.some((s) => same(s, found))) steps.push(found);
    }
  }
  if (ingredients.length === 0 || steps.length === 0) return null;
  const short = [...headings, ...blocks.filter((b) => b.text.length <= 200).map((b) => b.text)];
  return {
    heading: blocks.find((b) => b.kind === 'heading' && b.level === 1)?.text ?? null,
    headings: blocks.filter((b) => b.kind === 'heading' && b.level <= 3).map((b) => b.text),
    ingredients: ingredients.flat(),
    steps: steps.flat(),
    yields: firstMatch(short, [SERVES_AFTER, SERVES_BEFORE]),
    totalTime: durationAfter(short, TOTAL),
    prepTime: durationAfter(short, PREP),
    cookTime: durationAfter(short, COOK),
  };
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

// ---------------------------------------------------------------------------------------------------------------
// The page as blocks

const SKIPPED_TAGS = new Set(['nav', 'aside', 'form', 'footer', 'script', 'style', 'noscript', 'template', 'iframe', 'svg', 'button', 'select', 'textarea', 'dialog', 'head', 'object', 'canvas']);
const SKIPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'form']);
/**
 * A class or id naming what is not the article, by its first or last part: "comment-list", "entry-comments",
 * "sidebar-right-1", "cookie-notice", but not "content-sidebar-wrap" (a theme's box around the article and its sidebar).
 */
const SKIPPED_NAMES = new Set([
  'comment', 'comments', 'commentlist', 'respond', 'replies', 'cookie', 'cookies', 'cookiebanner', 'consent', 'gdpr', 'sidebar', 'widget', 'widgets',
  'breadcrumb', 'breadcrumbs', 'share', 'sharing', 'social', 'newsletter', 'subscribe', 'related', 'nav', 'navigation', 'navbar', 'menu', 'footer',
  'masthead', 'advert', 'advertisement', 'ad', 'ads', 'promo', 'popup', 'modal', 'pagination',
]);
/** Where a line ends. A table's cells are parts of one line (its row): "200 g" | "mel". */
const LINE_ENDS = new Set([...BLOCKS, 'details', 'summary', 'caption'].filter((t) => t !== 'td' && t !== 'th' && t !== 'li' && !/^h[1-6]$/.test(t)));

function skipped(el: T.Element, inArticle: boolean): boolean {
  const tag = el.tagName;
  if (SKIPPED_TAGS.has(tag) || (tag === 'header' && !inArticle)) return true;
  if (attr(el, 'hidden') !== null || attr(el, 'aria-hidden') === 'true' || /display\s*:\s*none/i.test(attr(el, 'style') ?? '')) return true;
  const role = (attr(el, 'role') ?? '').trim().toLowerCase();
  if (SKIPPED_ROLES.has(role)) return true;
  const names = `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`.toLowerCase().split(/\s+/);
  return names.some((n) => {
    const parts = n.split(/[-_]+/).filter((p) => p !== '');
    return parts.length > 0 && (SKIPPED_NAMES.has(parts[0]!) || SKIPPED_NAMES.has(parts.at(-1)!) || n === 'site-header');
  });
}

function headingLevel(el: T.Element): number | null {
  const m = /^h([1-6])$/.exec(el.tagName);
  if (m !== null) return Number(m[1]);
  if ((attr(el, 'role') ?? '').trim().toLowerCase() !== 'heading') return null;
  const level = Number(attr(el, 'aria-level') ?? '2');
  return Number.isInteger(level) && level >= 1 && level <= 6 ? level : 2;
}

type Entry = { node: T.ChildNode; inArticle: boolean } | { close: 'line' | 'context' | 'bold' };

/** The page's text in reading order, one walk with its own stack: a line ends at <br> and at the edges of blocks. */
function blocksOf(doc: T.Document): Block[] {
  const blocks: Block[] = [];
  const open: { kind: 'heading' | 'item'; level: number }[] = [];
  let text = '';
  let letters = 0;
  let boldLetters = 0;
  let boldDepth = 0;
  const flush = () => {
    const line = tidy(text);
    if (line !== '' && blocks.length < MAX_BLOCKS) {
      const top = open.at(-1);
      const kind = top?.kind ?? 'line';
      blocks.push({ kind, level: top?.level ?? 7, text: line, bold: letters > 0 && boldLetters >= letters, opens: kind === 'item' ? null : headingKind(line) });
    }
    text = '';
    letters = 0;
    boldLetters = 0;
  };
  const stack: Entry[] = children(doc).map((node) => ({ node, inArticle: false }));
  while (stack.length > 0) {
    const e = stack.pop()!;
    if ('close' in e) {
      if (e.close === 'bold') boldDepth--;
      else flush();
      if (e.close === 'context') open.pop();
      continue;
    }
    if (e.node.nodeName === '#text') {
      const value = (e.node as T.TextNode).value;
      const seen = value.replace(/\s/g, '').length;
      text += value;
      letters += seen;
      if (boldDepth > 0) boldLetters += seen;
      continue;
    }
    if (!isElement(e.node) || skipped(e.node, e.inArticle)) continue;
    const el = e.node;
    const tag = el.tagName;
    const level = headingLevel(el);
    if (tag === 'br') flush();
    else if (tag === 'td' || tag === 'th') text += ' ';
    if (level !== null || tag === 'li') {
      flush();
      open.push({ kind: level !== null ? 'heading' : 'item', level: level ?? 7 });
      stack.push({ close: 'context' });
    } else if (tag === 'b' || tag === 'strong') {
      boldDepth++;
      stack.push({ close: 'bold' });
    } else if (LINE_ENDS.has(tag)) {
      flush();
      stack.push({ close: 'line' });
    }
    const inArticle = e.inArticle || tag === 'article' || tag === 'main' || (attr(el, 'role') ?? '').trim().toLowerCase() === 'main';
    pushAll(stack, children(el).map((node) => ({ node, inArticle })));
  }
  flush();
  return blocks;
}

// ---------------------------------------------------------------------------------------------------------------
// Sections

/** A heading that names a part without being one of the words: "Til sausen", "Fyllet", "<b>Deigen</b>". */
function isSubheading(b: Block): boolean {
  return b.kind === 'heading' || (b.kind === 'line' && b.bold && b.text.length <= 60 && !/\d/.test(b.text) && !/[.!?]$/.test(b.text));
}

/** The ingredient lines under a heading: its list items, else its short lines; groups followed, their names left. */
function ingredientSection(blocks: readonly Block[], from: number, first: string | null): string[] {
  const items: string[] = [];
  const lines: string[] = first === null ? [] : [first];
  for (let k = from; k < blocks.length && k < from + MAX_SECTION; k++) {
    const b = blocks[k]!;
    if (b.opens !== null) break;
    if (isSubheading(b)) {
      if (plausibleList(run(blocks, k + 1))) continue;
      break;
    }
    (b.kind === 'item' ? items : lines).push(b.text);
  }
  return items.length > 0 ? items.filter((l) => !isGroupLabel(l)) : fromLines(lines);
}

/** The blocks up to the next heading of any kind, read as ingredient lines. */
function run(blocks: readonly Block[], from: number): string[] {
  const items: string[] = [];
  const lines: string[] = [];
  for (let k = from; k < blocks.length && k < from + MAX_SECTION; k++) {
    const b = blocks[k]!;
    if (isSubheading(b) || b.opens !== null) break;
    (b.kind === 'item' ? items : lines).push(b.text);
  }
  return items.length > 0 ? items.filter((l) => !isGroupLabel(l)) : fromLines(lines);
}

/** Short lines as ingredients: a sentence before the first of them is an introduction, one after them ends the list. */
function fromLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (isGroupLabel(line)) continue;
    const look = lookOfLine(line);
    const prose = line.length > 150 || (!look.plausible && line.length > 80);
    if (out.length === 0 ? !look.plausible : prose) {
      if (out.length > 0) break;
      continue;
    }
    out.push(line);
  }
  return out;
}

/** Two lines at least, most of them with an amount, a unit or a food; some with an amount, and some from a kitchen. */
function plausibleList(lines: readonly string[]): boolean {
  if (lines.length < 2) return false;
  const looks = lines.map(lookOfLine);
  const count = (has: (l: (typeof looks)[number]) => boolean) => looks.filter(has).length;
  const some = Math.max(1, 0.3 * lines.length);
  return count((l) => l.plausible) >= 0.6 * lines.length && count((l) => l.amount) >= some && count((l) => l.kitchen) >= some;
}

/** "1.", "2)", "Step 3:", "Trinn 4" before a step. */
const STEP_NUMBER = /^(?:(?:step|trinn|steg|schritt|trin)\s*\d{1,2}\s*[.):-]?|\d{1,2}\s*[.)]|\d{1,2}\s*:(?!\d))\s*/iu;

/** The steps under a method heading, up to a heading of its level or higher, or one that ends a recipe. */
function stepSection(blocks: readonly Block[], from: number, level: number, first: string | null): string[] {
  const out: string[] = first === null ? [] : [first];
  for (let k = from; k < blocks.length && k < from + MAX_SECTION; k++) {
    const b = blocks[k]!;
    // Another method heading opens a section of its own: its steps follow these.
    if (b.opens !== null) break;
    if (b.kind === 'heading' && b.level <= level) break;
    // Under a line standing as the heading, the next such line that names no group ("Del opskriften") ends the steps.
    if (level === 7 && b.kind === 'line' && isSubheading(b) && !isGroupLabel(b.text)) break;
    if (!isSubheading(b)) out.push(b.text);
  }
  return out
    .map((s) => s.replace(STEP_NUMBER, ''))
    .filter((s) => /\p{L}.*\p{L}/u.test(s) && !isGroupLabel(s) && !isAboutTheRecipe(s));
}

// ---------------------------------------------------------------------------------------------------------------
// Servings and times, when written plainly

const RANGE = '\\d{1,3}(?:\\s*[-–]\\s*\\d{1,3})?';
const SERVES_AFTER = new RegExp(`(?<![\\p{L}\\d.,])${RANGE}\\s*(?:porsjoner|porsjonar|porsjon|personer|personen|person|pers\\.?|portioner|portionen|portion|portions|servings|people|kuverter)(?![\\p{L}])`, 'iu');
const SERVES_BEFORE = new RegExp(`(?<![\\p{L}])(?:serves|servings|yields?|makes|antall porsjoner|porsjoner|antal portioner|portioner|portionen|antall|personer)\\s*:?\\s*${RANGE}(?![\\d\\p{L}])`, 'iu');

function firstMatch(texts: readonly string[], patterns: readonly RegExp[]): string | null {
  for (const t of texts) {
    for (const pattern of patterns) {
      const m = pattern.exec(t);
      if (m !== null) return tidy(m[0]);
    }
  }
  return null;
}

/** "Tid: 30 min" or "Für 2 Personen" standing among the steps: what the page says about the recipe, not a step. */
function isAboutTheRecipe(line: string): boolean {
  if (line.length > 60) return false;
  return [SERVES_AFTER, SERVES_BEFORE, TOTAL, PREP, COOK].some((p) => (p.exec(line)?.index ?? Infinity) <= 5) && /\d/.test(line);
}

/** A label at the start of a line or after a separator ("4 porsjoner · Tid: 30 min"), never inside a word. */
const label = (words: string) => new RegExp(`(?:^|[|·•,;/]\\s*|\\s[-–]\\s*)(?:${words})\\s*:?\\s*`, 'iu');
const TOTAL = label('total time|totaltid|total tid|tid i alt|tid totalt|samlet tid|tidsbruk|ready in|gesamtzeit|tid|time|zeit');
const PREP = label('prep time|preparation time|prep|forberedelsestid|forberedelse|arbeidstid|aktiv tid|arbejdstid|arbetstid|arbeitszeit|vorbereitungszeit|zubereitungszeit');
const COOK = label('cook time|cooking time|koketid|steketid|baketid|ovnstid|tilberedningstid|tillagningstid|kochzeit|backzeit|garzeit|koktid|stektid|ugnstid|bagetid|stegetid');
const PART = /^(\d{1,4})\s*(timer|timar|time|timmar|timme|tim|hours?|hrs?|h|t|std\.?|stunden?|minutter|minuttar|minutes?|minuter|minuten|mins?\.?|m)(?![\p{L}])\s*(?:(?:og|and|und|och|,)\s*)?/iu;

/** Minutes written after the label: "1 time og 20 minutter", "1 hour 20 mins", "45 Min."; null when none. */
function durationAfter(texts: readonly string[], pattern: RegExp): number | null {
  for (const t of texts) {
    const m = pattern.exec(t);
    if (m === null) continue;
    let rest = t.slice(m.index + m[0].length);
    let total = 0;
    for (let parts = 0, p = PART.exec(rest); p !== null && parts < 3; parts++, p = PART.exec(rest)) {
      total += Number(p[1]) * (/^(?:m|min)/i.test(p[2]!) ? 1 : 60);
      rest = rest.slice(p[0].length);
    }
    if (total > 0) return total;
  }
  return null;
}
