import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { AVOID_MAX_LENGTH, AVOIDS_MAX, GUEST_TYPES, MEAL_EVENT_TYPES } from '../../../core/events/types.js';
import { HOUSEHOLD_FORMAT, HOUSEHOLD_FORMAT_VERSION, type HouseholdDocument } from '../../../core/transfer/document.js';
import { AGE_GROUPS, LEFTOVERS_KEEP_DAYS_DEFAULT, LEFTOVERS_KEEP_DAYS_MAX, DISLIKE_MAX_LENGTH, DISLIKES_MAX, HOUSEHOLD_NAME_MAX, LANGUAGES, ROLES } from '../../../core/households/types.js';
import { UNIT_WEIGHT_MAX_GRAMS } from '../../../core/pantry/merge-types.js';
import { OBSERVATION_LIMITS } from '../../../core/pantry/observations.js';
import { OBSERVATION_TYPES, STORAGE_LOCATIONS } from '../../../core/pantry/types.js';
import { RECIPE_IMAGE_TYPES, RECIPE_LIMITS as L } from '../../../core/recipes/types.js';
import { LINE_STATUSES, PREFERENCE_FITS, REASON_CODES, SHOPPING_QUANTITY_MAX } from '../../../core/shopping/types.js';
import type { RecipeImage } from '../../../ports/recipe-image.js';
import { inspectImage } from '../../recipe-import/image.js';
import type { ServiceDeps } from '../deps.js';
import { HttpProblem } from '../problem.js';
import { mount, resource } from '../route.js';
import { IsoDate, IsoDateTime, Uuid } from '../schemas.js';
import { Address, IngredientRequest, minutes, TagsRequest, trimmed } from './recipes.js';
import { HouseholdResponse, toHouseholdResponse } from './households.js';

/** How many of each part one document may hold: far past any family's, short of what would tie up the server. */
export const DOCUMENT_LIMITS = {
  members: 50,
  recipes: 5_000,
  plans: 2_000,
  mealEvents: 20_000,
  observations: 200_000,
  merges: 10_000,
  shoppingLists: 2_000,
  linesPerList: 2_000,
} as const;

export interface TransferSettings {
  readonly publicBaseUrl: string;
  /** The largest import body (HOUSEHOLD_IMPORT_MAX_BYTES); larger answers 413. */
  readonly importMaxBytes: number;
  /** How long its upload may take (HOUSEHOLD_IMPORT_TIMEOUT_MS); longer answers 408. */
  readonly importTimeoutMs: number;
  /** The largest picture, as for a recipe's fetched picture (RECIPE_IMPORT_MAX_BYTES). */
  readonly imageMaxBytes: number;
}

/** Where the document's JSON Schema is published: beside the API reference, public like it (adapters/http/docs-assets.ts). */
export const HOUSEHOLD_SCHEMA_PATH = `/api/docs/schemas/household-v${HOUSEHOLD_FORMAT_VERSION}.json`;

