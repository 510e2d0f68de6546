import type { PlanRow } from '../../ports/plan-store.js';
import type { MealEvent } from '../events/types.js';
import type { AgeGroup, Household, HouseholdRole } from '../households/types.js';
import type { PantryMerge, PantryMergeRejection, PantryObservation, UnitWeight } from '../pantry/types.js';
import type { Ingredient, RecipeContent, RecipeImageType } from '../recipes/types.js';
import type { ShoppingList } from '../shopping/types.js';

/** What the document says it is; a reader refuses any other. */
export const HOUSEHOLD_FORMAT = 'dinner-household';
/** The version of the document this code writes and reads; a later one is refused by name. */
export const HOUSEHOLD_FORMAT_VERSION = 1;

/** A recipe line as the document carries it: its food key is the server's to compute again. */
export type DocumentIngredient = Omit<Ingredient, 'foodKey'>;

export interface DocumentRecipe extends Omit<RecipeContent, 'ingredients'> {
  readonly id: string;
  readonly ingredients: readonly DocumentIngredient[];
  /** The kept picture, with its bytes; sourceUrl null for the household's own photo. */
  readonly image: { readonly sourceUrl: string | null; readonly mediaType: RecipeImageType; readonly bytes: Uint8Array } | null;
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
  readonly members: readonly { readonly id: string; readonly displayName: string; readonly role: HouseholdRole; readonly ageGroup: AgeGroup; readonly createdAt: Date }[];
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
  'name' | 'timeZoneId' | 'language' | 'country' | 'dinnerTime' | 'chains' | 'sharingOff' | 'priceCatalogueOn' | 'dislikes' | 'libraryRecipesOn' | 'leftoversKeepDays'
>;

/** The settings alone, whatever else `h` carries. */
export const settingsOf = (h: HouseholdSettings): HouseholdSettings => ({
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
  leftoversKeepDays: h.leftoversKeepDays,
});
