import type { RecipeImage } from '../../ports/recipe-image.js';
import type { Account } from '../accounts/types.js';
import type { HouseholdWithMembers } from '../households/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { Into, Invalid } from './checks.js';
import type { TransferDeps } from './deps.js';
import { settingsOf, type HouseholdDocument } from './document.js';
import { checkEvents } from './events.js';
import { checkMembers } from './members.js';
import { checkPantry } from './pantry.js';
import { checkPlans } from './plans.js';
import { checkRecipes } from './recipes.js';
import { checkShoppingLists } from './shopping.js';

/**
 * Makes a new household from a document, with the caller as its Owner in the place of the member who exported it
 * (under that member's name), or as a member of its own when the document names none. Every other member is a named person, whom an invite
 * can later give to an account. Every part gets a new id; times are kept, but the household itself is new (created
 * now, on the Free plan). Every section is checked, in the document's order, before anything is written, and it is
 * written in one transaction: a document that fails a check writes nothing and says where ('household-document-invalid').
 */
export async function importHousehold(
  deps: TransferDeps,
  caller: Account,
  doc: HouseholdDocument,
  images: ReadonlyMap<string, RecipeImage>,
): Promise<Result<HouseholdWithMembers, Invalid | ErrorOf<'time-zone-unknown'>>> {
  if (!deps.timeZones.has(doc.household.timeZoneId)) return fail({ type: 'time-zone-unknown', timeZoneId: doc.household.timeZoneId });
  const now = deps.clock.now();
  const into: Into = { householdId: deps.ids.newId(), ids: deps.ids };

  const members = checkMembers(doc, caller, into, now);
  if (!members.ok) return members;
  const recipes = checkRecipes(doc.recipes, images, into);
  if (!recipes.ok) return recipes;
  const plans = checkPlans(doc.plans, recipes.value.recipeIds, into);
  if (!plans.ok) return plans;
  const events = checkEvents(doc.mealEvents, members.value.memberIds, into);
  if (!events.ok) return events;
  const pantry = checkPantry(doc.pantry, into);
  if (!pantry.ok) return pantry;
  const lists = checkShoppingLists(doc.shoppingLists, { ...plans.value, recipeIds: recipes.value.recipeIds, observationIds: pantry.value.observationIds }, into);
  if (!lists.ok) return lists;

  const { observations, merges, rejections, unitWeights } = pantry.value;
  await deps.archive.write({
    household: { ...settingsOf(doc.household), id: into.householdId, plan: 'Free', createdAt: now, updatedAt: now, members: members.value.members },
    recipes: recipes.value.recipes,
    images: recipes.value.images,
    plans: plans.value.plans,
    events: events.value,
    observations,
    merges,
    rejections,
    unitWeights,
    shoppingLists: lists.value,
  });
  const made = await deps.households.byId(into.householdId);
  if (!made) throw new Error('the imported household is not there');
  return ok(made);
}
