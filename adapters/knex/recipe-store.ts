import type { Knex } from 'knex';
import { reachesItself } from '../../core/recipes/base-links.js';
import { pageOfSorted } from '../../core/recipes/page-order.js';
import { recipeSearchText } from '../../core/recipes/tags.js';
import { recipeTitleKey, type Ingredient, type Recipe, type RecipeContent, type RecipeImageInfo, type RecipeImageType, type RecipeTagCount } from '../../core/recipes/types.js';
import type { RecipeImage } from '../../ports/recipe-image.js';
import type { RecipePageQuery, RecipeStore, RecipeWriteRefusal } from '../../ports/recipe-store.js';
import { translated } from './errors.js';
import { keepImageRow } from './recipe-image-store.js';
import { fromJsonText, iso, toBool, toDate, toJsonText } from './rows.js';
import { childrenOf, keysetAfter } from './queries.js';
import { revisionOf } from './household-revisions.js';
import { speedOf } from './speed/index.js';
import type { KeptRecipe } from './speed/recipe-summaries.js';

export interface RecipeRow {
  id: string;
  household_id: string;
  title: string;
  title_key: string;
  servings: number | string;
  active_minutes: number | string | null;
  total_minutes: number | string | null;
  steps: string;
  source_url: string | null;
  image_url: string | null;
  /** recipeSearchText of the recipe: what `q` is looked for in (migration 0045). */
  search_text?: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface IngredientRow {
  recipe_id: string;
  position: number | string;
  household_id: string;
  display_name: string;
  food_key: string;
  quantity: number | string | null;
  unit: string | null;
  optional: boolean | number;
  base_recipe_id: string | null;
  reference: string | null;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toIngredient = (r: IngredientRow): Ingredient => ({
  displayName: r.display_name,
  foodKey: r.food_key,
  quantity: num(r.quantity),
  unit: r.unit,
  optional: toBool(r.optional),
  baseRecipeId: r.base_recipe_id,
  reference: r.reference,
});

interface TagRow {
  recipe_id: string;
  position: number | string;
  household_id: string;
  tag: string;
}

interface ImageInfoRow {
  recipe_id: string;
  source_url: string | null;
  media_type: string;
  etag: string;
}

const imageInfo = (image: ImageInfoRow): RecipeImageInfo => ({ sourceUrl: image.source_url, mediaType: image.media_type as RecipeImageType, etag: image.etag });

/** What a recipe and its summary both say of its row. */
const headOf = (r: RecipeRow) => ({
  id: r.id,
  householdId: r.household_id,
  title: r.title,
  servings: Number(r.servings),
  activeMinutes: num(r.active_minutes),
  totalMinutes: num(r.total_minutes),
  updatedAt: toDate(r.updated_at),
});

/** A recipe of its rows; a read that takes no tags or picture (the shopping list's inputs) leaves them out. */
export const toRecipe = (r: RecipeRow, lines: readonly IngredientRow[], image: ImageInfoRow | null = null, tags: readonly string[] = []): Recipe => ({
  ...headOf(r),
  image: image ? imageInfo(image) : null,
  steps: fromJsonText<string[]>(r.steps),
  ingredients: lines.map(toIngredient),
  sourceUrl: r.source_url,
  imageUrl: r.image_url,
  tags: [...tags],
  createdAt: toDate(r.created_at),
});

const contentColumns = (c: RecipeContent) => ({
  title: c.title,
  title_key: recipeTitleKey(c.title),
  servings: c.servings,
  active_minutes: c.activeMinutes,
  total_minutes: c.totalMinutes,
  steps: toJsonText(c.steps),
  source_url: c.sourceUrl,
  image_url: c.imageUrl,
  search_text: recipeSearchText(c),
});

const lineRows = (householdId: string, recipeId: string, c: RecipeContent): IngredientRow[] =>
  c.ingredients.map((i, position) => ({
    recipe_id: recipeId,
    position,
    household_id: householdId,
    display_name: i.displayName,
    food_key: i.foodKey,
    quantity: i.quantity,
    unit: i.unit,
    optional: i.optional,
    base_recipe_id: i.baseRecipeId,
    reference: i.reference,
  }));

const tagRows = (householdId: string, recipeId: string, c: RecipeContent): TagRow[] =>
  (c.tags ?? []).map((tag, position) => ({ recipe_id: recipeId, position, household_id: householdId, tag }));

/** recipe id → its tags in order, of rows read in (recipe_id, position) order. */
function tagsByRecipe(rows: readonly Pick<TagRow, 'recipe_id' | 'tag'>[]): Map<string, string[]> {
  const byRecipe = new Map<string, string[]>();
  for (const t of rows) (byRecipe.get(t.recipe_id) ?? byRecipe.set(t.recipe_id, []).get(t.recipe_id)!).push(t.tag);
  return byRecipe;
}

const basesOf = (c: RecipeContent) => [...new Set(c.ingredients.map((i) => i.baseRecipeId).filter((b): b is string => b !== null))];

/** LIKE pattern for "contains", with the wildcards of the text escaped. */
const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Serializes the recipe writes of one household for the rest of the transaction, so that the base checks and
 * the write are one step (SQLite: the single connection and its write lock already do).
 */
async function lockHousehold(trx: Knex.Transaction, householdId: string) {
  if (trx.client.config.client === 'pg') await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`recipes:${householdId}`]);
}

