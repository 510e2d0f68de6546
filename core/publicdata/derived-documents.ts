import type { FoodProduct } from '../food/types.js';
import type { LibraryRecipe } from '../../ports/recipe-library.js';

/**
 * The two public downloads (GET /api/v1/data/food-db-derived.jsonl.gz and GET /api/v1/data/library-derived.jsonl.gz
 * in the OpenAPI document), by the name they are stored and served under.
 */
export const DERIVED_FILES = {
  foodDb: 'food-db-derived.jsonl.gz',
  library: 'library-derived.jsonl.gz',
} as const;
export type DerivedFileName = (typeof DERIVED_FILES)[keyof typeof DERIVED_FILES];

/** Bumped when the shape of a line changes, so that readers can tell. */
export const DERIVED_FORMAT = 1;

/** What the food data is and may be used under: the food source's terms, named in the file's first line. */
export interface DataNotice {
  /** SPDX licence id. */
  readonly licence: string;
  readonly licenceUrl: string | null;
  readonly sources: readonly string[];
  readonly attribution: string;
  /** Anything a reader must know about the data (e.g. that it is illustrative); null: nothing. */
  readonly note: string | null;
}

/**
 * Share-alike licences: the Creative Commons BY-SA family, with or without NC, any version or port
 * (CC-BY-SA-4.0, CC-BY-SA-3.0-DE, CC-BY-NC-SA-4.0). Recipes under others (CC-BY-4.0, CC0-1.0) stay out of the
 * library download: their terms do not ask for shared copies to stay open, so we do not republish them.
 */
export function isShareAlike(licence: string): boolean {
  return /^CC-BY-(NC-)?SA-\d+\.\d+(-[A-Z]{2,3})?$/.test(licence);
}

/** The licence the library download is offered under when it holds no recipe (the one its recipes carry by default). */
export const LIBRARY_DEFAULT_LICENCE = 'CC-BY-SA-4.0';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const line = (o: unknown) => `${JSON.stringify(o)}\n`;

/**
 * The food-table download as JSON lines: a header, one `product` line per product row (ordered by id), then one
 * `barcode` line per distinct EAN-to-food-key mapping (ordered by EAN, then food key). Every object is written
 * with its keys in a fixed order and nothing depends on the time it is built, so the same rows give the same text
 * (and, gzipped, the same ETag).
 */
export function foodDbDocument(products: readonly FoodProduct[], notice: DataNotice): string {
  const rows = [...products].sort((a, b) => cmp(a.id, b.id));
  const barcodes = new Map<string, { ean: string; foodKey: string }>();
  for (const p of rows) if (p.ean !== null) barcodes.set(`${p.ean}\u0000${p.foodKey}`, { ean: p.ean, foodKey: p.foodKey });
  const mappings = [...barcodes.values()].sort((a, b) => cmp(a.ean, b.ean) || cmp(a.foodKey, b.foodKey));
  const header = {
    type: 'header',
    file: DERIVED_FILES.foodDb,
    format: DERIVED_FORMAT,
    licence: notice.licence,
    licenceUrl: notice.licenceUrl,
    sources: [...notice.sources],
    attribution: notice.attribution,
    note: notice.note,
    products: rows.length,
    barcodes: mappings.length,
  };
  const product = (p: FoodProduct) => ({
    type: 'product',
    id: p.id,
    ean: p.ean,
    name: p.name,
    foodKey: p.foodKey,
    foodGroup: p.foodGroup,
    novaGroup: p.novaGroup,
    nutriScore: p.nutriScore,
    prices: p.prices.map((c) => ({ chain: c.chain, price: c.price, unit: c.unit, packageSize: c.packageSize })),
  });
  return [line(header), ...rows.map((p) => line(product(p))), ...mappings.map((m) => line({ type: 'barcode', ean: m.ean, foodKey: m.foodKey }))].join('');
}

/**
 * The library download as JSON lines: a header, then one `recipe` line per share-alike recipe (ordered by id),
 * each with its own licence, source and credit line. The header's licence is the recipes' one licence, an SPDX
 * AND of their licences when they differ, or the default share-alike licence when none is seeded (then the header
 * is the only line). Nothing depends on the time it is built.
 */
export function libraryDocument(recipes: readonly LibraryRecipe[]): string {
  const shared = recipes.filter((r) => isShareAlike(r.licence)).sort((a, b) => cmp(a.id, b.id));
  const licences = [...new Set(shared.map((r) => r.licence))].sort(cmp);
  const sources = [...new Set(shared.map((r) => r.source))].sort(cmp);
  const header = {
    type: 'header',
    file: DERIVED_FILES.library,
    format: DERIVED_FORMAT,
    licence: licences.length === 0 ? LIBRARY_DEFAULT_LICENCE : licences.join(' AND '),
    sources,
    attribution:
      shared.length === 0
        ? 'No share-alike recipe is seeded on this server.'
        : `Recipes from ${sources.join('; ')}. Each recipe line names its licence, source and the credit line its licence asks for: keep them with every copy.`,
    recipes: shared.length,
  };
  const recipe = (r: LibraryRecipe) => ({
    type: 'recipe',
    id: r.id,
    title: r.title,
    servings: r.servings,
    totalMinutes: r.totalMinutes,
    licence: r.licence,
    source: r.source,
    attribution: r.attribution,
    ingredients: r.ingredients.map((i) => ({ foodKey: i.foodKey, displayName: i.displayName, quantity: i.quantity, unit: i.unit })),
  });
  return [line(header), ...shared.map((r) => line(recipe(r)))].join('');
}
