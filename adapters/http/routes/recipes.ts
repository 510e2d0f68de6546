import * as v from 'valibot';
import { createRecipe, deleteRecipe, getRecipe, listRecipes, listRecipeSummaries, listRecipeTags, recipeImage, replaceRecipe } from '../../../core/recipes/recipes.js';
import { putRecipePhoto, RECIPE_PHOTO_MAX_SIDE, removeRecipePhoto } from '../../../core/recipes/photos.js';
import { recipeTag } from '../../../core/recipes/tags.js';
import { RECIPE_IMAGE_TYPES, RECIPE_LIMITS as L, type Recipe, type RecipeSummary } from '../../../core/recipes/types.js';
import { ifNoneMatchHolds } from '../conditional.js';
import { normalizeFoodKey } from '../../../core/kernel/food-key.js';
import type { ServiceDeps } from '../deps.js';
import { callerHouseholdAnd, callerHouseholdAndBody, callerHouseholdAndThenBody, created, mount, noContent, resource, pageOf } from '../route.js';
import { IsoDateTime, Uuid, Cursor, Limit, Page } from '../schemas.js';

const FOOD_KEY_RULE =
  'foodKey is computed by the server from displayName: Unicode NFKC; lower case (locale-independent); diacritics folded ' +
  '(é→e, ü→u, ö→o) except æ, ø and å, which stay; ß→ss, œ→oe; apostrophes removed; every other run of non-letters and ' +
  'non-digits separates words; words of four or more letters made singular by a closed list of rules (English: ' +
  'berries→berry, tomatoes→tomato, peaches→peach, onions→onion, with glass, hummus, couscous kept; Norwegian: ' +
  'tomater→tomat, løker→løk, poteter→potet, epler→eple, gulrøtter→gulrot, also at the end of compounds such as ' +
  'cherrytomater; egg, sukker, ris, laks kept); words joined with "-". Numbers stay: no amount or unit is read from the name.';

export const trimmed = (max: number, what: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, `${what} must not be blank`), v.maxLength(max, `${what}: at most ${max} characters`));
export const minutes = v.nullable(v.pipe(v.number(), v.integer('a whole number of minutes'), v.minValue(0, 'at least 0'), v.maxValue(L.minutesMax, `at most ${L.minutesMax}`)));

export const IngredientRequest = v.pipe(
  v.object({
    displayName: v.pipe(
      trimmed(L.displayNameMax, 'displayName'),
      v.check((s) => normalizeFoodKey(s) !== '', 'displayName needs a letter or a digit'),
    ),
    quantity: v.nullable(
      v.pipe(v.number(), v.finite('a finite number'), v.gtValue(0, 'greater than 0'), v.maxValue(L.quantityMax, `at most ${L.quantityMax}`)),
    ),
    unit: v.nullable(trimmed(L.unitMax, 'unit')),
    optional: v.boolean(),
    baseRecipeId: v.nullable(Uuid),
    reference: v.nullable(trimmed(L.referenceMax, 'reference')),
  }),
  v.check((i) => i.baseRecipeId === null || i.reference === null, 'a line has a baseRecipeId or a reference, not both'),
);

const TAG_RULE =
  `A tag is kept in one form: NFKC, trimmed, every run of white space one space, lower case ("  Barn  Liker " is ` +
  `"barn liker"); it is 1..${L.tagMax} characters in that form. A recipe has at most ${L.tagsMax} tags; the same ` +
  'tag given twice (any case) is kept once, in its first place.';
/** One tag as written; the answer is its tag form (recipeTag), which is what the length counts. */
export const TagRequest = v.pipe(
  v.string(),
  v.maxLength(L.tagMax, `a tag: at most ${L.tagMax} characters`),
  v.transform(recipeTag),
  v.minLength(1, 'a tag must not be blank'),
  v.maxLength(L.tagMax, `a tag: at most ${L.tagMax} characters`),
);
/** A recipe's tags as written: at most tagsMax of them. */
export const TagsRequest = v.pipe(v.array(TagRequest), v.maxLength(L.tagsMax, `at most ${L.tagsMax} tags`), v.description(TAG_RULE));

const ADDRESS_MAX = 2048;
/** An http(s) address as a recipe keeps it: where it came from, where its picture is. */
export const Address = v.nullable(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(ADDRESS_MAX, `at most ${ADDRESS_MAX} characters`),
    v.check((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'an absolute http or https address'),
  ),
);