async function withLines(db: Knex | Knex.Transaction, rows: readonly RecipeRow[]): Promise<Recipe[]> {
  if (rows.length === 0) return [];
  const lines = (await childrenOf(db, 'recipe_ingredients', 'recipe_id', rows).orderBy([{ column: 'recipe_id' }, { column: 'position' }])) as IngredientRow[];
  const byRecipe = new Map<string, IngredientRow[]>();
  for (const l of lines) (byRecipe.get(l.recipe_id) ?? byRecipe.set(l.recipe_id, []).get(l.recipe_id)!).push(l);
  // The pictures' descriptions, never their bytes.
  const images = (await childrenOf(db, 'recipe_images', 'recipe_id', rows).select('recipe_id', 'source_url', 'media_type', 'etag')) as ImageInfoRow[];
  const imageOf = new Map(images.map((i) => [i.recipe_id, i]));
  const tags = tagsByRecipe((await childrenOf(db, 'recipe_tags', 'recipe_id', rows).orderBy([{ column: 'recipe_id' }, { column: 'position' }]).select('recipe_id', 'tag')) as TagRow[]);
  return rows.map((r) => toRecipe(r, byRecipe.get(r.id) ?? [], imageOf.get(r.id) ?? null, tags.get(r.id) ?? []));
}

async function one(db: Knex | Knex.Transaction, householdId: string, recipeId: string): Promise<Recipe | null> {
  const row = (await db<RecipeRow>('recipes').where({ household_id: householdId, id: recipeId }).first()) as RecipeRow | undefined;
  return row ? ((await withLines(db, [row]))[0] ?? null) : null;
}

/** The first base that is not a recipe of the household (`self` counts as known: the cycle check refuses it). */
async function unknownBase(trx: Knex.Transaction, householdId: string, bases: readonly string[], self: string | null): Promise<string | null> {
  const wanted = bases.filter((b) => b !== self);
  if (wanted.length === 0) return null;
  const found = new Set(((await trx('recipes').where({ household_id: householdId }).whereIn('id', wanted).select('id')) as { id: string }[]).map((r) => r.id));
  return wanted.find((b) => !found.has(b)) ?? null;
}

async function refusal(trx: Knex.Transaction, householdId: string, recipeId: string, content: RecipeContent): Promise<RecipeWriteRefusal | null> {
  const bases = basesOf(content);
  const unknown = await unknownBase(trx, householdId, bases, recipeId);
  if (unknown !== null) return { refused: 'unknown-base', baseRecipeId: unknown };
  const rows = (await trx('recipe_ingredients')
    .where({ household_id: householdId })
    .whereNotNull('base_recipe_id')
    .select('recipe_id', 'base_recipe_id')) as { recipe_id: string; base_recipe_id: string }[];
  const links = new Map<string, string[]>();
  for (const r of rows) (links.get(r.recipe_id) ?? links.set(r.recipe_id, []).get(r.recipe_id)!).push(r.base_recipe_id);
  links.set(recipeId, bases);
  return reachesItself(recipeId, links) ? { refused: 'cycle' } : null;
}

