import type { Recipe, RecipeImportPreview } from '../../api';
import { language, t } from '../../i18n';

type Line = Recipe['ingredients'][number];
/** One ingredient line as the form holds it: the amount as typed (comma or point), the rest as the service has it. */
export interface Row {
  readonly key: number;
  readonly quantity: string;
  readonly unit: string;
  readonly displayName: string;
  readonly optional: boolean;
  /** The page's own text of a line read by an import that is not sure of it: the person should look. */
  readonly check?: string | undefined;
  /** Kept as they are: the form does not edit base recipes or references yet. */
  readonly baseRecipeId: string | null;
  readonly reference: string | null;
}

/** The recipe form as typed: one value, changed only through `formStep`. */
export interface RecipeForm {
  readonly title: string;
  readonly servings: string;
  readonly minutes: string;
  readonly rows: readonly Row[];
  readonly steps: string;
  /** Lines typed or pasted, waiting to be read by the service. */
  readonly quick: string;
  /** The recipe's tags, each a chip that can be removed; what is being typed of the next one. */
  readonly tags: readonly string[];
  readonly tagDraft: string;
}

/** As many tags as a recipe may carry (the service answers value_too_long past it). */
export const TAGS_MAX = 12;
/** As long as one tag may be. */
export const TAG_MAX = 32;

export type FormChange =
  | { readonly type: 'loaded'; readonly recipe: Recipe }
  | { readonly type: 'field'; readonly field: 'title' | 'servings' | 'minutes' | 'steps' | 'quick'; readonly value: string }
  | { readonly type: 'line'; readonly key: number; readonly patch: Partial<Pick<Row, 'quantity' | 'unit' | 'displayName' | 'optional'>> }
  | { readonly type: 'removeLine'; readonly key: number }
  /** Typing in the tag field: a comma ends a tag; `done` (Enter) ends the one being typed. */
  | { readonly type: 'tagTyped'; readonly value: string; readonly done?: boolean }
  | { readonly type: 'removeTag'; readonly tag: string }
  | { readonly type: 'linesRead'; readonly lines: readonly Pick<Line, 'quantity' | 'unit' | 'displayName' | 'optional'>[] };

let nextKey = 1;

const rowOf = (i: Pick<Line, 'quantity' | 'unit' | 'displayName' | 'optional' | 'baseRecipeId' | 'reference'>): Row => ({
  key: nextKey++,
  quantity: i.quantity === null ? '' : String(i.quantity).replace('.', language.value === 'en' ? '.' : ','),
  // The service keeps one spelling per unit (tbsp, pcs); the form shows the one this language writes (ss, stk).
  unit: i.unit === null ? '' : (t.value.unitShown[i.unit] ?? i.unit),
  displayName: i.displayName,
  optional: i.optional,
  baseRecipeId: i.baseRecipeId,
  reference: i.reference,
});

const formOfRecipe = (r: Recipe): RecipeForm => ({
  title: r.title,
  servings: String(r.servings),
  minutes: r.totalMinutes === null ? '' : String(r.totalMinutes),
  rows: r.ingredients.map(rowOf),
  steps: r.steps.join('\n'),
  quick: '',
  tags: r.tags,
  tagDraft: '',
});

/**
 * The tags after `typed`: each part before a comma (all of it when `done`) is a new chip, unless it is blank or a chip
 * already (in any case: the service keeps a tag once); the rest stays in the field being typed. Past TAGS_MAX nothing
 * is added and what was typed stays in the field, where the person sees it was not taken.
 */
function withTyped(form: RecipeForm, typed: string, done: boolean): Pick<RecipeForm, 'tags' | 'tagDraft'> {
  const parts = typed.split(',');
  const rest = done ? '' : (parts.pop() ?? '');
  const tags = [...form.tags];
  const left: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (tag === '' || tags.some((t) => t.toLowerCase() === tag.toLowerCase())) continue;
    if (tags.length < TAGS_MAX) tags.push(tag);
    else left.push(tag);
  }
  return { tags, tagDraft: left.length === 0 ? rest : [...left, rest].filter((p) => p !== '').join(', ') };
}

/** The form a new recipe starts from: empty, or a recipe read from a page with the lines the reader was unsure of marked. */
export function startingForm(draft: RecipeImportPreview | null): RecipeForm {
  if (!draft) return { title: '', servings: '4', minutes: '', rows: [], steps: '', quick: '', tags: [], tagDraft: '' };
  const r = draft.recipe;
  return {
    title: r.title,
    servings: String(r.servings),
    minutes: r.totalMinutes == null ? '' : String(r.totalMinutes),
    rows: r.ingredients.map((i, n) => ({ ...rowOf(i), ...(draft.lines[n] && draft.lines[n].confidence !== 'high' ? { check: draft.lines[n].original } : {}) })),
    steps: r.steps.join('\n'),
    quick: '',
    tags: [],
    tagDraft: '',
  };
}

export function formStep(form: RecipeForm, change: FormChange): RecipeForm {
  switch (change.type) {
    case 'loaded':
      return formOfRecipe(change.recipe);
    case 'field':
      return { ...form, [change.field]: change.value };
    // A changed line has been looked at: its mark goes.
    case 'line':
      return { ...form, rows: form.rows.map((r) => (r.key === change.key ? { ...r, ...change.patch, check: undefined } : r)) };
    case 'removeLine':
      return { ...form, rows: form.rows.filter((r) => r.key !== change.key) };
    case 'tagTyped':
      return { ...form, ...withTyped(form, change.value, change.done ?? false) };
    case 'removeTag':
      return { ...form, tags: form.tags.filter((t) => t !== change.tag) };
    case 'linesRead':
      return { ...form, quick: '', rows: [...form.rows, ...change.lines.map((l) => rowOf({ ...l, baseRecipeId: null, reference: null }))] };
  }
}

/** A typed amount as a number: "1,5" and "1.5" alike; NaN when it is not one. */
const amountOf = (s: string) => (s.trim() === '' ? null : Number(s.trim().replace(',', '.')));

/**
 * What saving sends. An import keeps where it came from and its picture; an edit sends neither, so the recipe keeps
 * its own. The active minutes the form does not show are kept while they still fit in the total.
 */
export function bodyOf(form: RecipeForm, draft: RecipeImportPreview | null, loaded: Recipe | null) {
  const total = form.minutes.trim() === '' ? null : Number(form.minutes);
  return {
    ...(draft ? { sourceUrl: draft.recipe.sourceUrl, imageUrl: draft.recipe.imageUrl } : {}),
    title: form.title,
    servings: Number(form.servings),
    activeMinutes: loaded && total !== null && loaded.activeMinutes !== null && loaded.activeMinutes <= total ? loaded.activeMinutes : null,
    totalMinutes: total,
    steps: form.steps.split('\n').map((s) => s.trim()).filter((s) => s !== ''),
    // A tag typed but not yet ended with Enter or a comma is saved too.
    tags: [...withTyped(form, form.tagDraft, true).tags],
    ingredients: form.rows.map((r) => ({
      displayName: r.displayName,
      quantity: amountOf(r.quantity),
      unit: r.unit.trim() === '' ? null : r.unit.trim(),
      optional: r.optional,
      baseRecipeId: r.baseRecipeId,
      reference: r.reference,
    })),
  };
}
