import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { HouseholdArchive, HouseholdArchiveStore } from '../../ports/household-archive.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { PlanRow } from '../../ports/plan-store.js';
import type { RecipeImage } from '../../ports/recipe-image.js';
import type { TimeZoneCatalog } from '../../ports/time-zones.js';
import type { Account } from '../accounts/types.js';
import type { MealEvent } from '../events/types.js';
import { normalizeUnit } from '../pantry/unit-weights.js';
import type { PantryMerge, PantryMergeRejection, PantryObservation, UnitWeight } from '../pantry/types.js';
import type { Ingredient, Recipe, RecipeContent, RecipeImageType } from '../recipes/types.js';
import { isIsoDate, weekDates, weekStartOf } from '../shared/dates.js';
import type { ErrorOf } from '../shared/errors.js';
import { normalizeFoodKey } from '../shared/food-key.js';
import type { HouseholdId } from '../shared/ids.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { ShoppingLine, ShoppingList } from '../shopping/types.js';
import { requireMember } from './access.js';
import type { Household, HouseholdRole, HouseholdWithMembers, Member } from './types.js';

/** What the document says it is; a reader refuses any other. */
export const HOUSEHOLD_FORMAT = 'dinner-household';
/** The version of the document this code writes and reads; a later one is refused by name. */
export const HOUSEHOLD_FORMAT_VERSION = 1;

/** A recipe line as the document carries it: its food key is the server's to compute again. */
export type DocumentIngredient = Omit<Ingredient, 'foodKey'>;