const RecipeRequest = v.pipe(
  v.object({
    title: trimmed(L.titleMax, 'title'),
    servings: v.pipe(v.number(), v.integer('a whole number'), v.minValue(L.servingsMin, `at least ${L.servingsMin}`), v.maxValue(L.servingsMax, `at most ${L.servingsMax}`)),
    activeMinutes: minutes,
    totalMinutes: minutes,
    steps: v.pipe(v.array(trimmed(L.stepMax, 'a step')), v.maxLength(L.stepsMax, `at most ${L.stepsMax} steps`)),
    ingredients: v.pipe(v.array(IngredientRequest), v.maxLength(L.ingredientsMax, `at most ${L.ingredientsMax} ingredients`)),
    sourceUrl: v.optional(Address),
    imageUrl: v.optional(Address),
    tags: v.optional(TagsRequest),
  }),
  v.check(
    (r) => r.activeMinutes === null || r.totalMinutes === null || r.activeMinutes <= r.totalMinutes,
    'activeMinutes must not exceed totalMinutes',
  ),
);

const IngredientResponse = v.object({
  displayName: v.string(),
  foodKey: v.pipe(v.string(), v.description(FOOD_KEY_RULE)),
  quantity: v.nullable(v.number()),
  unit: v.nullable(v.string()),
  optional: v.boolean(),
  baseRecipeId: v.nullable(Uuid),
  reference: v.nullable(v.string()),
});
const RecipeImageResponse = v.object({ href: v.string(), mediaType: v.picklist(RECIPE_IMAGE_TYPES), etag: v.string() });
const RecipeResponse = v.object({
  id: Uuid,
  title: v.string(),
  servings: v.number(),
  activeMinutes: v.nullable(v.number()),
  totalMinutes: v.nullable(v.number()),
  steps: v.array(v.string()),
  ingredients: v.array(IngredientResponse),
  sourceUrl: v.nullable(v.string()),
  imageUrl: v.nullable(v.string()),
  tags: v.pipe(v.array(v.string()), v.description('Its tags in tag form, each once, in the order written; [] when it has none.')),
  /** The picture kept from imageUrl, or the household's own photo (PUT .../image); null when none is. */
  image: v.nullable(RecipeImageResponse),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
const RecipePage = Page(RecipeResponse);
// A recipe's own fields, as RecipeResponse has them, without steps, lines and addresses; its lines' names instead.
const RecipeSummaryResponse = v.object({
  ...v.pick(RecipeResponse, ['id', 'title', 'servings', 'activeMinutes', 'totalMinutes', 'tags', 'image', 'updatedAt']).entries,
  ingredientNames: v.pipe(v.array(v.string()), v.description("Each ingredient line's displayName, in the recipe's order.")),
});
const RecipeSummaryPage = Page(RecipeSummaryResponse);

const RecipePath = v.object({ householdId: Uuid, recipeId: Uuid });
const ListQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.maxLength(L.titleMax, `at most ${L.titleMax} characters`))),
  tag: v.optional(v.pipe(v.string(), v.maxLength(L.tagMax, `at most ${L.tagMax} characters`))),
  // Any cursor this list did not hand out is validation_failed, an over-long one included (no value_too_long).
  cursor: Cursor(8192),
  limit: v.optional(Limit(100), '50'),
});

const imageResponse = (r: Pick<Recipe, 'id' | 'householdId' | 'image'>): v.InferOutput<typeof RecipeImageResponse> | null =>
  r.image ? { href: `/api/v1/households/${r.householdId}/recipes/${r.id}/image`, mediaType: r.image.mediaType, etag: r.image.etag } : null;

const toRecipeSummaryResponse = (r: RecipeSummary): v.InferOutput<typeof RecipeSummaryResponse> => ({
  id: r.id,
  title: r.title,
  servings: r.servings,
  activeMinutes: r.activeMinutes,
  totalMinutes: r.totalMinutes,
  ingredientNames: [...r.ingredientNames],
  tags: [...r.tags],
  image: imageResponse(r),
  updatedAt: r.updatedAt.toISOString(),
});