const At = v.pipe(IsoDateTime, v.transform((s) => new Date(s)));
const many = <T extends v.GenericSchema>(item: T, max: number, what: string) => v.pipe(v.array(item), v.maxLength(max, `at most ${max} ${what}`));
const Text = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`));
const Filled = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`), v.check((s) => s.trim() !== '', 'must not be blank'));
const Amount = (max: number) => v.pipe(v.number(), v.finite('a finite number'), v.minValue(0, 'at least 0'), v.maxValue(max, `at most ${max}`));
const Count = v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'at least 0'), v.maxValue(1_000_000, 'at most 1000000'));
const HhMm = v.pipe(v.string(), v.maxLength(5, 'HH:MM'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59'));
const FoodKey = Filled(OBSERVATION_LIMITS.foodKeyMax);
const Unit = Filled(OBSERVATION_LIMITS.unitMax);
const Name = Filled(OBSERVATION_LIMITS.displayNameMax);
/** The units a package is counted in (core/food/units.ts, the package dimension). */
const PACK_UNITS = ['pk', 'bx', 'bunt', 'fl'] as const;

function documentSchema(imageMaxBytes: number) {
  const base64Max = Math.ceil(imageMaxBytes / 3) * 4;
  const Image = v.object({
    sourceUrl: v.pipe(
      v.nullable(v.pipe(v.string(), v.check((s) => s.length <= 2048 && URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'an absolute http or https address'))),
      v.description("Where the picture was fetched from (the recipe's imageUrl when it was kept); null for the household's own photo."),
    ),
    mediaType: v.picklist(RECIPE_IMAGE_TYPES),
    data: v.pipe(
      v.string(),
      v.maxLength(base64Max, `a picture of at most ${imageMaxBytes} bytes (base64)`),
      v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'the bytes in base64'),
      v.description('The picture\'s bytes in base64. An import keeps them only when they are a JPEG, PNG or WebP of at most 40 megapixels, judged by the bytes.'),
    ),
  });
  const Recipe = v.pipe(
    v.object({
      id: Uuid,
      title: trimmed(L.titleMax, 'title'),
      servings: v.pipe(v.number(), v.integer('a whole number'), v.minValue(L.servingsMin, `at least ${L.servingsMin}`), v.maxValue(L.servingsMax, `at most ${L.servingsMax}`)),
      activeMinutes: minutes,
      totalMinutes: minutes,
      steps: many(trimmed(L.stepMax, 'a step'), L.stepsMax, 'steps'),
      ingredients: many(IngredientRequest, L.ingredientsMax, 'ingredients'),
      sourceUrl: Address,
      imageUrl: Address,
      // A document written before recipes had tags has none: its recipes come in without tags.
      tags: v.optional(TagsRequest),
      image: v.nullable(Image),
      createdAt: At,
      updatedAt: At,
    }),
    v.check((r) => r.activeMinutes === null || r.totalMinutes === null || r.activeMinutes <= r.totalMinutes, 'activeMinutes must not exceed totalMinutes'),
  );
  const Plan = v.object({
    id: Uuid,
    weekStart: IsoDate,
    createdAt: At,
    updatedAt: At,
    days: many(
      v.object({
        id: Uuid,
        date: IsoDate,
        recipeId: v.nullable(Uuid),
        portionsOverride: v.nullable(v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(100, 'at most 100'))),
        note: v.nullable(Text(500)),
        // A document written before leftovers had none.
        leftoversOf: v.optional(v.nullable(IsoDate), null),
      }),
      7,
      'days',
    ),
  });
  const Avoid = v.pipe(v.string(), v.maxLength(AVOID_MAX_LENGTH, `at most ${AVOID_MAX_LENGTH} characters`), v.check((w) => w.trim().length > 0, 'must not be blank'));
  const MealEvent = v.object({
    id: Uuid,
    date: IsoDate,
    eventType: v.picklist(MEAL_EVENT_TYPES),
    servingTime: v.nullable(HhMm),
    availableCookingMinutes: v.nullable(v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'at least 0'), v.maxValue(1440, 'at most 1440'))),
    notes: v.nullable(Text(2000)),
    participants: many(
      v.object({
        id: Uuid,
        householdMemberId: v.nullable(Uuid),
        isPresent: v.boolean(),
        guestType: v.nullable(v.picklist(GUEST_TYPES)),
        guestCount: v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'at least 0'), v.maxValue(1000, 'at most 1000')),
        dietaryNotes: v.nullable(Text(500)),
        avoids: many(Avoid, AVOIDS_MAX, 'avoids'),
      }),
      150,
      'participants',
    ),
    createdAt: At,
    updatedAt: At,
  });
  const Observation = v.object({
    id: Uuid,
    foodKey: FoodKey,
    displayName: v.nullable(Name),
    observationType: v.picklist(OBSERVATION_TYPES),
    quantity: v.nullable(Amount(OBSERVATION_LIMITS.quantityMax)),
    unit: v.nullable(Unit),
    storageLocation: v.nullable(v.picklist(STORAGE_LOCATIONS)),
    confidence: v.nullable(Amount(1)),
    bestBefore: v.nullable(IsoDate),
    observedAt: At,
  });
  const Line = v.object({
    id: Uuid,
    foodKey: FoodKey,
    displayName: Name,
    requiredQuantity: Amount(SHOPPING_QUANTITY_MAX * 100),
    unit: Unit,
    extraQuantity: Amount(SHOPPING_QUANTITY_MAX),
    status: v.picklist(LINE_STATUSES),
    purchasedQuantity: Amount(SHOPPING_QUANTITY_MAX),
    purchasedUnit: v.nullable(Unit),
    reasonCode: v.picklist(REASON_CODES),
    haveQuantity: Amount(SHOPPING_QUANTITY_MAX * 100),
    relatedPlanEntryIds: many(Uuid, 7, 'days'),
    isManual: v.boolean(),
    addedAfterShopping: v.boolean(),
    aisle: Text(80),
    suggestedPrice: v.nullable(Amount(1_000_000)),
    suggestedProductName: v.nullable(Text(400)),
    suggestedPriceSource: v.picklist(['None', 'FoodTable'] as const),
    suggestedPriceIsAggregate: v.boolean(),
    tickNotified: v.boolean(),
    preferenceFit: v.picklist(PREFERENCE_FITS),
    // One package of the food as a shop sells it, when known: what to buy is counted in whole packages.
    pack: v.optional(v.nullable(v.object({ packUnit: v.picklist(PACK_UNITS), quantity: Amount(SHOPPING_QUANTITY_MAX), unit: Unit }))),
  });
  const ShoppingList = v.object({
    id: Uuid,
    planId: Uuid,
    generatedAt: At,
    completedAt: v.nullable(At),
    skippedReferences: many(Text(L.referenceMax), 2_000, 'references'),
    addedReferences: many(Text(L.referenceMax), 2_000, 'references'),
    trip: v.nullable(
      v.object({
        summary: v.object({ linesBought: Count, linesLeft: Count, observationsWritten: Count }),
        observationIds: many(Uuid, DOCUMENT_LIMITS.linesPerList, 'observations'),
        closingTicks: many(
          v.object({ lineId: Uuid, status: v.picklist(LINE_STATUSES), purchasedQuantity: Amount(SHOPPING_QUANTITY_MAX), purchasedUnit: v.nullable(Unit) }),
          DOCUMENT_LIMITS.linesPerList,
          'ticks',
        ),
        // What the closing carried into the next week's list (unticked=keep), for reopening to take back.
        carried: v.optional(
          v.object({
            planId: Uuid,
            lines: many(v.object({ foodKey: FoodKey, displayName: Name, quantity: Amount(SHOPPING_QUANTITY_MAX * 100), unit: Unit }), DOCUMENT_LIMITS.linesPerList, 'lines'),
          }),
        ),
      }),
    ),
    lines: many(Line, DOCUMENT_LIMITS.linesPerList, 'lines'),
    madeFor: v.pipe(
      v.record(IsoDate, v.object({ recipeId: Uuid, portions: v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(10_000, 'at most 10000')) })),
      v.maxEntries(7, 'at most 7 days'),
    ),
    wouldAdd: many(v.object({ foodKey: FoodKey, displayName: Name, quantity: Amount(SHOPPING_QUANTITY_MAX * 100), unit: Unit }), DOCUMENT_LIMITS.linesPerList, 'lines'),
    staleSince: v.nullable(At),
  });
  return v.object({
    $schema: v.optional(v.string()),
    format: v.literal(HOUSEHOLD_FORMAT),
    version: v.literal(HOUSEHOLD_FORMAT_VERSION),
    exportedAt: At,
    exportedBy: v.nullable(Uuid),
    household: v.object({
      name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(HOUSEHOLD_NAME_MAX, `at most ${HOUSEHOLD_NAME_MAX} characters`)),
      timeZoneId: Text(64),
      language: v.picklist(LANGUAGES),
      country: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as NO')),
      dinnerTime: HhMm,
      chains: many(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(80, 'at most 80 characters')), 50, 'chains'),
      sharingOff: v.boolean(),
      priceCatalogueOn: v.boolean(),
      dislikes: many(Filled(DISLIKE_MAX_LENGTH), DISLIKES_MAX, 'dislikes'),
      libraryRecipesOn: v.boolean(),
      // A document written before leftovers kept the default.
      leftoversKeepDays: v.optional(v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(LEFTOVERS_KEEP_DAYS_MAX, `at most ${LEFTOVERS_KEEP_DAYS_MAX}`)), LEFTOVERS_KEEP_DAYS_DEFAULT),
    }),
    members: many(
      v.object({
        id: Uuid,
        displayName: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(80, 'at most 80 characters')),
        role: v.picklist(ROLES),
        // A document written before members had an age group counted each as a whole portion: Adult.
        ageGroup: v.optional(v.picklist(AGE_GROUPS), 'Adult'),
        createdAt: At,
      }),
      DOCUMENT_LIMITS.members,
      'members',
    ),
    recipes: many(Recipe, DOCUMENT_LIMITS.recipes, 'recipes'),
    plans: many(Plan, DOCUMENT_LIMITS.plans, 'plans'),
    mealEvents: many(MealEvent, DOCUMENT_LIMITS.mealEvents, 'meal events'),
    pantry: v.object({
      observations: many(Observation, DOCUMENT_LIMITS.observations, 'observations'),
      merges: many(v.object({ fromKey: FoodKey, toKey: FoodKey, fromDisplayName: Name, toDisplayName: Name, mergedAt: At }), DOCUMENT_LIMITS.merges, 'merges'),
      rejections: many(v.object({ keyA: FoodKey, keyB: FoodKey, keyADisplayName: Name, keyBDisplayName: Name, decidedAt: At }), DOCUMENT_LIMITS.merges, 'rejections'),
      unitWeights: many(
        v.object({
          foodKey: FoodKey,
          unit: Unit,
          displayName: Name,
          grams: v.pipe(v.number(), v.finite('a number'), v.gtValue(0, 'greater than 0'), v.maxValue(UNIT_WEIGHT_MAX_GRAMS, `at most ${UNIT_WEIGHT_MAX_GRAMS}`)),
          updatedAt: At,
        }),
        DOCUMENT_LIMITS.merges,
        'unit weights',
      ),
    }),
    shoppingLists: many(ShoppingList, DOCUMENT_LIMITS.shoppingLists, 'shopping lists'),
  });
}

