import type { HouseholdStore } from '../../ports/household-store.js';
import type { Account } from '../accounts/types.js';
import { requireAdult } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { ok, type Result } from '../kernel/result.js';
import { previewOf, type RecipeImportPreview } from './import.js';
import { readPastedRecipe } from './pasted-text.js';

/** The warning every preview of pasted text carries: the person reads what was made of it before saving. */
export const READ_FROM_TEXT = 'read_from_text';

/**
 * A recipe pasted as text, as the preview a page import gives (adults only): read by core/recipes/pasted-text.ts,
 * its lines parsed by previewOf. Nothing is fetched and nothing is written: no budget is spent.
 */
export async function previewPastedRecipe(
  deps: { households: HouseholdStore },
  caller: Account,
  householdId: HouseholdId,
  text: string,
): Promise<Result<RecipeImportPreview, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const preview = previewOf(readPastedRecipe(text), null);
  return ok({ ...preview, warnings: [READ_FROM_TEXT, ...preview.warnings] });
}