export function toRecipeResponse(r: Recipe): v.InferOutput<typeof RecipeResponse> {
  return {
    id: r.id,
    title: r.title,
    servings: r.servings,
    activeMinutes: r.activeMinutes,
    totalMinutes: r.totalMinutes,
    steps: [...r.steps],
    sourceUrl: r.sourceUrl,
    imageUrl: r.imageUrl,
    tags: [...r.tags],
    image: imageResponse(r),
    ingredients: r.ingredients.map((i) => ({
      displayName: i.displayName,
      foodKey: i.foodKey,
      quantity: i.quantity,
      unit: i.unit,
      optional: i.optional,
      baseRecipeId: i.baseRecipeId,
      reference: i.reference,
    })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const WRITE_RULES =
  'Limits: title 1..200, servings 1..100, minutes 0..10080 with activeMinutes ≤ totalMinutes, at most 100 steps of ' +
  '1..2000 characters, at most 100 ingredients; displayName 1..200, quantity > 0 and ≤ 100000 or null, unit 1..32, ' +
  'reference 1..200 (over a length limit: 400 value_too_long). A line has a baseRecipeId or a reference, not both. ' +
  'baseRecipeId must be another recipe of this household (else 400 base_recipe_unknown, also for another ' +
  "household's recipe); a recipe that would reach itself through base recipes (A→A, A→B→A, longer) gives 400 " +
  'recipe_cycle. A Junior gets 403 adults_only; a household the caller is not in, 404 household_not_found. ' +
  'sourceUrl (the page it came from) and imageUrl (its picture) are absolute http(s) addresses of at most 2048 ' +
  'characters, or null; left out, a new recipe has none and a replaced one keeps its own (clients older than recipe ' +
  'import keep working). When imageUrl is new, the picture is fetched before the answer through the outbound guard ' +
  '(every redirect hop vetted, 5 s, 5 MB counted after decompression) and kept only when its bytes sniff as JPEG, PNG ' +
  'or WebP (never SVG) and its header declares at most 40 megapixels (read before anything decodes it); otherwise the ' +
  'recipe is saved all the same, with image null. image.href serves the kept bytes. tags may be left out: a new ' +
  'recipe then has none, a replaced one keeps its own (clients older than tags keep working); [] clears them. ' +
  `${TAG_RULE} More than ${L.tagsMax} tags, or a tag over ${L.tagMax} characters, is 400 value_too_long; a blank ` +
  'tag, 400 validation_failed. ';

const { route, handledRoute, householdRoute } = resource<ServiceDeps>('Recipes');

const base = '/api/v1/households/{householdId}/recipes';

const LIST_RECIPES_DOC =
  'Any member. Ordered by title without regard to case (NFKC, lower case, code point order), then id. q (at most ' +
  '200 characters) keeps the recipes whose title, an ingredient\'s displayName or a tag contains it, without regard ' +
  'to case (Norwegian letters included: "ørret" and "ØRRET" find "Ørret"; white space runs count as one space). tag ' +
  `(at most ${L.tagMax} characters) keeps the recipes carrying that tag, compared in tag form (any case). Both may ` +
  'be given; a blank one keeps every recipe. limit 1..100, default 50 (else 400). cursor is the nextCursor of the ' +
  'previous page, opaque and bound to this household, q and tag; any other value gives 400 validation_failed. ' +
  'nextCursor is null on the last page; total counts every recipe matching q and tag.';
const LIST_TAGS_DOC =
  "Any member. The tags the household's recipes carry, each with how many recipes carry it (for filter chips): " +
  'the most carried first, then by tag. limit 1..200, default 50 (else 400 validation_failed); total counts every ' +
  'tag of the household. A tag is given to GET recipes?tag= as it is here.';
const GET_RECIPE_IMAGE_DOC =
  'Any member. The recipe\'s picture: the bytes fetched from its imageUrl, or the household\'s own photo (PUT, ' +
  'WebP), as image/jpeg, image/png or image/webp (sniffed from the bytes when kept; nosniff), with a strong ETag of the bytes: If-None-Match answers 304. Cache-Control: private, ' +
  'no-cache (a new picture under the same address shows at once). 404 recipe_image_not_found when the recipe keeps ' +
  'no picture or is not the household\'s.';
/** The most bytes a household's own photo may have as sent: a phone's largest JPEG, and then some. */
export const RECIPE_PHOTO_MAX_BYTES = 15 * 1024 * 1024;
const PUT_RECIPE_IMAGE_DOC =
  "Adults only. The household's own photo becomes the recipe's picture, replacing any (an imported one too). The " +
  'body is the picture\'s bytes as they are, with Content-Type image/jpeg, image/png or image/webp (a raw body rather ' +
  'than multipart/form-data: a phone app sends the file it has, a browser the File it was given); another ' +
  'Content-Type, or none, is 415 unsupported_media_type. Over ' +
  `${RECIPE_PHOTO_MAX_BYTES} bytes (15 MiB) is 413 payload_too_large, refused before the body is read when ` +
  'Content-Length says so. What the bytes are decides, never the Content-Type: they must sniff as JPEG, PNG or WebP ' +
  '(never SVG; else 422 recipe_photo_not_an_image), their header must declare at most 40 megapixels, read before ' +
  'anything decodes them (else 422 recipe_photo_too_many_pixels), and they must decode (else 422 ' +
  `recipe_photo_unreadable). The picture kept is made by the service: turned upright as its EXIF orientation says, ` +
  `shrunk (never enlarged) so that its longer side is at most ${RECIPE_PHOTO_MAX_SIDE} pixels with its aspect kept, ` +
  'and written as WebP (quality 80) without any metadata (no EXIF: no place, no camera). The recipe\'s imageUrl ' +
  'becomes null (a later save does not fetch the imported picture back over the photo) and its updatedAt now. ' +
  'Answers the recipe; its image.etag is that of the new picture. A refused photo changes nothing.';
const DELETE_RECIPE_IMAGE_DOC =
  "Adults only. The recipe keeps no picture, whether imported or the household's own, and its imageUrl becomes null " +
  '(a later save does not fetch the imported picture back); updatedAt becomes now. A recipe without a picture answers ' +
  'the same 204.';
const DELETE_RECIPE_DOC =
  'Plan days that served it keep the day and lose the dish. Lines of other recipes that used it as their base ' +
  'keep their place and become a named reference (baseRecipeId null, reference = the deleted title), so the ' +
  'shopping list reports them in skippedReferences instead of buying them; those recipes get a new updatedAt.';

const createRecipeRoute = householdRoute({
  method: 'POST',
  path: base,
  operationId: 'createRecipe',
  auth: 'session-or-token',
  summary: 'Add a recipe (adults only)',
  description: WRITE_RULES + FOOD_KEY_RULE,
  body: RecipeRequest,
  ...created('Created', RecipeResponse),
  errors: ['adults-only', 'base-recipe-unknown', 'recipe-cycle'],
  run: callerHouseholdAndBody(createRecipe),
  headers: (value, { params }) => ({ Location: `/api/v1/households/${params.householdId}/recipes/${value.id}` }),
  reply: toRecipeResponse,
});

const listRecipesRoute = householdRoute({
  method: 'GET',
  path: base,
  operationId: 'listRecipes',
  auth: 'session-or-token',
  summary: "A page of the household's recipes",
  description: LIST_RECIPES_DOC,
  query: ListQuery,
  responses: { 200: { description: 'A page', schema: RecipePage } },
  errors: ['page-cursor-invalid'],
  run: ({ deps, caller, params, query }) =>
    listRecipes(deps, caller.account, params.householdId, { q: query.q ?? null, tag: query.tag ?? null, cursor: query.cursor ?? null, limit: query.limit }),
  reply: pageOf(toRecipeResponse),
});

const RecipeTagList = v.object({
  items: v.array(v.object({ tag: v.string(), count: v.pipe(v.number(), v.description('How many of the household\'s recipes carry it.')) })),
  total: v.number(),
});

const listRecipeSummariesRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/recipe-summaries',
  operationId: 'listRecipeSummaries',
  auth: 'session-or-token',
  summary: "A page of the household's recipes, each as a summary (for lists and pickers)",
  description:
    'The page GET recipes answers for the same q, tag, cursor and limit (the same order, total, nextCursor, and ' +
    'cursors valid for either), each recipe without its steps and with only the names of its ingredient lines, in ' +
    'order: what a recipe list, a search or a picker shows, at a fraction of the bytes. Open a recipe with GET ' +
    'recipes/{recipeId} for the whole of it. ' +
    LIST_RECIPES_DOC,
  query: ListQuery,
  responses: { 200: { description: 'A page of summaries', schema: RecipeSummaryPage } },
  errors: ['page-cursor-invalid'],
  run: ({ deps, caller, params, query }) =>
    listRecipeSummaries(deps, caller.account, params.householdId, { q: query.q ?? null, tag: query.tag ?? null, cursor: query.cursor ?? null, limit: query.limit }),
  reply: pageOf(toRecipeSummaryResponse),
});

const listRecipeTagsRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/recipe-tags',
  operationId: 'listRecipeTags',
  auth: 'session-or-token',
  summary: "The household's recipe tags with their counts",
  description: LIST_TAGS_DOC,
  query: v.object({ limit: v.optional(Limit(200), '50') }),
  responses: { 200: { description: 'The tags', schema: RecipeTagList } },
  run: ({ deps, caller, params, query }) => listRecipeTags(deps, caller.account, params.householdId, query.limit),
});

