import type { Clock } from '../../ports/clock.js';
import type { FilePacker } from '../../ports/file-packer.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { PublicDataFile, PublicDataFiles } from '../../ports/public-data-files.js';
import type { RecipeLibrary } from '../../ports/recipe-library.js';
import type { FoodProduct } from '../food/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { DERIVED_FILES, foodDbDocument, libraryDocument, type DataNotice, type DerivedFileName } from './derived-documents.js';

/**
 * The public downloads are built here, from the food table and the recipe library, and stored whole; requests
 * only read what is stored. When they are built:
 *  - the food db after every food-table sync (the scheduled job), and at start only when the table has been
 *    synced but no file is stored yet (an install that synced before this existed). Never before the first sync:
 *    until then it answers 404.
 *  - the library at every start (the library ships with the build, so a new build may bring other recipes) and
 *    after every sync.
 * A build whose bytes equal the stored file's stores nothing, so the ETag and builtAt move only when the content
 * does, whichever process builds.
 */
export interface DerivedFileDeps {
  readonly foodTable: FoodTableStore;
  readonly recipeLibrary: RecipeLibrary;
  readonly publicDataFiles: PublicDataFiles;
  readonly filePacker: FilePacker;
  /** The licence, sources and credit of the food source (named in the food db's first line). */
  readonly foodDataNotice: DataNotice;
  readonly clock: Clock;
}

export interface BuildOutcome {
  readonly name: DerivedFileName;
  /** written: new bytes stored; unchanged: built, same bytes as stored; kept: not built; not-synced: no sync yet. */
  readonly state: 'written' | 'unchanged' | 'kept' | 'not-synced';
  readonly sha256: string | null;
  readonly size: number | null;
}

/** Products are read a page at a time, so a large food table is never one query's worth of rows. */
const PAGE = 1000;

async function allProducts(foodTable: FoodTableStore): Promise<FoodProduct[]> {
  const out: FoodProduct[] = [];
  for (let after: string | null = null; ; ) {
    const page = await foodTable.productsAfter(after, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
    after = page[page.length - 1]!.id;
  }
}

async function store(deps: DerivedFileDeps, name: DerivedFileName, text: string): Promise<BuildOutcome> {
  const { bytes, sha256 } = await deps.filePacker.gzip(text);
  const stored = await deps.publicDataFiles.head(name);
  if (stored?.sha256 === sha256) return { name, state: 'unchanged', sha256, size: bytes.byteLength };
  await deps.publicDataFiles.put({ name, bytes, sha256, builtAt: deps.clock.now() });
  return { name, state: 'written', sha256, size: bytes.byteLength };
}

/** Builds the library download from every recipe of the library (only the share-alike ones go in). */
export async function buildLibraryFile(deps: DerivedFileDeps): Promise<BuildOutcome> {
  return store(deps, DERIVED_FILES.library, libraryDocument(await deps.recipeLibrary.all()));
}

/** Builds the food db download from the food table; nothing before the table's first sync. */
export async function buildFoodDbFile(deps: DerivedFileDeps): Promise<BuildOutcome> {
  if ((await deps.foodTable.lastSyncedAt()) === null) return { name: DERIVED_FILES.foodDb, state: 'not-synced', sha256: null, size: null };
  return store(deps, DERIVED_FILES.foodDb, foodDbDocument(await allProducts(deps.foodTable), deps.foodDataNotice));
}

/** After a food-table sync: both downloads. */
export async function buildDerivedFiles(deps: DerivedFileDeps): Promise<BuildOutcome[]> {
  return [await buildFoodDbFile(deps), await buildLibraryFile(deps)];
}

/** At start: the library always; the food db only when the table was synced and no file is stored yet. */
export async function ensureDerivedFiles(deps: DerivedFileDeps): Promise<BuildOutcome[]> {
  const library = await buildLibraryFile(deps);
  const storedFoodDb = await deps.publicDataFiles.head(DERIVED_FILES.foodDb);
  const foodDb = storedFoodDb
    ? { name: DERIVED_FILES.foodDb, state: 'kept' as const, sha256: storedFoodDb.sha256, size: storedFoodDb.size }
    : await buildFoodDbFile(deps);
  return [foodDb, library];
}

/**
 * The stored download. No food db yet means the food table has never been synced (the download answers 404); a
 * missing library file means its build at start failed (it is built before the server listens), which the next start or
 * sync repairs.
 */
export async function derivedFile(
  deps: { publicDataFiles: PublicDataFiles },
  name: DerivedFileName,
): Promise<Result<PublicDataFile, ErrorOf<'food-db-not-built' | 'library-file-not-built'>>> {
  const file = await deps.publicDataFiles.get(name);
  if (file) return ok(file);
  return fail(name === DERIVED_FILES.foodDb ? { type: 'food-db-not-built' } : { type: 'library-file-not-built' });
}
