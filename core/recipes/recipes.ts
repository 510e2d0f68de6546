import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { PageCursors } from '../../ports/page-cursors.js';
import type { RecipeImage, RecipeImageFetcher, RecipeImageStore } from '../../ports/recipe-image.js';
import type { RecipePageQuery, RecipeStore, RecipeWriteRefusal } from '../../ports/recipe-store.js';
import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { nextCursor, openCursor, type CursorScope } from '../kernel/paging.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { recipeSearchKey, recipeTag, recipeTagsOf } from './tags.js';
import { recipeTitleKey, type Recipe, type RecipeContent, type RecipeId, type RecipePosition, type RecipeSummary, type RecipeTagCount } from './types.js';

export interface RecipeDeps {
  households: HouseholdStore;
  recipes: RecipeStore;
  recipeImages: RecipeImageStore;
  recipeImageFetcher: RecipeImageFetcher;
  pageCursors: PageCursors;
  ids: IdGenerator;
  clock: Clock;
}

/** A line as the household writes it; the food key is the server's. */
export interface IngredientInput {
  readonly displayName: string;
  readonly quantity: number | null;
  readonly unit: string | null;
  readonly optional: boolean;
  readonly baseRecipeId: RecipeId | null;
  readonly reference: string | null;
}

/**
 * A recipe as a client sends it. sourceUrl, imageUrl and tags may be left out (clients older than recipe import, or
 * than tags): a new recipe then has none, a replaced one keeps what it had. null clears an address; [] the tags.
 * Tags are kept in tag form, each once (recipeTagsOf).
 */
export type RecipeInput = Omit<RecipeContent, 'ingredients' | 'sourceUrl' | 'imageUrl' | 'tags'> & {
  readonly ingredients: readonly IngredientInput[];
  readonly sourceUrl?: string | null;
  readonly imageUrl?: string | null;
  readonly tags?: readonly string[];
};

export interface RecipeListQuery {
  /** Part of the title, of an ingredient's name or of a tag, any case; null or blank: every recipe. */
  readonly q: string | null;
  /** Only recipes carrying this tag, any case (recipeTag); null, blank or left out: every recipe. */
  readonly tag?: string | null;
  readonly cursor: string | null;
  readonly limit: number;
}

export interface RecipeList<T = Recipe> {
  readonly items: T[];
  /** null on the last page. */
  readonly nextCursor: string | null;
  readonly total: number;
}

type Denied = ErrorOf<'household-not-found' | 'adults-only'>;
type WriteRefused = ErrorOf<'base-recipe-unknown' | 'recipe-cycle'>;

type KeptWhenLeftOut = Pick<RecipeContent, 'sourceUrl' | 'imageUrl' | 'tags'>;

const contentOf = (input: RecipeInput, before: KeptWhenLeftOut = { sourceUrl: null, imageUrl: null, tags: [] }): RecipeContent => ({
  sourceUrl: input.sourceUrl === undefined ? before.sourceUrl : input.sourceUrl,
  imageUrl: input.imageUrl === undefined ? before.imageUrl : input.imageUrl,
  tags: recipeTagsOf(input.tags ?? before.tags),
  title: input.title,
  servings: input.servings,
  activeMinutes: input.activeMinutes,
  totalMinutes: input.totalMinutes,
  steps: [...input.steps],
  ingredients: input.ingredients.map((i) => ({
    displayName: i.displayName,
    foodKey: normalizeFoodKey(i.displayName),
    quantity: i.quantity,
    unit: i.unit,
    optional: i.optional,
    baseRecipeId: i.baseRecipeId,
    reference: i.reference,
  })),
});

const refusal = (r: RecipeWriteRefusal): WriteRefused =>
  r.refused === 'cycle' ? { type: 'recipe-cycle' } : { type: 'base-recipe-unknown', baseRecipeId: r.baseRecipeId };

const isRefusal = (x: Recipe | RecipeWriteRefusal | null): x is RecipeWriteRefusal => x !== null && 'refused' in x;

/** A new recipe (adults only). Its base recipes must be the household's; a new recipe cannot close a cycle. */
export async function createRecipe(
  deps: RecipeDeps,
  caller: Account,
  householdId: HouseholdId,
  input: RecipeInput,
): Promise<Result<Recipe, Denied | WriteRefused>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const saved = await deps.recipes.create(householdId, deps.ids.newId(), contentOf(input), deps.clock.now());
  return isRefusal(saved) ? fail(refusal(saved)) : ok(await keepImage(deps, saved));
}

/**
 * Makes the kept picture follow the recipe's imageUrl, after the recipe is written: a new address is fetched through
 * the outbound guard and kept when its bytes are a JPEG, PNG or WebP (ports/recipe-image.ts); no address, or one
 * that gives no such image, keeps none. A picture never stops a recipe from being saved: it is simply absent.
 */
async function keepImage(deps: Pick<RecipeDeps, 'recipeImages' | 'recipeImageFetcher'>, recipe: Recipe): Promise<Recipe> {
  if (recipe.imageUrl === recipe.image?.sourceUrl || (recipe.imageUrl === null && recipe.image === null)) return recipe;
  const fetched = recipe.imageUrl === null ? null : await deps.recipeImageFetcher.fetch(recipe.imageUrl);
  if (fetched?.ok && (await deps.recipeImages.put(recipe.householdId, recipe.id, fetched.image))) {
    const { sourceUrl, mediaType, etag } = fetched.image;
    return { ...recipe, image: { sourceUrl, mediaType, etag } };
  }
  if (recipe.image !== null) await deps.recipeImages.remove(recipe.householdId, recipe.id);
  return { ...recipe, image: null };
}

