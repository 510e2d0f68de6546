import type Koa from 'koa';
import { DERIVED_FILES, type DerivedFileName } from '../../../core/publicdata/derived-documents.js';
import { derivedFile } from '../../../core/publicdata/derived-files.js';
import type { PublicDataFiles } from '../../../ports/public-data-files.js';
import type { ErrorOf } from '../../../core/kernel/errors.js';
import type { HttpProblem } from '../problem.js';
import { mount, resource } from '../route.js';
import { ifNoneMatchHolds } from '../conditional.js';

/**
 * The files change at most once a sync (daily) and their ETag is the SHA-256 of the bytes: an hour of caching, then
 * a conditional request answers 304 without a body. no-transform: the bytes must stay the ones the ETag names.
 */
export const DERIVED_FILE_CACHE_CONTROL = 'public, max-age=3600, no-transform';

const FORMAT_DOC =
  'application/gzip: gzipped JSON lines (UTF-8, one object per line, each with a `type`). The first line is the ' +
  '`header`: file, format (1), licence (SPDX), sources, attribution and counts. The file is built by the food-table ' +
  'sync job and stored, never built per request; its bytes depend only on the data, so the ETag (the SHA-256 of the ' +
  'bytes, hex, strong) changes only when the data does. If-None-Match with it answers 304 without a body. ' +
  `Cache-Control: ${DERIVED_FILE_CACHE_CONTROL}; Last-Modified is when these bytes were built. Counted per client IP ` +
  'in the data-per-ip class. HEAD answers the headers alone.';

/** RFC 9110 13.1: If-None-Match decides when sent; else If-Modified-Since against builtAt (to the second). */
function notModified(ifNoneMatch: string, ifModifiedSince: string, sha256: string, builtAt: Date): boolean {
  if (ifNoneMatch.trim() !== '') return ifNoneMatchHolds(ifNoneMatch, `"${sha256}"`);
  const since = Date.parse(ifModifiedSince);
  return ifModifiedSince !== '' && Number.isFinite(since) && Math.floor(builtAt.getTime() / 1000) * 1000 <= since;
}

const FOOD_DB_DOC =
  `${FORMAT_DOC} After the header: one \`product\` line per product row held (id, ean, name, foodKey, foodGroup, ` +
  'novaGroup, nutriScore, prices: the chain list prices), ordered by id, then one `barcode` line (ean, foodKey) per ' +
  'distinct mapping, ordered by EAN. The header names the food source\'s licence, source and attribution (the ' +
  'embedded sample catalogue: CC-BY-4.0). 404 food_db_not_built until the food table\'s first sync has run.';
const LIBRARY_DOC =
  `${FORMAT_DOC} After the header: one \`recipe\` line per library recipe carrying a share-alike licence ` +
  '(CC BY-SA family), ordered by id: id, title, servings, licence, source, attribution, ingredients (foodKey, ' +
  'displayName, quantity, unit; quantity and unit null for "to taste"). Recipes under other licences (CC-BY-4.0, ' +
  'CC0-1.0) are left out. The header names the licence (their one licence, or an SPDX AND of several), the ' +
  'sources and the attribution. Always 200: with only the header line when no recipe is seeded ' +
  '(RECIPE_LIBRARY=none). The file is built at start and after each sync.';

type Deps = { readonly publicDataFiles: PublicDataFiles };
type NotBuilt = 'food-db-not-built' | 'library-file-not-built';
const { handledRoute } = resource<Deps>('Public data');

/**
 * Answers one derived file, or the problem of its absence. derivedFile fails only with the failure of the file it
 * was asked for, so each route declares (and documents) that one alone.
 */
const download =
  <E extends NotBuilt>(name: DerivedFileName) =>
  async (ctx: Koa.Context, { deps, refuse }: { readonly deps: Deps; readonly refuse: (error: ErrorOf<E>) => HttpProblem }) => {
    const result = await derivedFile(deps, name);
    if (!result.ok) throw refuse(result.error as ErrorOf<E>);
    const file = result.value;
    ctx.set('ETag', `"${file.sha256}"`);
    ctx.set('Cache-Control', DERIVED_FILE_CACHE_CONTROL);
    ctx.set('Last-Modified', file.builtAt.toUTCString());
    if (notModified(ctx.get('If-None-Match'), ctx.get('If-Modified-Since'), file.sha256, file.builtAt)) {
      ctx.status = 304;
      return;
    }
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.type = 'application/gzip';
    ctx.body = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  };

const responses = {
  200: {
    description: 'The gzipped JSON lines',
    contentType: 'application/gzip',
    headers: { ETag: '"<SHA-256 of the bytes, hex>"', 'Cache-Control': DERIVED_FILE_CACHE_CONTROL, 'Last-Modified': 'when these bytes were built' },
  },
  304: { description: 'Not modified: the ETag sent is the current file\'s' },
};

/** The GET route of one derived file: Public, counted per client IP in the data class, answering its absence. */
const derivedFileRoute = <E extends NotBuilt>(name: DerivedFileName, def: { readonly operationId: string; readonly summary: string; readonly description: string; readonly notBuilt: E }) =>
  handledRoute({
    method: 'GET',
    path: `/api/v1/data/${name}`,
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    auth: 'public',
    rateLimit: 'data-per-ip',
    responses,
    errors: [def.notBuilt],
    handle: download<E>(name),
  });

const foodDbDerivedRoute = derivedFileRoute(DERIVED_FILES.foodDb, {
  operationId: 'foodDbDerived',
  summary: 'Every product row and barcode-to-food-key mapping of the food table, as gzipped JSON lines',
  description: FOOD_DB_DOC,
  notBuilt: 'food-db-not-built',
});

const libraryDerivedRoute = derivedFileRoute(DERIVED_FILES.library, {
  operationId: 'libraryDerived',
  summary: 'The library recipes under a share-alike licence, as gzipped JSON lines',
  description: LIBRARY_DOC,
  notBuilt: 'library-file-not-built',
});

export const publicDataRoutes = (deps: Deps) => mount(deps, [foodDbDerivedRoute, libraryDerivedRoute]);
