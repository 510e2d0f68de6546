import type { HouseholdStore } from '../../ports/household-store.js';
import { RECIPE_PICTURE_TYPES, type RecipePictureReader, type RecipePictureType } from '../../ports/recipe-picture-reader.js';
import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { HouseholdWithMembers } from '../households/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { previewOf, type RecipeImportPreview } from './import.js';

/** The warning every preview read from a picture carries: an AI read it, and every line wants a look. */
export const READ_BY_AI = 'read_by_ai';

type AiRefusal = ErrorOf<'ai-quota-used' | 'ai-paused'>;

export interface RecipePictureDeps {
  households: HouseholdStore;
  /** The AI that reads pictures, null while the operator has configured none (config AI_*). */
  recipePictureReader: RecipePictureReader | null;
  /** Counts one AI call against the household's monthly quota, or says why not (the planner's quota and pause). */
  takeAiCall: (household: Pick<HouseholdWithMembers, 'id' | 'timeZoneId'>) => Promise<Result<void, AiRefusal>>;
}

/** A picture as the request brought it: its bytes, and what they sniff as (null when nothing is recognised). */
export interface PictureUpload {
  readonly bytes: Uint8Array;
  readonly sniffedType: string | null;
}

type Refused = ErrorOf<'household-not-found' | 'adults-only' | 'recipe-reader-unavailable' | 'recipe-picture-failed'> | AiRefusal;

/**
 * A photo or a PDF of a recipe, read by the optional AI into the preview a page import gives (adults only): the AI
 * gets the file and nothing about the household; its ingredient lines go through the same line parser, and the
 * preview carries `read_by_ai` first. The preview is never saved here. A file that sniffs as none of
 * RECIPE_PICTURE_TYPES is refused before the quota is touched; a call the AI fails still counts (it was made).
 */
export async function previewRecipePicture(deps: RecipePictureDeps, caller: Account, householdId: HouseholdId, upload: PictureUpload): Promise<Result<RecipeImportPreview, Refused>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const reader = deps.recipePictureReader;
  if (reader === null) return fail({ type: 'recipe-reader-unavailable' });
  const mediaType = RECIPE_PICTURE_TYPES.find((t) => t === upload.sniffedType);
  if (mediaType === undefined) return fail({ type: 'recipe-picture-failed', reason: 'not-supported' });
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  const taken = await deps.takeAiCall(household);
  if (!taken.ok) return taken;
  const read = await reader.read({ bytes: upload.bytes, mediaType: mediaType satisfies RecipePictureType });
  if (!read.ok) return fail({ type: 'recipe-picture-failed', reason: read.reason });
  const preview = previewOf({ ...read.recipe, imageUrl: null, warnings: [] }, null);
  return ok({ ...preview, warnings: [READ_BY_AI, ...preview.warnings] });
}

/** What a household's members may import from: whether pictures are read here (an AI is configured). */
export async function recipeImportChoices(deps: Pick<RecipePictureDeps, 'households' | 'recipePictureReader'>, caller: Account, householdId: HouseholdId): Promise<Result<{ pictures: boolean }, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return ok({ pictures: deps.recipePictureReader !== null });
}