export async function getRecipe(
  deps: Pick<RecipeDeps, 'households' | 'recipes'>,
  caller: Account,
  householdId: HouseholdId,
  recipeId: RecipeId,
): Promise<Result<Recipe, ErrorOf<'household-not-found' | 'recipe-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const recipe = await deps.recipes.byId(householdId, recipeId);
  return recipe ? ok(recipe) : fail({ type: 'recipe-not-found' });
}

// A cursor is bound to the household and the filters it was handed out for: any other list refuses it.
const scopeOf = (householdId: HouseholdId, textContains: string | null, tag: string | null): CursorScope => ({
  scope: `recipes\n${householdId}\n${textContains ?? ''}\n${tag ?? ''}`,
  boundTo: 'this household, q and tag',
});

const filterOf = (text: string | null | undefined, form: (s: string) => string): string | null => {
  const key = text == null ? '' : form(text);
  return key === '' ? null : key;
};

type ListDeps = Pick<RecipeDeps, 'households' | 'recipes' | 'pageCursors'>;
type ListRefusal = ErrorOf<'household-not-found' | 'page-cursor-invalid'>;

/**
 * A page of the household's recipes by title (any case), then id. `q` narrows to those whose title, an
 * ingredient's name or a tag contains it, `tag` to those carrying that tag (any case, Norwegian letters included).
 */
export async function listRecipes(deps: ListDeps, caller: Account, householdId: HouseholdId, query: RecipeListQuery): Promise<Result<RecipeList, ListRefusal>> {
  return listBy(deps, caller, householdId, query, (where) => deps.recipes.page(householdId, where));
}

/**
 * The same page as listRecipes, each recipe as its summary (no steps; of the lines, their names): what a list or a
 * picker shows, a fraction of the bytes. Its cursors are those of listRecipes for the same household, q and tag.
 */
export async function listRecipeSummaries(deps: ListDeps, caller: Account, householdId: HouseholdId, query: RecipeListQuery): Promise<Result<RecipeList<RecipeSummary>, ListRefusal>> {
  return listBy(deps, caller, householdId, query, (where) => deps.recipes.summaryPage(householdId, where));
}

async function listBy<T extends { readonly id: RecipeId; readonly title: string }>(
  deps: ListDeps,
  caller: Account,
  householdId: HouseholdId,
  query: RecipeListQuery,
  read: (where: RecipePageQuery) => Promise<{ items: T[]; total: number; more: boolean }>,
): Promise<Result<RecipeList<T>, ListRefusal>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const textContains = filterOf(query.q, recipeSearchKey);
  const tag = filterOf(query.tag, recipeTag);
  const where = scopeOf(householdId, textContains, tag);
  const after = openCursor(deps.pageCursors, where, query.cursor, (p): RecipePosition | null => (p.length === 2 ? { titleKey: p[0]!, id: p[1]! } : null));
  if (!after.ok) return after;
  const page = await read({ titleKeyContains: null, textContains, tag, after: after.value, limit: query.limit });
  const next = nextCursor(deps.pageCursors, where, page.items, page.more, (r) => [recipeTitleKey(r.title), r.id]);
  return ok({ items: page.items, nextCursor: next, total: page.total });
}

/**
 * Full replacement (adults only): every field and every line is written anew; createdAt stays. sourceUrl and
 * imageUrl left out keep their values; null clears them.
 */
export async function replaceRecipe(
  deps: RecipeDeps,
  caller: Account,
  householdId: HouseholdId,
  recipeId: RecipeId,
  input: RecipeInput,
): Promise<Result<Recipe, Denied | WriteRefused | ErrorOf<'recipe-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  // Clients older than recipe import send neither address, those older than tags no tags: the recipe keeps what it had.
  const leftOut = input.sourceUrl === undefined || input.imageUrl === undefined || input.tags === undefined;
  const before = leftOut ? await deps.recipes.byId(householdId, recipeId) : null;
  const saved = await deps.recipes.replace(householdId, recipeId, contentOf(input, before ?? undefined), deps.clock.now());
  if (saved === null) return fail({ type: 'recipe-not-found' });
  return isRefusal(saved) ? fail(refusal(saved)) : ok(await keepImage(deps, saved));
}

/**
 * Deletes a recipe (adults only). Plan days that served it keep the day without a dish; lines of other recipes
 * that used it as their base keep their place as a named reference to its title (see RecipeStore.delete).
 */
export async function deleteRecipe(
  deps: Pick<RecipeDeps, 'households' | 'recipes' | 'clock'>,
  caller: Account,
  householdId: HouseholdId,
  recipeId: RecipeId,
): Promise<Result<void, Denied | ErrorOf<'recipe-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  return (await deps.recipes.delete(householdId, recipeId, deps.clock.now())) ? ok(undefined) : fail({ type: 'recipe-not-found' });
}

/**
 * The tags the household's recipes carry (any member), each with how many carry it: the most carried first, then by
 * tag; at most `limit` of them, with the number of tags in all.
 */
export async function listRecipeTags(
  deps: Pick<RecipeDeps, 'households' | 'recipes'>,
  caller: Account,
  householdId: HouseholdId,
  limit: number,
): Promise<Result<{ readonly items: RecipeTagCount[]; readonly total: number }, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const counts = await deps.recipes.tagCounts(householdId);
  const items = [...counts].sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return ok({ items: items.slice(0, limit), total: items.length });
}

/** The kept picture of a recipe (any member), with its type and ETag. */
export async function recipeImage(
  deps: Pick<RecipeDeps, 'households' | 'recipeImages'>,
  caller: Account,
  householdId: HouseholdId,
  recipeId: RecipeId,
): Promise<Result<RecipeImage, ErrorOf<'household-not-found' | 'recipe-image-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const image = await deps.recipeImages.get(householdId, recipeId);
  return image ? ok(image) : fail({ type: 'recipe-image-not-found' });
}
