import * as v from 'valibot';
import { sniffedMediaType } from '../../first-use.js';
import { previewRecipePicture, READ_BY_AI, recipeImportChoices, type RecipePictureDeps } from '../../../core/recipes/import-picture.js';
import { RECIPE_PICTURE_TYPES } from '../../../ports/recipe-picture-reader.js';
import { previewRecipeImport, type RecipeImportDeps, DEFAULT_IMPORT_SERVINGS } from '../../../core/recipes/import.js';
import { previewPastedRecipe, READ_FROM_TEXT } from '../../../core/recipes/import-text.js';
import { PASTED_TEXT_MAX_CHARS } from '../../../core/recipes/pasted-text.js';
import type { HouseholdDeps } from '../../../core/households/households.js';
import { RECIPE_PAGE_PROBLEMS, RECIPE_PICTURE_PROBLEMS } from '../problem.js';
import { mount, resource } from '../route.js';
import { Uuid } from '../schemas.js';

const URL_MAX = 2048;
const Url = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be blank'),
  v.maxLength(URL_MAX, `at most ${URL_MAX} characters`),
  v.check((s) => URL.canParse(s), 'an absolute address such as https://example.com/recipe'),
);
const RecipeImportRequest = v.pipe(
  v.object({
    url: v.optional(v.nullable(Url)),
    // The JSON body cap (1 MiB) bounds it; a larger page is 413.
    html: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
    text: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(PASTED_TEXT_MAX_CHARS, `at most ${PASTED_TEXT_MAX_CHARS} characters`),
        v.check((s) => /[\p{L}\p{N}]/u.test(s), 'must hold a letter or a digit'),
      ),
    ),
  }),
  v.check((b) => b.text === undefined || (b.html === undefined && (b.url ?? null) === null), 'text comes alone, without url or html'),
  v.check((b) => b.text !== undefined || b.html !== undefined || (b.url ?? null) !== null, 'url, html (with url when known) or text is required'),
);

const Confidence = v.picklist(['high', 'medium', 'low']);
const RecipeImportPreview = v.object({
  recipe: v.object({
    title: v.string(),
    servings: v.number(),
    activeMinutes: v.nullable(v.number()),
    totalMinutes: v.nullable(v.number()),
    steps: v.array(v.string()),
    ingredients: v.array(
      v.object({ displayName: v.string(), quantity: v.nullable(v.number()), unit: v.nullable(v.string()), optional: v.boolean(), baseRecipeId: v.nullable(Uuid), reference: v.nullable(v.string()) }),
    ),
    sourceUrl: v.nullable(v.string()),
    imageUrl: v.nullable(v.string()),
  }),
  lines: v.array(v.object({ original: v.string(), confidence: Confidence, note: v.nullable(v.string()), flags: v.array(v.string()) })),
  sourceUrl: v.nullable(v.string()),
  imageUrl: v.nullable(v.string()),
  yields: v.nullable(v.string()),
  warnings: v.array(v.string()),
});

const problems = Object.fromEntries(Object.values(RECIPE_PAGE_PROBLEMS).map((p) => [p.code, p.status]));