async function writeLines(trx: Knex.Transaction, householdId: string, recipeId: string, content: RecipeContent) {
  const rows = lineRows(householdId, recipeId, content);
  // Chunks stay well under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 50) await trx('recipe_ingredients').insert(rows.slice(i, i + 50));
  const tags = tagRows(householdId, recipeId, content);
  if (tags.length > 0) await trx('recipe_tags').insert(tags);
}

/** What a page reads of a recipe's row: all but search_text. */
const PAGE_COLUMNS = ['id', 'household_id', 'title', 'title_key', 'servings', 'active_minutes', 'total_minutes', 'steps', 'source_url', 'image_url', 'created_at', 'updated_at'];

/**
 * The rows of the page the query asks for, with the number of every match and whether more follow.
 * search_text, the widest column, is read by the filter, never sent back. (Counting in the same pass, a window over
 * every match, was slower: it sorts every match's row, steps and all, in a temporary B-tree; W10.)
 */
async function pageRows(knex: Knex, householdId: string, query: RecipePageQuery): Promise<{ rows: RecipeRow[]; total: number; more: boolean }> {
  const matching = () => matchingRecipes(knex, householdId, query);
  const counted = (await matching().count<{ n: number | string }[]>({ n: '*' })) as { n: number | string }[];
  const rows = matching().select(PAGE_COLUMNS);
  const after = query.after;
  if (after) rows.andWhere((w) => keysetAfter(w, [['title_key', '>', after.titleKey], ['id', '>', after.id]]));
  const found = (await rows.orderBy([{ column: 'title_key' }, { column: 'id' }]).limit(query.limit + 1)) as RecipeRow[];
  return { rows: found.slice(0, query.limit), total: Number(counted[0]?.n ?? 0), more: found.length > query.limit };
}

/** The household's four reads at once on the pool; one after another on a transaction, whose one connection takes one query at a time. */
async function readsOf<A, B, C, D>(knex: Knex, reads: readonly [() => Promise<A>, () => Promise<B>, () => Promise<C>, () => Promise<D>]): Promise<[A, B, C, D]> {
  if (knex.isTransaction) return [await reads[0](), await reads[1](), await reads[2](), await reads[3]()];
  return Promise.all([reads[0](), reads[1](), reads[2](), reads[3]()]);
}

/** What a kept summary reads of a recipe's row: neither steps nor the addresses. */
const KEPT_COLUMNS = ['id', 'household_id', 'title', 'title_key', 'search_text', 'servings', 'active_minutes', 'total_minutes', 'updated_at'];

/**
 * Every recipe of the household as lists show it, in page order: four reads by household whatever the number of
 * recipes (readsOf).
 */
async function readKept(knex: Knex, householdId: string): Promise<KeptRecipe[]> {
  const reads = [
    // Page order (title key, then id) by the database, which compares both by code point (SQLite BINARY, Postgres "C").
    () => knex<RecipeRow>('recipes').where({ household_id: householdId }).orderBy([{ column: 'title_key' }, { column: 'id' }]).select(KEPT_COLUMNS) as Promise<RecipeRow[]>,
    () =>
      knex('recipe_ingredients')
        .where({ household_id: householdId })
        .orderBy([{ column: 'recipe_id' }, { column: 'position' }])
        .select('recipe_id', 'display_name') as Promise<Pick<IngredientRow, 'recipe_id' | 'display_name'>[]>,
    () => knex('recipe_images').where({ household_id: householdId }).select('recipe_id', 'source_url', 'media_type', 'etag') as Promise<ImageInfoRow[]>,
    () => knex('recipe_tags').where({ household_id: householdId }).orderBy([{ column: 'recipe_id' }, { column: 'position' }]).select('recipe_id', 'tag') as Promise<TagRow[]>,
  ] as const;
  const [rows, lines, images, tagList] = await readsOf(knex, reads);
  const names = new Map<string, string[]>();
  for (const l of lines) (names.get(l.recipe_id) ?? names.set(l.recipe_id, []).get(l.recipe_id)!).push(l.display_name);
  const imageOf = new Map(images.map((i) => [i.recipe_id, i]));
  const tags = tagsByRecipe(tagList);
  return rows
    .map((r): KeptRecipe => {
      const image = imageOf.get(r.id);
      const recipeTags = tags.get(r.id) ?? [];
      return {
        id: r.id,
        titleKey: r.title_key,
        searchText: r.search_text ?? '',
        tags: recipeTags,
        summary: { ...headOf(r), ingredientNames: names.get(r.id) ?? [], tags: recipeTags, image: image ? imageInfo(image) : null },
      };
    });
}