/** The published JSON Schema of the document (draft 2020-12), with its own address as $id. */
export function householdJsonSchema(settings: Pick<TransferSettings, 'publicBaseUrl' | 'imageMaxBytes'>): Record<string, unknown> {
  const schema = toJsonSchema(documentSchema(settings.imageMaxBytes), { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input' }) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${settings.publicBaseUrl}${HOUSEHOLD_SCHEMA_PATH}`,
    title: `A household of the dinner planner (format ${HOUSEHOLD_FORMAT}, version ${HOUSEHOLD_FORMAT_VERSION})`,
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

/** The document as JSON: pictures in base64, times as ISO 8601 (Date's own JSON). */
function toJson(doc: HouseholdDocument, schemaUrl: string): unknown {
  return {
    $schema: schemaUrl,
    ...doc,
    recipes: doc.recipes.map((r) => ({
      ...r,
      image: r.image && { sourceUrl: r.image.sourceUrl, mediaType: r.image.mediaType, data: Buffer.from(r.image.bytes.buffer, r.image.bytes.byteOffset, r.image.bytes.byteLength).toString('base64') },
    })),
  };
}

/** A file name for the download: the household's name in letters and digits, and the day. */
function fileName(name: string, at: Date): { ascii: string; utf8: string } {
  const day = at.toISOString().slice(0, 10);
  const words = name.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'household';
  const ascii = words.normalize('NFKD').replace(/[^A-Za-z0-9-]/g, '') || 'household';
  return { ascii: `${ascii}-${day}.json`, utf8: `${words}-${day}.json` };
}

/**
 * Tells a household file from any other JSON before it is validated, so that a file of another kind, or of a later
 * version of the format, is named as such rather than as a list of fields that do not fit.
 */
function recogniseDocument(body: unknown): void {
  const head = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as { format?: unknown; version?: unknown };
  if (head.format !== HOUSEHOLD_FORMAT) {
    throw new HttpProblem(400, 'not_a_household_document', 'Not a household export', `the file is not a household export (format "${HOUSEHOLD_FORMAT}")`);
  }
  if (typeof head.version === 'number' && head.version > HOUSEHOLD_FORMAT_VERSION) {
    throw new HttpProblem(
      400,
      'household_document_too_new',
      'Made by a newer version',
      `the file is version ${head.version} of the format; this service reads up to version ${HOUSEHOLD_FORMAT_VERSION}: update it first`,
      { version: head.version, supported: HOUSEHOLD_FORMAT_VERSION },
    );
  }
}


const FORMAT_DOC =
  `The document is JSON of format "${HOUSEHOLD_FORMAT}", version ${HOUSEHOLD_FORMAT_VERSION}, described by the JSON Schema at ${HOUSEHOLD_SCHEMA_PATH}. ` +
  'It holds the household\'s settings, its members as named people (name, role and age group: no e-mail address, account, ' +
  'password or session of anyone; a document without age groups, as written before members had them, imports each as an ' +
  'Adult), every recipe with its tags and its kept picture (bytes in base64; a document without tags, as ' +
  'written before recipes had them, imports with none), every plan with its seven days, every meal ' +
  'event, the pantry (its observation log, merges, answers that two foods differ, and unit weights) and the stored shopping ' +
  'list of each planned week (lines, what was bought, the trip). Ids only tie its parts together. Not in it: receipts, ' +
  'calendar feeds (their addresses may be private), the dinner-calendar link and invites (secrets), push devices, the billing ' +
  'plan and the AI quota.';

const EXPORT_DOC =
  `Owners only (another member: 403 owner_only). ${FORMAT_DOC} Answered as a download (Content-Disposition: attachment) ` +
  'and read in one consistent snapshot of the database.';
/** The import's rules, with the limits this service was started with. */
const importDoc = (settings: TransferSettings) =>
  `${FORMAT_DOC} The caller becomes the new household's Owner in the place of the member who exported it (exportedBy); ` +
    'every other member arrives as a named person without an account, whom an invite can give to someone (a named Owner ' +
    'arrives as an Adult: only an account holds the Owner role). Every part gets a new id; times are kept; the household ' +
    'is new, on the Free plan. Each part is checked as its own route checks it (the same limits), every reference ' +
    'between parts must resolve (400 household_document_invalid names the place, e.g. recipes.3.ingredients.1.baseRecipeId), ' +
    'and every picture must be a JPEG, PNG or WebP by its bytes. A document of another format is 400 ' +
    `not_a_household_document; a later version than ${HOUSEHOLD_FORMAT_VERSION} is 400 household_document_too_new. ` +
    `Bodies up to ${Math.round(settings.importMaxBytes / 1024 / 1024)} MiB (HOUSEHOLD_IMPORT_MAX_BYTES; 413 above), uploaded within ` +
    `${Math.round(settings.importTimeoutMs / 1000)} s (HOUSEHOLD_IMPORT_TIMEOUT_MS; 408 request_timeout after). ` +
    'Nothing is written unless all of it is: one transaction.';

type TransferRouteDeps = ServiceDeps & { readonly settings: TransferSettings };
const { handledRoute, handledHouseholdRoute } = resource<TransferRouteDeps>('Households');

// Both routes carry the document's schema, which holds the picture limit this service was started with.
const exportHouseholdRoute = (settings: TransferSettings) =>
  handledHouseholdRoute({
    method: 'GET',
    path: '/api/v1/households/{householdId}/export',
    operationId: 'exportHousehold',
    auth: 'session-or-token',
    summary: 'Download the household',
    description: EXPORT_DOC,
    responses: {
      200: { description: 'The household document', schema: documentSchema(settings.imageMaxBytes), headers: { 'Content-Disposition': 'attachment; filename="<name>-<YYYY-MM-DD>.json"' } },
    },
    errors: ['export-owner-only'],
    handle: async (ctx, { deps, caller, params, refuse }) => {
      // The export and import themselves are loaded at their first use (an idle server does not hold them).
      const { exportHousehold } = await import('../../../core/transfer/export-household.js');
      const result = await exportHousehold(deps, caller.account, params.householdId);
      if (!result.ok) throw refuse(result.error);
      const name = fileName(result.value.household.name, result.value.exportedAt);
      ctx.set('Content-Disposition', `attachment; filename="${name.ascii}"; filename*=UTF-8''${encodeURIComponent(name.utf8)}`);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(toJson(result.value, `${deps.settings.publicBaseUrl}${HOUSEHOLD_SCHEMA_PATH}`));
    },
  });

const importHouseholdRoute = (settings: TransferSettings) =>
  handledRoute({
    method: 'POST',
    path: '/api/v1/households/import',
    operationId: 'importHousehold',
    summary: 'Make a new household from an export',
    description: importDoc(settings),
    largeJson: {
      description: 'The household document, as GET .../export answered it (application/json).',
      schema: documentSchema(settings.imageMaxBytes),
      maxBytes: settings.importMaxBytes,
      timeoutMs: settings.importTimeoutMs,
      recognise: recogniseDocument,
    },
    responses: { 201: { description: 'The new household', schema: HouseholdResponse, headers: { Location: '/api/v1/households/{id}' } } },
    errors: ['household-document-invalid', 'time-zone-unknown'],
    problems: { not_a_household_document: 400, household_document_too_new: 400, request_timeout: 408 },
    handle: async (ctx, { deps, caller, body: doc, refuse }) => {
      const images = new Map<string, RecipeImage>();
      for (const [i, r] of doc.recipes.entries()) {
        if (!r.image) continue;
        const bytes = new Uint8Array(Buffer.from(r.image.data, 'base64'));
        const inspected = bytes.length > deps.settings.imageMaxBytes ? null : await inspectImage(bytes);
        if (!inspected?.ok) {
          throw refuse({ type: 'household-document-invalid', path: `recipes.${i}.image.data`, detail: 'is not a JPEG, PNG or WebP picture of at most 40 megapixels' });
        }
        images.set(r.id, { sourceUrl: r.image.sourceUrl, mediaType: inspected.mediaType, bytes, etag: inspected.etag });
      }
      const document: HouseholdDocument = { ...doc, recipes: doc.recipes.map((r) => ({ ...r, image: images.get(r.id) ?? null })) };
      const { importHousehold } = await import('../../../core/transfer/import-household.js');
      const result = await importHousehold(deps, caller.account, document, images);
      if (!result.ok) throw refuse(result.error);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/households/${result.value.id}`);
      ctx.body = toHouseholdResponse(result.value);
    },
  });

export const householdTransferRoutes = (deps: ServiceDeps, settings: TransferSettings) =>
  mount<TransferRouteDeps>({ ...deps, settings }, [exportHouseholdRoute(settings), importHouseholdRoute(settings)]);