const DESCRIPTION =
  'Reads the recipe on a web page and answers the RecipeRequest it would save; nothing is saved (the client saves it, ' +
  'edited or not, with POST .../recipes). Send { url } to have the service fetch the page, or { html, url? } with a ' +
  'page saved from behind a login (url, when given, resolves relative addresses and becomes sourceUrl). The fetch goes ' +
  'through the outbound guard calendar feeds use (every redirect hop vetted, the address checked again at connect), ' +
  'with a 5 s budget for the whole answer, a 5 MB cap counted after gzip/deflate/brotli are undone, and the declared ' +
  'charset decoded (BOM, Content-Type, then <meta charset>). Extraction: schema.org Recipe in JSON-LD first (@graph, ' +
  'arrays of types, several scripts, HowToSection groups of HowToSteps, ISO 8601 durations; a script over 1 MB or nested ' +
  'deeper than 32 levels is skipped), then microdata, then, on a page with no recipe markup, its layout: the list under a ' +
  'heading such as "Ingredienser", "Ingredients", "Zutaten" or "Du behöver" and the steps under one such as "Slik gjør du", ' +
  '"Method", "Zubereitung" or "Sådan gør du" (nb, nn, en, sv, da, de; headings in <h1>-<h6> or a bold or lone line; menus, ' +
  'sidebars, footers and comments left out), when the lines look like ingredients, with servings and times written plainly ' +
  '("4 porsjoner", "Serves 4", "Tid: 30 min"): this reading is less sure and carries the warning read_from_page_layout; ' +
  'last, the OpenGraph title and image. Each ingredient line is parsed ' +
  'into quantity, unit (one of the canonical units g, kg, ml, cl, dl, l, tsp, tbsp, pcs, pk, bx, bunt, fl; cups, ounces ' +
  'and pounds converted) and food; a line it cannot read is kept whole as displayName with no quantity. lines[i] tells ' +
  'how recipe.ingredients[i] was read (original text, confidence high/medium/low, note, flags such as range, ' +
  `converted, approximate, no_quantity). servings is the first number of the yield, else ${DEFAULT_IMPORT_SERVINGS} with the ` +
  'warning servings_guessed. Warnings: json_ld_invalid, json_ld_too_deep, json_ld_too_large, several_recipes (the first ' +
  'is taken), no_ingredients, no_steps, read_from_page_layout (no recipe markup: read from the page\'s headings and lists, ' +
  'check every line and step), opengraph_only, servings_guessed, lines_dropped (headings such as "Til sausen:" and lines with no letter or digit). ' +
  `Or send { text }: a whole recipe pasted as text (at most ${PASTED_TEXT_MAX_CHARS} characters, else 400 value_too_long), ` +
  'from a notes app, an e-mail or a blog: the title is the first line that reads as a name; servings ("4 porsjoner", ' +
  '"Serves 4", "Til 4 personer") and time ("Tid: 45 min", "Prep time" and "Cook time" added up) from lines of their own; ' +
  'ingredients and steps by their headings in Norwegian, Swedish, Danish, English or German ("Ingredienser", "Du trenger", ' +
  '"Ingredients", "Zutaten", "Fremgangsmåte", "Slik gjør du", "Method", "Instructions", "Zubereitung", "Gör så här"), ' +
  'or without headings as a block of short lines with amounts followed by a block of sentences; step numbers ("1.", ' +
  '"1)", "Steg 1") and bullets are taken off, and lines such as "Print", ratings, e-mail headers and signatures left out. ' +
  `Its preview has sourceUrl null and the warning ${READ_FROM_TEXT} first. Nothing is fetched: no budget is spent. ` +
  'A fetch counts against the household\'s import budget (rate class recipe-import-per-household, 30 an hour by default: ' +
  '429 rate_limited with Retry-After); html sent by the client does not. Every failure of the page is a 4xx: ' +
  Object.values(RECIPE_PAGE_PROBLEMS)
    .map((p) => `${p.status} ${p.code} (${p.detail})`)
    .join('; ') +
  '. A Junior gets 403 adults_only.';

type Deps = RecipeImportDeps & RecipePictureDeps & Pick<HouseholdDeps, 'households'>;
const { handledHouseholdRoute, householdRoute } = resource<Deps>('Recipes');

const previewRecipeImportRoute = handledHouseholdRoute({
  method: 'POST',
  path: '/api/v1/households/{householdId}/recipes/import',
  operationId: 'previewRecipeImport',
  auth: 'session-or-token',
  summary: 'Read the recipe on a web page or in pasted text, to save after a look (adults only)',
  description: DESCRIPTION,
  body: RecipeImportRequest,
  responses: { 200: { description: 'What the page holds, as a RecipeRequest with notes per line', schema: RecipeImportPreview } },
  errors: ['adults-only', 'recipe-page-failed', 'recipe-import-throttled'],
  problems: { rate_limited: 429 },
  handle: async (ctx, { deps, caller, params, body, refuse }) => {
    const source = body.html !== undefined ? { html: body.html, url: body.url ?? null } : { url: body.url! };
    const result =
      body.text !== undefined
        ? await previewPastedRecipe(deps, caller.account, params.householdId, body.text)
        : await previewRecipeImport(deps, caller.account, params.householdId, source);
    if (!result.ok) throw refuse(result.error);
    ctx.body = result.value;
  },
});

/** The most bytes a photo or PDF of a recipe may have (10 MiB): a phone's photo, a scanned page or two. */
export const RECIPE_PICTURE_MAX_BYTES = 10 * 1024 * 1024;