/** The household's recipes that every filter of the query given holds for, in no order. */
function matchingRecipes(knex: Knex, householdId: string, query: RecipePageQuery): Knex.QueryBuilder {
  const q = knex<RecipeRow>('recipes').where({ household_id: householdId });
  if (query.titleKeyContains !== null) q.andWhereRaw(`title_key like ? escape '\\'`, [containsPattern(query.titleKeyContains)]);
  // Both sides are lower-cased by the service, so LIKE needs to fold no case (SQLite folds ASCII only).
  if (query.textContains != null) q.andWhereRaw(`search_text like ? escape '\\'`, [containsPattern(query.textContains)]);
  if (query.tag != null) q.whereIn('id', knex('recipe_tags').where({ household_id: householdId, tag: query.tag }).select('recipe_id'));
  return q;
}

/** RecipeStore.setImage in the caller's transaction: the recipe's row, then its picture's. */
async function setImage(trx: Knex.Transaction, householdId: string, recipeId: string, image: RecipeImage | null, at: Date): Promise<Recipe | null> {
  const updated = await trx('recipes').where({ household_id: householdId, id: recipeId }).update({ image_url: null, updated_at: iso(at) });
  if (updated === 0) return null;
  if (image === null) await trx('recipe_images').where({ recipe_id: recipeId }).delete();
  else await keepImageRow(trx, householdId, recipeId, image);
  return one(trx, householdId, recipeId);
}

/**
 * The household's recipes as lists show them, kept under its revision (speed/recipe-summaries.ts): one read of the
 * revision, and the recipes only when it moved. The revision is read before the recipes, so what is kept is never
 * older than the revision it is kept under.
 */
async function keptRecipes(knex: Knex, householdId: string): Promise<readonly KeptRecipe[]> {
  const summaries = speedOf(knex).recipeSummaries;
  const version = await revisionOf(knex, householdId);
  return (version !== null ? summaries.held(householdId, version) : undefined) ?? summaries.keep(householdId, version, await readKept(knex, householdId));
}

