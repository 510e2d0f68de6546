import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { TransferDeps } from './deps.js';
import { HOUSEHOLD_FORMAT, HOUSEHOLD_FORMAT_VERSION, settingsOf, type HouseholdDocument } from './document.js';

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
    members: h.members.map((m) => ({ id: m.id, displayName: m.displayName, role: m.role, ageGroup: m.ageGroup, createdAt: m.createdAt })),
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
    // Who changed which line when (personChanges) names accounts and only settles late changes between two phones: not a household's data.
    shoppingLists: a.shoppingLists.map(({ householdId: _h, version: _v, derivation: _d, personChanges: _p, ...list }) => list),
  });
}