const PICTURE_DESCRIPTION =
  'Reads a photo or a PDF of a recipe with the optional AI the operator configures (AI_BASE_URL, AI_MODEL, AI_API_KEY: ' +
  'an OpenAI-compatible chat completions endpoint) and answers the same preview as a page import; nothing is saved ' +
  '(the client saves it, after the person has looked over every line, with POST .../recipes). The body is the file\'s ' +
  `bytes as they are, with Content-Type ${RECIPE_PICTURE_TYPES.join(', ')} (else 415 unsupported_media_type); over ` +
  `${RECIPE_PICTURE_MAX_BYTES} bytes (10 MiB) is 413 payload_too_large. What the bytes are decides, never the ` +
  'Content-Type: they must sniff as JPEG, PNG, WebP or PDF (else 422 recipe_picture_not_supported, before the AI is ' +
  'asked or the quota touched). The AI is sent the file and fixed instructions, nothing of the household (no names, ' +
  'no ids; a PDF is named recipe.pdf), and asked for JSON that is checked against a recipe schema (a title; lines and ' +
  'steps as text, at most 100 of each); its ingredient lines are parsed as a page\'s are (lines[i] with their ' +
  `confidence). Warnings: ${READ_BY_AI} first, then no_ingredients, no_steps, servings_guessed, lines_dropped as for a ` +
  'page. Each request is one AI call of the household\'s monthly quota (AI_MONTHLY_CALLS, shared with the planner, ' +
  'counted also when the AI then fails): past it 429 ai_quota_used with Retry-After in seconds until its next month; a ' +
  'household whose AI the operator paused gets 429 ai_paused. Without an AI configured: 404 recipe_reader_unavailable ' +
  '(GET .../recipes/import/choices says so beforehand). The AI\'s failures: ' +
  Object.values(RECIPE_PICTURE_PROBLEMS)
    .filter((p) => p.status === 502 || p.code === 'recipe_not_in_picture')
    .map((p) => `${p.status} ${p.code} (${p.detail})`)
    .join('; ') +
  '; never a half recipe. A Junior gets 403 adults_only.';

const previewRecipePictureRoute = householdRoute({
  method: 'POST',
  path: '/api/v1/households/{householdId}/recipes/import/picture',
  operationId: 'previewRecipePicture',
  auth: 'session-or-token',
  summary: 'Read the recipe in a photo or a PDF with the AI, to save after a look (adults only)',
  description: PICTURE_DESCRIPTION,
  rawBody: { description: "The file's bytes (JPEG, PNG, WebP or PDF).", maxBytes: RECIPE_PICTURE_MAX_BYTES, mediaTypes: RECIPE_PICTURE_TYPES },
  responses: { 200: { description: 'What the picture holds, as a RecipeRequest with notes per line', schema: RecipeImportPreview } },
  errors: ['adults-only', 'recipe-reader-unavailable', 'recipe-picture-failed', 'ai-quota-used', 'ai-paused'],
  run: async ({ deps, caller, params, rawBody }) =>
    previewRecipePicture(deps, caller.account, params.householdId, { bytes: rawBody, sniffedType: rawBody.length > 0 ? ((await sniffedMediaType(rawBody)) ?? null) : null }),
});

const RecipeImportChoices = v.object({
  text: v.object({ maxChars: v.number() }),
  picture: v.nullable(v.object({ mediaTypes: v.array(v.string()), maxBytes: v.number() })),
});

const recipeImportChoicesRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/recipes/import/choices',
  operationId: 'recipeImportChoices',
  auth: 'session-or-token',
  summary: 'What a recipe can be imported from here',
  description:
    'For any member: text is always read (at most text.maxChars characters, POST .../recipes/import with { text }); ' +
    'picture is null unless the operator has configured an AI that reads photos and PDFs (POST .../recipes/import/picture), ' +
    'else the Content-Types and the most bytes that route takes. Answers the same for every household of this service.',
  responses: { 200: { description: 'The ways in', schema: RecipeImportChoices } },
  run: ({ deps, caller, params }) => recipeImportChoices(deps, caller.account, params.householdId),
  reply: (choices) => ({
    text: { maxChars: PASTED_TEXT_MAX_CHARS },
    picture: choices.pictures ? { mediaTypes: [...RECIPE_PICTURE_TYPES], maxBytes: RECIPE_PICTURE_MAX_BYTES } : null,
  }),
});

export const recipeImportRoutes = (deps: Deps) =>
  mount(deps, [
    previewRecipeImportRoute,
    previewRecipePictureRoute,
    recipeImportChoicesRoute,
  ]);