const getRecipeRoute = route({
  method: 'GET',
  path: `${base}/{recipeId}`,
  operationId: 'getRecipe',
  auth: 'session-or-token',
  summary: 'One recipe',
  description: "Any member. A recipe of another household answers 404 recipe_not_found, as if it did not exist.",
  params: RecipePath,
  responses: { 200: { description: 'The recipe', schema: RecipeResponse } },
  errors: ['household-not-found', 'recipe-not-found'],
  run: callerHouseholdAnd('recipeId', getRecipe),
  reply: toRecipeResponse,
});

const replaceRecipeRoute = route({
  method: 'PUT',
  path: `${base}/{recipeId}`,
  operationId: 'replaceRecipe',
  auth: 'session-or-token',
  summary: 'Replace a recipe (adults only)',
  description: 'Full replacement: every field and every line is written anew; createdAt stays. ' + WRITE_RULES + FOOD_KEY_RULE,
  params: RecipePath,
  body: RecipeRequest,
  responses: { 200: { description: 'The recipe after the change', schema: RecipeResponse } },
  errors: ['household-not-found', 'adults-only', 'recipe-not-found', 'base-recipe-unknown', 'recipe-cycle'],
  run: callerHouseholdAndThenBody('recipeId', replaceRecipe),
  reply: toRecipeResponse,
});