export interface DocumentRecipe extends Omit<RecipeContent, 'ingredients'> {
  readonly id: string;
  readonly ingredients: readonly DocumentIngredient[];
  /** The kept picture, with its bytes. */
  readonly image: { readonly sourceUrl: string; readonly mediaType: RecipeImageType; readonly bytes: Uint8Array } | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * A household as one versioned document (HOUSEHOLD_FORMAT, version HOUSEHOLD_FORMAT_VERSION): what an Owner
 * downloads, and what makes a new household on any instance. Ids are the exporting instance's; they only tie the
 * parts together, and an import gives every part a new one. Members are named people: no account, e-mail
 * address or password of anyone is in it.
 */
export interface HouseholdDocument {
  readonly format: typeof HOUSEHOLD_FORMAT;
  readonly version: typeof HOUSEHOLD_FORMAT_VERSION;
  readonly exportedAt: Date;
  /** The member who exported it: whoever imports the document takes that member's place (as Owner). */
  readonly exportedBy: string | null;
  readonly household: HouseholdSettings;
  readonly members: readonly { readonly id: string; readonly displayName: string; readonly role: HouseholdRole; readonly createdAt: Date }[];
  readonly recipes: readonly DocumentRecipe[];
  readonly plans: readonly Omit<PlanRow, 'householdId'>[];
  readonly mealEvents: readonly Omit<MealEvent, 'householdId'>[];
  readonly pantry: {
    readonly observations: readonly Omit<PantryObservation, 'householdId'>[];
    readonly merges: readonly Omit<PantryMerge, 'householdId'>[];
    readonly rejections: readonly Omit<PantryMergeRejection, 'householdId'>[];
    readonly unitWeights: readonly Omit<UnitWeight, 'householdId'>[];
  };
  readonly shoppingLists: readonly Omit<ShoppingList, 'householdId' | 'version' | 'derivation'>[];
}

/** What the document keeps of the household itself: its settings (its id, plan and times are the instance's). */
export type HouseholdSettings = Pick<
  Household,
  'name' | 'timeZoneId' | 'language' | 'country' | 'dinnerTime' | 'chains' | 'sharingOff' | 'priceCatalogueOn' | 'dislikes' | 'libraryRecipesOn'
>;

export interface TransferDeps {
  readonly households: HouseholdStore;
  readonly archive: HouseholdArchiveStore;
  readonly timeZones: TimeZoneCatalog;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/** The settings alone, whatever else `h` carries. */
const settingsOf = (h: HouseholdSettings): HouseholdSettings => ({
  name: h.name,
  timeZoneId: h.timeZoneId,
  language: h.language,
  country: h.country,
  dinnerTime: h.dinnerTime,
  chains: h.chains,
  sharingOff: h.sharingOff,
  priceCatalogueOn: h.priceCatalogueOn,
  dislikes: h.dislikes,
  libraryRecipesOn: h.libraryRecipesOn,
});

const without = <T extends { householdId: string }>(row: T): Omit<T, 'householdId'> => {
  const { householdId: _h, ...rest } = row;
  return rest;
};

/** The household as a document; only its Owners may take it (anyone else who is a member: 'owner-only'). */
export async function exportHousehold(
  deps: Pick<TransferDeps, 'households' | 'archive' | 'clock'>,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<HouseholdDocument, ErrorOf<'household-not-found' | 'export-owner-only'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  if (member.value.role !== 'Owner') return fail({ type: 'export-owner-only' });
  const a = await deps.archive.read(householdId);
  if (!a) return fail({ type: 'household-not-found' });
  const h = a.household;
  const images = new Map(a.images.map((i) => [i.recipeId, i.image]));
  return ok({
    format: HOUSEHOLD_FORMAT,
    version: HOUSEHOLD_FORMAT_VERSION,
    exportedAt: deps.clock.now(),
    exportedBy: member.value.id,
    household: settingsOf(h),
    members: h.members.map((m) => ({ id: m.id, displayName: m.displayName, role: m.role, createdAt: m.createdAt })),
    recipes: a.recipes.map(({ householdId: _h, image: _info, ingredients, ...recipe }) => {
      const image = images.get(recipe.id);
      return {
        ...recipe,
        ingredients: ingredients.map(({ foodKey: _k, ...line }) => line),
        image: image ? { sourceUrl: image.sourceUrl, mediaType: image.mediaType, bytes: image.bytes } : null,
      };
    }),
    plans: a.plans.map(without),
    mealEvents: a.events.map(without),
    pantry: {
      observations: a.observations.map(without),
      merges: a.merges.map(without),
      rejections: a.rejections.map(without),
      unitWeights: a.unitWeights.map(without),
    },
    shoppingLists: a.shoppingLists.map(({ householdId: _h, version: _v, derivation: _d, ...list }) => list),
  });
}

/** Why a document cannot make a household: where (a path into the document) and what. */
type Invalid = ErrorOf<'household-document-invalid'>;
const invalid = (path: string, detail: string): Invalid => ({ type: 'household-document-invalid', path, detail });

/** Fresh ids for one kind of part, each old id given once. */
function renamer(ids: IdGenerator) {
  const map = new Map<string, string>();
  return {
    add(old: string): boolean {
      if (map.has(old)) return false;
      map.set(old, ids.newId());
      return true;
    },
    has: (old: string) => map.has(old),
    get(old: string): string {
      const id = map.get(old);
      if (id === undefined) throw new Error(`no new id for ${old}`);
      return id;
    },
  };
}

/** A recipe whose bases lead back to itself (what the recipe routes refuse as recipe-cycle). */
function findCycle(recipes: readonly DocumentRecipe[]): string | null {
  const byId = new Map(recipes.map((r) => [r.id, r]));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): string | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return id;
    state.set(id, 'open');
    for (const line of byId.get(id)?.ingredients ?? []) {
      if (line.baseRecipeId === null) continue;
      const found = visit(line.baseRecipeId);
      if (found) return found;
    }
    state.set(id, 'done');
    return null;
  };
  for (const r of recipes) {
    const found = visit(r.id);
    if (found) return found;
  }
  return null;
}

/** normalizeFoodKey of a key the document carries; null when nothing of it is left. */
const foodKey = (key: string): string | null => {
  const k = normalizeFoodKey(key);
  return k === '' ? null : k;
};

/**
 * Makes a new household from a document, with the caller as its Owner in the place of the member who exported it
 * (under that member's name), or as a member of its own when the document names none. Every other member is a named person, whom an invite
 * can later give to an account. Every part gets a new id; times are kept, but the household itself is new (created
 * now, on the Free plan). Everything is checked before anything is written, and it is written in one transaction:
 * a document that fails a check writes nothing and says where ('household-document-invalid').
 */
