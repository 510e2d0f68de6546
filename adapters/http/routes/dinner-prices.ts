import { createHash } from 'node:crypto';
import type Koa from 'koa';
import * as v from 'valibot';
import { dinnerPriceFiles } from '../../../core/dinnerprices/publish.js';
import { DINNER_PRICE_SOURCE, HOUSEHOLD_TYPES } from '../../../core/dinnerprices/types.js';
import type { DinnerPriceStore } from '../../../ports/dinner-price-store.js';
import { mount, resource } from '../route.js';
import { ifNoneMatchHolds } from '../conditional.js';

const HouseholdType = v.picklist(HOUSEHOLD_TYPES.map((h) => h.type));
const Kroner = v.pipe(v.number(), v.minValue(0));

export const DinnerPricesPublic = v.object({
  generatedAt: v.pipe(v.nullable(v.string()), v.description('When the files were built; null before the first publication.')),
  currency: v.literal('NOK'),
  recipeSetVersion: v.pipe(v.nullable(v.string()), v.description('The recipe set of the newest published month; null with none.')),
  months: v.array(
    v.object({
      month: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/), v.description('YYYY-MM')),
      householdType: HouseholdType,
      medianWeekPrice: Kroner,
      p10WeekPrice: Kroner,
      p90WeekPrice: Kroner,
      pricePerPortion: Kroner,
      coverage: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
      chains: v.pipe(v.number(), v.integer(), v.minValue(0)),
      weeksMeasured: v.pipe(v.number(), v.integer(), v.minValue(1)),
    }),
  ),
});

const METHOD_DOC =
  'Household types: single (1 adult, 1 portion), couple (2 adults, 2 portions), family (2 adults and 2 children, 3 ' +
  'portions: a child eats half a portion). Each week (ISO week, Oslo calendar) a job draws, per household type, 1000 ' +
  'recipes from the recipe library with replacement by a seeded generator (mulberry32; the seed is FNV-1a of ' +
  '"dinner-prices/{week}/{type}", recorded with the recipe set\'s version), cuts them in draw order into 142 weeks of 7 ' +
  'dinners (the last 6 draws are dropped) and prices each week at list prices: every recipe scaled to the type\'s ' +
  'portions over its servings, every line costing its amount converted to a product\'s unit times that product\'s ' +
  'price per unit (package price ÷ package size), at the cheapest such price of any chain (proportional cost: no whole ' +
  'packages, no pantry). Lines "to taste" cost nothing; a line whose food has no list price in a convertible unit ' +
  'leaves its week unpriced. The weekly measurement is the median of the fully priced weeks; its coverage is fully ' +
  'priced ÷ drawn weeks, its chains the number of chains whose prices were used. A month is published once it has ' +
  'ended (Oslo calendar); a measurement counts for the month its week starts in. Per household type and month: ' +
  'medianWeekPrice, p10WeekPrice and p90WeekPrice are percentiles of the month\'s weekly medians by linear ' +
  'interpolation between closest ranks (position (n − 1)·p in the sorted values); pricePerPortion is the median ÷ 7 ÷ ' +
  'portions; coverage is pooled over the month\'s measurements (weeks priced ÷ weeks drawn); chains is the most any ' +
  'of them used; weeksMeasured counts the weekly medians. NOK rounded to øre, coverage to three decimals. No ' +
  'per-chain figure and no product price is published. The files are built by a daily job, rewritten only when ' +
  'the figures change, and served as stored with a strong ETag (SHA-256 of the bytes, hex); If-None-Match with it answers 304. Counted per ' +
  'client IP in the data-per-ip class.';

/** As the other public files: an hour of caching, then a conditional request answers 304 without a body. */
const CACHE_CONTROL = 'public, max-age=3600, no-transform';

/**
 * The strong ETag of a file's bytes (SHA-256, hex). The files change at most once a day: the hash of the bytes last
 * served is kept, per file, so a request compares the bytes instead of hashing them again.
 */
function etags(): (file: string, body: string) => string {
  const last = new Map<string, { body: string; etag: string }>();
  return (file, body) => {
    const held = last.get(file);
    if (held?.body === body) return held.etag;
    const etag = `"${createHash('sha256').update(body, 'utf8').digest('hex')}"`;
    last.set(file, { body, etag });
    return etag;
  };
}

/** Answers the stored bytes with their strong ETag, or 304 when the client holds them. */
function serve(ctx: Koa.Context, body: string, etag: string, generatedAt: Date | null, contentType: string): void {
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', CACHE_CONTROL);
  if (generatedAt !== null) ctx.set('Last-Modified', generatedAt.toUTCString());
  if (ifNoneMatchHolds(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = contentType;
  ctx.body = body;
}

const { handledRoute } = resource<{ readonly dinnerPrices: DinnerPriceStore }>('Public data');

const headers = { ETag: '"<SHA-256 of the bytes, hex>"', 'Cache-Control': CACHE_CONTROL, 'Last-Modified': 'generatedAt (absent before the first publication)' };
const etagOf = etags();

const GET_DINNER_PRICES_CSV_DOC =
  `${METHOD_DOC} RFC 4180, UTF-8, CRLF line ends: a header row month,householdType,medianWeekPrice,p10WeekPrice,` +
  `p90WeekPrice,pricePerPortion,coverage,chains,source,recipeSetVersion, then one row per household type and ` +
  `month as in the JSON document (NOK with two decimals; source is "${DINNER_PRICE_SOURCE}"). Before the first ` +
  'publication: the header row only.';

const getDinnerPricesJsonRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/data/dinner-prices.json',
  operationId: 'getDinnerPricesJson',
  summary: 'Typical dinner prices per household type and month (JSON)',
  description: `${METHOD_DOC} Before the first publication: generatedAt and recipeSetVersion null, months empty.`,
  auth: 'public',
  rateLimit: 'data-per-ip',
  responses: {
    200: { description: 'DinnerPricesPublic, rows by month, then household type (single, couple, family)', schema: DinnerPricesPublic, headers },
    304: { description: 'Not modified since the ETag sent' },
  },
  handle: async (ctx, { deps }) => {
    const files = await dinnerPriceFiles(deps);
    serve(ctx, files.json, etagOf('json', files.json), files.generatedAt, 'application/json; charset=utf-8');
  },
});

const getDinnerPricesCsvRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/data/dinner-prices.csv',
  operationId: 'getDinnerPricesCsv',
  summary: 'Typical dinner prices per household type and month (CSV)',
  description: GET_DINNER_PRICES_CSV_DOC,
  auth: 'public',
  rateLimit: 'data-per-ip',
  responses: {
    200: { description: 'The rows as CSV', contentType: 'text/csv', headers },
    304: { description: 'Not modified since the ETag sent' },
  },
  handle: async (ctx, { deps }) => {
    const files = await dinnerPriceFiles(deps);
    serve(ctx, files.csv, etagOf('csv', files.csv), files.generatedAt, 'text/csv; charset=utf-8');
  },
});

export const dinnerPriceRoutes = (deps: { readonly dinnerPrices: DinnerPriceStore }) =>
  mount(deps, [
    getDinnerPricesJsonRoute,
    getDinnerPricesCsvRoute,
  ]);