const getRecipeImageRoute = handledRoute({
  method: 'GET',
  path: `${base}/{recipeId}/image`,
  operationId: 'getRecipeImage',
  auth: 'session-or-token',
  summary: 'The picture kept for a recipe',
  description: GET_RECIPE_IMAGE_DOC,
  params: RecipePath,
  responses: {
    200: { description: 'The picture', contentType: 'image/*', headers: { ETag: 'a strong tag of the bytes', 'Cache-Control': 'private, no-cache' } },
    304: { description: 'If-None-Match holds the ETag' },
  },
  errors: ['household-not-found', 'recipe-image-not-found'],
  handle: async (ctx, { deps, caller, params, refuse }) => {
    const result = await recipeImage(deps, caller.account, params.householdId, params.recipeId);
    if (!result.ok) throw refuse(result.error);
    const image = result.value;
    ctx.set('ETag', image.etag);
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // A picture is never a document: nothing in it may run, even opened on its own.
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (ifNoneMatchHolds(ctx.get('If-None-Match'), image.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = image.mediaType;
    ctx.body = Buffer.from(image.bytes);
  },
});

const putRecipeImageRoute = route({
  method: 'PUT',
  path: `${base}/{recipeId}/image`,
  operationId: 'putRecipeImage',
  auth: 'session-or-token',
  summary: "The household's own photo of a recipe (adults only)",
  description: PUT_RECIPE_IMAGE_DOC,
  params: RecipePath,
  rawBody: { description: 'The photo\'s bytes (JPEG, PNG or WebP).', maxBytes: RECIPE_PHOTO_MAX_BYTES, mediaTypes: RECIPE_IMAGE_TYPES },
  responses: { 200: { description: 'The recipe with its new picture', schema: RecipeResponse } },
  errors: ['household-not-found', 'adults-only', 'recipe-not-found', 'recipe-photo-refused'],
  run: ({ deps, caller, params, rawBody }) => putRecipePhoto(deps, caller.account, params.householdId, params.recipeId, rawBody),
  reply: toRecipeResponse,
});

const deleteRecipeImageRoute = route({
  method: 'DELETE',
  path: `${base}/{recipeId}/image`,
  operationId: 'deleteRecipeImage',
  auth: 'session-or-token',
  summary: "Remove a recipe's picture (adults only)",
  description: DELETE_RECIPE_IMAGE_DOC,
  params: RecipePath,
  ...noContent('Removed (or there was none)'),
  errors: ['household-not-found', 'adults-only', 'recipe-not-found'],
  run: callerHouseholdAnd('recipeId', removeRecipePhoto),
});

const deleteRecipeRoute = route({
  method: 'DELETE',
  path: `${base}/{recipeId}`,
  operationId: 'deleteRecipe',
  auth: 'session-or-token',
  summary: 'Delete a recipe (adults only)',
  description: DELETE_RECIPE_DOC,
  params: RecipePath,
  ...noContent('Deleted'),
  errors: ['household-not-found', 'adults-only', 'recipe-not-found'],
  run: callerHouseholdAnd('recipeId', deleteRecipe),
});

export const recipeRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    createRecipeRoute,
    listRecipesRoute,
    listRecipeSummariesRoute,
    listRecipeTagsRoute,
    getRecipeRoute,
    replaceRecipeRoute,
    getRecipeImageRoute,
    putRecipeImageRoute,
    deleteRecipeImageRoute,
    deleteRecipeRoute,
  ]);