export function knexRecipeStore(knex: Knex): RecipeStore {
  return translated<RecipeStore>(knex, {
    async create(householdId, id, content, at) {
      return knex.transaction(async (trx) => {
        await lockHousehold(trx, householdId);
        // A recipe that does not exist yet cannot be its own base: a self-link is an unknown base here.
        const unknown = await unknownBase(trx, householdId, basesOf(content), null);
        if (unknown !== null) return { refused: 'unknown-base', baseRecipeId: unknown } as const;
        await trx('recipes').insert({ id, household_id: householdId, ...contentColumns(content), created_at: iso(at), updated_at: iso(at) });
        await writeLines(trx, householdId, id, content);
        return (await one(trx, householdId, id))!;
      });
    },
    async byId(householdId, recipeId) {
      return one(knex, householdId, recipeId);
    },
    async byIds(householdId, recipeIds) {
      const ids = [...new Set(recipeIds)];
      if (ids.length === 0) return [];
      const rows = (await knex<RecipeRow>('recipes').where({ household_id: householdId }).whereIn('id', ids)) as RecipeRow[];
      return withLines(knex, rows);
    },
    async all(householdId) {
      // Four reads by household whatever the number of recipes (the planner's candidates: a thousand is usual).
      const reads = [
        () => knex<RecipeRow>('recipes').where({ household_id: householdId }).orderBy([{ column: 'title_key' }, { column: 'id' }]) as Promise<RecipeRow[]>,
        () =>
          knex<IngredientRow>('recipe_ingredients')
            .where({ household_id: householdId })
            .orderBy([{ column: 'recipe_id' }, { column: 'position' }]) as Promise<IngredientRow[]>,
        () =>
          knex('recipe_images as i')
            .join('recipes as r', 'r.id', 'i.recipe_id')
            .where('r.household_id', householdId)
            .select('i.recipe_id', 'i.source_url', 'i.media_type', 'i.etag') as Promise<ImageInfoRow[]>,
        () =>
          knex<TagRow>('recipe_tags')
            .where({ household_id: householdId })
            .orderBy([{ column: 'recipe_id' }, { column: 'position' }])
            .select('recipe_id', 'tag') as Promise<TagRow[]>,
      ] as const;
      const [rows, lines, images, tagList] = await readsOf(knex, reads);
      const byRecipe = new Map<string, IngredientRow[]>();
      for (const l of lines) (byRecipe.get(l.recipe_id) ?? byRecipe.set(l.recipe_id, []).get(l.recipe_id)!).push(l);
      const imageOf = new Map(images.map((i) => [i.recipe_id, i]));
      const tags = tagsByRecipe(tagList);
      return rows.map((r) => toRecipe(r, byRecipe.get(r.id) ?? [], imageOf.get(r.id) ?? null, tags.get(r.id) ?? []));
    },
    async titlesOf(householdId, recipeIds) {
      const ids = [...new Set(recipeIds)];
      const out: Record<string, string> = {};
      for (let i = 0; i < ids.length; i += 500) {
        const rows = (await knex('recipes')
          .where({ household_id: householdId })
          .whereIn('id', ids.slice(i, i + 500))
          .select('id', 'title')) as { id: string; title: string }[];
        for (const r of rows) out[r.id] = r.title;
      }
      return out;
    },
    async page(householdId, query) {
      const { rows, total, more } = await pageRows(knex, householdId, query);
      return { items: await withLines(knex, rows), total, more };
    },
    async summaryPage(householdId, query) {
      const chosen = pageOfSorted(await keptRecipes(knex, householdId), query);
      return { items: chosen.items.map((k) => k.summary), total: chosen.total, more: chosen.more };
    },
    async tagCounts(householdId) {
      const rows = (await knex('recipe_tags').where({ household_id: householdId }).groupBy('tag').select('tag').count<{ tag: string; n: number | string }[]>({ n: '*' })) as {
        tag: string;
        n: number | string;
      }[];
      return rows.map((r): RecipeTagCount => ({ tag: r.tag, count: Number(r.n) }));
    },
    async replace(householdId, recipeId, content, at) {
      return knex.transaction(async (trx) => {
        await lockHousehold(trx, householdId);
        const exists = await trx('recipes').where({ household_id: householdId, id: recipeId }).first('id');
        if (!exists) return null;
        const refused = await refusal(trx, householdId, recipeId, content);
        if (refused) return refused;
        await trx('recipes').where({ id: recipeId }).update({ ...contentColumns(content), updated_at: iso(at) });
        await trx('recipe_ingredients').where({ recipe_id: recipeId }).delete();
        await trx('recipe_tags').where({ recipe_id: recipeId }).delete();
        await writeLines(trx, householdId, recipeId, content);
        return (await one(trx, householdId, recipeId))!;
      });
    },
    async setImage(householdId, recipeId, image, at) {
      return knex.transaction((trx) => setImage(trx, householdId, recipeId, image, at));
    },
    async delete(householdId, recipeId, at) {
      return knex.transaction(async (trx) => {
        await lockHousehold(trx, householdId);
        const gone = (await trx('recipes').where({ household_id: householdId, id: recipeId }).first('title')) as { title: string } | undefined;
        if (!gone) return false;
        const users = (await trx('recipe_ingredients').where({ household_id: householdId, base_recipe_id: recipeId }).distinct('recipe_id')) as { recipe_id: string }[];
        if (users.length > 0) {
          await trx('recipe_ingredients').where({ household_id: householdId, base_recipe_id: recipeId }).update({ base_recipe_id: null, reference: gone.title });
          await trx('recipes')
            .whereIn(
              'id',
              users.map((u) => u.recipe_id),
            )
            .update({ updated_at: iso(at) });
        }
        await trx('recipes').where({ household_id: householdId, id: recipeId }).delete();
        return true;
      });
    },
  });
}