export async function importHousehold(
  deps: TransferDeps,
  caller: Account,
  doc: HouseholdDocument,
  images: ReadonlyMap<string, RecipeImage>,
): Promise<Result<HouseholdWithMembers, Invalid | ErrorOf<'time-zone-unknown'>>> {
  if (!deps.timeZones.has(doc.household.timeZoneId)) return fail({ type: 'time-zone-unknown', timeZoneId: doc.household.timeZoneId });
  const now = deps.clock.now();
  const householdId = deps.ids.newId();

  // Members: the exporter becomes the caller; the rest are named people.
  const memberIds = renamer(deps.ids);
  for (const [i, m] of doc.members.entries()) if (!memberIds.add(m.id)) return fail(invalid(`members.${i}.id`, 'this id is given twice'));
  const exporter = doc.exportedBy === null ? undefined : doc.members.find((m) => m.id === doc.exportedBy);
  if (doc.exportedBy !== null && !exporter) return fail(invalid('exportedBy', 'names no member of the document'));
  const you: Member = exporter
    ? { id: memberIds.get(exporter.id), householdId, displayName: exporter.displayName, role: 'Owner', accountId: caller.id, createdAt: exporter.createdAt }
    : { id: deps.ids.newId(), householdId, displayName: caller.displayName, role: 'Owner', accountId: caller.id, createdAt: now };
  const members: Member[] = [
    you,
    ...doc.members
      .filter((m) => m !== exporter)
      // Only an account holds the Owner role: a named Owner arrives as an Adult.
      .map((m) => ({ id: memberIds.get(m.id), householdId, displayName: m.displayName, role: m.role === 'Owner' ? 'Adult' : m.role, accountId: null, createdAt: m.createdAt })),
  ];

  // Recipes: bases within the document, no cycle, pictures that passed the image checks.
  const recipeIds = renamer(deps.ids);
  for (const [i, r] of doc.recipes.entries()) if (!recipeIds.add(r.id)) return fail(invalid(`recipes.${i}.id`, 'this id is given twice'));
  for (const [i, r] of doc.recipes.entries()) {
    for (const [j, line] of r.ingredients.entries()) {
      if (line.baseRecipeId !== null && !recipeIds.has(line.baseRecipeId)) {
        return fail(invalid(`recipes.${i}.ingredients.${j}.baseRecipeId`, 'names no recipe of the document'));
      }
    }
    if (r.image !== null && !images.has(r.id)) return fail(invalid(`recipes.${i}.image`, 'the picture was not checked'));
    if (r.createdAt > r.updatedAt) return fail(invalid(`recipes.${i}.updatedAt`, 'is before createdAt'));
  }
  const cycle = findCycle(doc.recipes);
  if (cycle !== null) return fail(invalid(`recipes.${doc.recipes.findIndex((r) => r.id === cycle)}`, 'its base recipes lead back to itself'));
  const recipes: Recipe[] = doc.recipes.map((r) => ({
    ...r,
    id: recipeIds.get(r.id),
    householdId,
    ingredients: r.ingredients.map((line) => ({
      ...line,
      foodKey: normalizeFoodKey(line.displayName),
      baseRecipeId: line.baseRecipeId === null ? null : recipeIds.get(line.baseRecipeId),
    })),
    // The picture goes apart (archiveImages); the store reads its info back from the kept bytes.
    image: null,
  }));
  const archiveImages = doc.recipes.flatMap((r) => {
    const image = r.image === null ? undefined : images.get(r.id);
    return image ? [{ recipeId: recipeIds.get(r.id), image }] : [];
  });

  // Plans: one a week, a Monday, its seven days.
  const planIds = renamer(deps.ids);
  const dayIds = renamer(deps.ids);
  const dayPlan = new Map<string, string>();
  const weeks = new Set<string>();
  for (const [i, p] of doc.plans.entries()) {
    if (!planIds.add(p.id)) return fail(invalid(`plans.${i}.id`, 'this id is given twice'));
    if (!isIsoDate(p.weekStart) || weekStartOf(p.weekStart) !== p.weekStart) return fail(invalid(`plans.${i}.weekStart`, 'is not a Monday'));
    if (weeks.has(p.weekStart)) return fail(invalid(`plans.${i}.weekStart`, 'another plan has this week'));
    weeks.add(p.weekStart);
    const dates = weekDates(p.weekStart);
    const given = p.days.map((d) => d.date).sort();
    if (given.length !== 7 || given.some((d, k) => d !== dates[k])) return fail(invalid(`plans.${i}.days`, 'must be the seven days of its week, each once'));
    for (const [j, d] of p.days.entries()) {
      if (!dayIds.add(d.id)) return fail(invalid(`plans.${i}.days.${j}.id`, 'this id is given twice'));
      dayPlan.set(d.id, p.id);
      if (d.recipeId !== null && !recipeIds.has(d.recipeId)) return fail(invalid(`plans.${i}.days.${j}.recipeId`, 'names no recipe of the document'));
    }
  }
  const plans: PlanRow[] = doc.plans.map((p) => ({
    id: planIds.get(p.id),
    householdId,
    weekStart: p.weekStart,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    days: p.days.map((d) => ({ ...d, id: dayIds.get(d.id), recipeId: d.recipeId === null ? null : recipeIds.get(d.recipeId) })),
  }));

  // Meal events: members' rows name members of the document.
  const eventIds = renamer(deps.ids);
  const participantIds = renamer(deps.ids);
  for (const [i, e] of doc.mealEvents.entries()) {
    if (!eventIds.add(e.id)) return fail(invalid(`mealEvents.${i}.id`, 'this id is given twice'));
    for (const [j, p] of e.participants.entries()) {
      if (!participantIds.add(p.id)) return fail(invalid(`mealEvents.${i}.participants.${j}.id`, 'this id is given twice'));
      if (p.householdMemberId !== null && !memberIds.has(p.householdMemberId)) {
        return fail(invalid(`mealEvents.${i}.participants.${j}.householdMemberId`, 'names no member of the document'));
      }
      if ((p.householdMemberId === null) === (p.guestType === null)) {
        return fail(invalid(`mealEvents.${i}.participants.${j}`, 'a row is a member (householdMemberId) or a guest group (guestType), not both'));
      }
    }
  }
  const events: MealEvent[] = doc.mealEvents.map((e) => ({
    ...e,
    id: eventIds.get(e.id),
    householdId,
    participants: e.participants.map((p) => ({
      ...p,
      id: participantIds.get(p.id),
      householdMemberId: p.householdMemberId === null ? null : memberIds.get(p.householdMemberId),
    })),
  }));

  // The pantry: food keys normalized as every write does.
  const observationIds = renamer(deps.ids);
  const observations: PantryObservation[] = [];
  for (const [i, o] of doc.pantry.observations.entries()) {
    if (!observationIds.add(o.id)) return fail(invalid(`pantry.observations.${i}.id`, 'this id is given twice'));
    const key = foodKey(o.foodKey);
    if (key === null) return fail(invalid(`pantry.observations.${i}.foodKey`, 'needs a letter or a digit'));
    observations.push({ ...o, id: observationIds.get(o.id), householdId, foodKey: key });
  }
  const merges: PantryMerge[] = [];
  const mergedFrom = new Set<string>();
  for (const [i, m] of doc.pantry.merges.entries()) {
    const from = foodKey(m.fromKey);
    const to = foodKey(m.toKey);
    if (from === null || to === null) return fail(invalid(`pantry.merges.${i}`, 'a key needs a letter or a digit'));
    if (from === to) return fail(invalid(`pantry.merges.${i}`, 'a food is not merged into itself'));
    if (mergedFrom.has(from)) return fail(invalid(`pantry.merges.${i}.fromKey`, 'this food is merged twice'));
    mergedFrom.add(from);
    merges.push({ ...m, householdId, fromKey: from, toKey: to });
  }
  for (const [i, m] of merges.entries()) if (mergedFrom.has(m.toKey)) return fail(invalid(`pantry.merges.${i}.toKey`, 'this food is merged into another itself'));
  const rejections: PantryMergeRejection[] = [];
  const pairs = new Set<string>();
  for (const [i, r] of doc.pantry.rejections.entries()) {
    const a = foodKey(r.keyA);
    const b = foodKey(r.keyB);
    if (a === null || b === null || a === b) return fail(invalid(`pantry.rejections.${i}`, 'two different foods, each with a letter or a digit'));
    const [keyA, keyB, keyADisplayName, keyBDisplayName] = a < b ? [a, b, r.keyADisplayName, r.keyBDisplayName] : [b, a, r.keyBDisplayName, r.keyADisplayName];
    if (pairs.has(`${keyA}\n${keyB}`)) return fail(invalid(`pantry.rejections.${i}`, 'this pair is given twice'));
    pairs.add(`${keyA}\n${keyB}`);
    rejections.push({ householdId, keyA, keyB, keyADisplayName, keyBDisplayName, decidedAt: r.decidedAt });
  }
  const unitWeights: UnitWeight[] = [];
  const weighed = new Set<string>();
  for (const [i, w] of doc.pantry.unitWeights.entries()) {
    const key = foodKey(w.foodKey);
    const unit = normalizeUnit(w.unit);
    if (key === null || unit === '') return fail(invalid(`pantry.unitWeights.${i}`, 'needs a food key and a unit'));
    if (weighed.has(`${key}\n${unit}`)) return fail(invalid(`pantry.unitWeights.${i}`, 'this food and unit are given twice'));
    weighed.add(`${key}\n${unit}`);
    unitWeights.push({ ...w, householdId, foodKey: key, unit });
  }

  // Shopping lists: one a plan; what their lines and trip point at is in the document.
  const listIds = renamer(deps.ids);
  const lineIds = renamer(deps.ids);
  const listed = new Set<string>();
  for (const [i, l] of doc.shoppingLists.entries()) {
    const at = `shoppingLists.${i}`;
    if (!listIds.add(l.id)) return fail(invalid(`${at}.id`, 'this id is given twice'));
    if (!planIds.has(l.planId)) return fail(invalid(`${at}.planId`, 'names no plan of the document'));
    if (listed.has(l.planId)) return fail(invalid(`${at}.planId`, 'another list has this plan'));
    listed.add(l.planId);
    for (const [j, line] of l.lines.entries()) {
      if (!lineIds.add(line.id)) return fail(invalid(`${at}.lines.${j}.id`, 'this id is given twice'));
      if (foodKey(line.foodKey) === null) return fail(invalid(`${at}.lines.${j}.foodKey`, 'needs a letter or a digit'));
      const stray = line.relatedPlanEntryIds.findIndex((d) => dayPlan.get(d) !== l.planId);
      if (stray >= 0) return fail(invalid(`${at}.lines.${j}.relatedPlanEntryIds.${stray}`, 'names no day of the list\'s plan'));
    }
    for (const [date, made] of Object.entries(l.madeFor)) {
      if (!recipeIds.has(made.recipeId)) return fail(invalid(`${at}.madeFor.${date}.recipeId`, 'names no recipe of the document'));
    }
    if (l.trip) {
      const stray = l.trip.observationIds.findIndex((o) => !observationIds.has(o));
      if (stray >= 0) return fail(invalid(`${at}.trip.observationIds.${stray}`, 'names no pantry observation of the document'));
      const own = new Set(l.lines.map((line) => line.id));
      const tick = l.trip.closingTicks.findIndex((t) => !own.has(t.lineId));
      if (tick >= 0) return fail(invalid(`${at}.trip.closingTicks.${tick}.lineId`, 'names no line of this list'));
    }
  }
  const shoppingLists: ShoppingList[] = doc.shoppingLists.map((l) => ({
    ...l,
    id: listIds.get(l.id),
    householdId,
    planId: planIds.get(l.planId),
    version: 1,
    derivation: null,
    lines: l.lines.map(
      (line): ShoppingLine => ({
        ...line,
        id: lineIds.get(line.id),
        foodKey: foodKey(line.foodKey)!,
        relatedPlanEntryIds: line.relatedPlanEntryIds.map((d) => dayIds.get(d)),
      }),
    ),
    madeFor: Object.fromEntries(Object.entries(l.madeFor).map(([date, made]) => [date, { ...made, recipeId: recipeIds.get(made.recipeId) }])),
    trip: l.trip && {
      ...l.trip,
      observationIds: l.trip.observationIds.map((o) => observationIds.get(o)),
      closingTicks: l.trip.closingTicks.map((t) => ({ ...t, lineId: lineIds.get(t.lineId) })),
    },
  }));

  const archive: HouseholdArchive = {
    household: {
      ...settingsOf(doc.household),
      id: householdId,
      plan: 'Free',
      createdAt: now,
      updatedAt: now,
      members,
    },
    recipes,
    images: archiveImages,
    plans,
    events,
    observations,
    merges,
    rejections,
    unitWeights,
    shoppingLists,
  };
  await deps.archive.write(archive);
  const made = await deps.households.byId(householdId);
  if (!made) throw new Error('the imported household is not there');
  return ok(made);
}
