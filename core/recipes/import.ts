import type { HouseholdStore } from '../../ports/household-store.js';
import type { RateGate } from '../../ports/rate-gate.js';
import type { ExtractedRecipe } from '../../ports/recipe-page.js';
import type { RecipePageReader } from '../../ports/recipe-page-reader.js';
import type { Account } from '../accounts/types.js';
import { requireAdult } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { parseIngredientLine } from './ingredient-line.js';
import type { IngredientInput, RecipeInput } from './recipes.js';
import { RECIPE_LIMITS as L } from './types.js';

/**
 * Recipe import from a web page: the recipe the page holds, as the RecipeRequest it would save, with what the person
 * should look at before saving it. Nothing is written: the client saves it, edited or not, through the create route.
 */
export interface RecipeImportDeps {
  households: HouseholdStore;
  recipePages: RecipePageReader;
  /** The household's import budget: every import fetches a page from outside. */
  importGate: RateGate;
}

/** Either an address to fetch, or HTML a person saved (a page behind a login), with its address when known. */
export type RecipeImportSource = { readonly url: string } | { readonly html: string; readonly url: string | null };

/** How one ingredient line was read: the text on the page and how sure the parser is. */
export interface ImportedLine {
  readonly original: string;
  readonly confidence: 'high' | 'medium' | 'low';
  readonly note: string | null;
  readonly flags: readonly string[];
}

export interface RecipeImportPreview {
  /** What the create route would save; ingredients[i] was read from lines[i]. */
  readonly recipe: RecipeInput;
  readonly lines: readonly ImportedLine[];
  readonly sourceUrl: string | null;
  readonly imageUrl: string | null;
  /** The page's yield as written ("4 porsjoner", "Serves 4-6"). */
  readonly yields: string | null;
  /** Codes of what the person should know: the extractor's, then servings_guessed, lines_dropped. */
  readonly warnings: readonly string[];
}

/** Servings when the page gives none: a common family dinner, flagged so the person checks it. */
export const DEFAULT_IMPORT_SERVINGS = 4;

type Refused = ErrorOf<'household-not-found' | 'adults-only' | 'recipe-page-failed' | 'recipe-import-throttled'>;

export async function previewRecipeImport(
  deps: RecipeImportDeps,
  caller: Account,
  householdId: HouseholdId,
  source: RecipeImportSource,
): Promise<Result<RecipeImportPreview, Refused>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  // Only a fetch from outside costs the budget; HTML the person sent is read here and nowhere else.
  if (!('html' in source)) {
    const gate = await deps.importGate(householdId);
    if (!gate.allowed) return fail({ type: 'recipe-import-throttled', retryAfterSec: gate.retryAfterSec });
  }
  const read = 'html' in source ? await deps.recipePages.fromHtml(source.html, source.url) : await deps.recipePages.fromUrl(source.url);
  if (!read.ok) return fail({ type: 'recipe-page-failed', reason: read.reason });
  return ok(previewOf(read.recipe, read.url));
}

/** A recipe as read from somewhere (a page, pasted text, a picture), before its lines are parsed. */
export type RecipeRead = Omit<ExtractedRecipe, 'source'>;

/** The preview of an extracted recipe: each line parsed, the limits of a RecipeRequest kept. */
export function previewOf(page: RecipeRead, url: string | null): RecipeImportPreview {
  const warnings = [...page.warnings];
  const ingredients: IngredientInput[] = [];
  const lines: ImportedLine[] = [];
  let dropped = 0;
  for (const text of page.ingredientLines) {
    const parsed = parseIngredientLine(text);
    // A line with no letter or digit ("—", "•") is a separator on the page, and "Til sausen:" a heading of a group:
    // neither is something to buy.
    if (parsed.flags.includes('not_an_ingredient') || parsed.flags.includes('heading')) {
      dropped++;
      continue;
    }
    if (ingredients.length >= L.ingredientsMax) break;
    ingredients.push({ displayName: parsed.displayName, quantity: parsed.quantity, unit: parsed.unit, optional: parsed.optional, baseRecipeId: null, reference: null });
    lines.push({ original: parsed.original, confidence: parsed.confidence, note: parsed.note, flags: parsed.flags });
  }
  if (dropped > 0) warnings.push('lines_dropped');
  const servings = page.servings !== null && page.servings >= L.servingsMin && page.servings <= L.servingsMax ? page.servings : null;
  if (servings === null) warnings.push('servings_guessed');
  const minutes = (m: number | null) => (m !== null && m >= 0 && m <= L.minutesMax ? Math.round(m) : null);
  const total = minutes(page.totalMinutes);
  const active = minutes(page.activeMinutes);
  return {
    recipe: {
      title: page.title.slice(0, L.titleMax),
      servings: servings ?? DEFAULT_IMPORT_SERVINGS,
      activeMinutes: active !== null && (total === null || active <= total) ? active : null,
      totalMinutes: total,
      steps: page.steps.filter((s) => s.trim() !== '').slice(0, L.stepsMax).map((s) => s.slice(0, L.stepMax)),
      ingredients,
      sourceUrl: url,
      imageUrl: page.imageUrl,
    },
    lines,
    sourceUrl: url,
    imageUrl: page.imageUrl,
    yields: page.yields,
    warnings,
  };
}
