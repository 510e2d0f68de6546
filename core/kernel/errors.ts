import type { PhotoRefusal } from '../../ports/image-resizer.js';
import type { RecipePageFailure } from '../../ports/recipe-page-reader.js';
import type { RecipePictureFailure } from '../../ports/recipe-picture-reader.js';

/**
 * Every expected failure a use case can return. Each area adds its tags here so that the HTTP layer's
 * switch over `AppError['type']` stays exhaustive (the compiler names a tag nobody maps).
 */
export type AppError =
  // accounts
  | { type: 'signup-rejected'; reason: 'email' | 'password' }
  | { type: 'invalid-credentials' }
  | { type: 'account-name-length' }
  | { type: 'unauthenticated' }
  | { type: 'account-locked' }
  | { type: 'wrong-current-password' }
  | { type: 'password-rejected' }
  // built only from the service's name, the person's address or name, or common words (core/accounts/guessable-passwords.ts)
  | { type: 'password-guessable'; reason: 'service-name' | 'email' | 'name' | 'common-word' }
  | { type: 'password-pwned' }
  | { type: 'email-not-an-address' }
  | { type: 'invalid-token' }
  | { type: 'resend-cooldown'; retryAfterSec: number }
  | { type: 'owner-required' }
  // social and native sign-in
  | { type: 'app-signin-incomplete' }
  | { type: 'unknown-login-provider' }
  | { type: 'signin-code-spent' }
  | { type: 'idp-signin-rejected' }
  | { type: 'idp-signin-unavailable' }
  | { type: 'account-not-created' }
  | { type: 'sign-in-not-found' }
  | { type: 'last-sign-in' }
  // paged lists: a cursor not handed out by this list, for what it is bound to ("this household and q")
  | { type: 'page-cursor-invalid'; boundTo: string }
  // recipes
  | { type: 'recipe-not-found' }
  | { type: 'recipe-image-not-found' }
  // a household's own photo of a recipe that is not taken: not a JPEG, PNG or WebP, too many pixels, or it does not decode
  | { type: 'recipe-photo-refused'; reason: PhotoRefusal }
  | { type: 'recipe-cycle' }
  | { type: 'base-recipe-unknown'; baseRecipeId: string }
  // recipe import: the page's failures, and the household's import budget
  | { type: 'recipe-page-failed'; reason: RecipePageFailure }
  | { type: 'recipe-import-throttled'; retryAfterSec: number }
  // recipe import from a photo or a PDF, read by the optional AI: none configured, or the picture gave no recipe
  | { type: 'recipe-reader-unavailable' }
  | { type: 'recipe-picture-failed'; reason: RecipePictureFailure | 'not-supported' }
  // households
  | { type: 'household-not-found' }
  | { type: 'adults-only' }
  | { type: 'member-not-found' }
  | { type: 'owner-only' }
  // household export and import (core/transfer/)
  | { type: 'export-owner-only' }
  | { type: 'household-document-invalid'; path: string; detail: string }
  // plans
  | { type: 'plan-not-found' }
  | { type: 'plan-range-invalid' }
  | { type: 'date-outside-week' }
  // the planner's AI: the month's calls used up, or paused by the operator
  | { type: 'ai-quota-used'; retryAfterSec: number }
  | { type: 'ai-paused'; until: Date }
  | { type: 'platform-admin-only' }
  // the household's proposals past its rate class (planner-per-household)
  | { type: 'planner-throttled'; retryAfterSec: number }
  // a dish one of whose ingredients breaks an avoid of that day's guests (core/events/avoid-gate.ts)
  | ({ type: 'avoid-conflict' } & DishConflict)
  | { type: 'no-dish-to-move' }
  // leftovers that may not be eaten on that day (core/plans/leftovers.ts LEFTOVERS_REFUSALS)
  | { type: 'leftovers-refused'; reason: 'not-later' | 'kept-too-long' | 'no-dish' | 'day-closed' }
  // dinner rules (core/plans/dinner-rules.ts)
  | { type: 'dinner-rule-not-found' }
  | { type: 'dinner-rule-recipe-unknown'; recipeId: string }
  | { type: 'dinner-rule-tag-unknown'; tag: string }
  | { type: 'dinner-rule-weekday-taken' }
  | { type: 'dinner-rule-limit'; max: number }
  | { type: 'invite-not-found' }
  | { type: 'invite-not-usable' }
  | { type: 'invite-not-open' }
  // personal access tokens (core/households/access-tokens.ts): making, revoking, and a token sent with a request
  | { type: 'access-token-not-found' }
  | { type: 'access-token-limit'; max: number }
  | { type: 'token-missing' }
  | { type: 'token-invalid' }
  | { type: 'token-expired' }
  // a token sent to a route that does not take tokens, or a read token to a writing route
  | { type: 'token-not-for-route' }
  | { type: 'token-read-only' }
  | { type: 'loyalty-programs-unavailable'; country: string }
  | { type: 'time-zone-unknown'; timeZoneId: string }
  // meal events
  | { type: 'event-not-found' }
  | { type: 'event-invalid'; detail: string }
  | { type: 'junior-forbidden' }
  | { type: 'run-not-found' }
  | { type: 'run-not-unique'; runs: number }
  // calendar feeds
  | { type: 'calendar-window-invalid' }
  | { type: 'calendar-url-forbidden'; reason: string }
  | { type: 'calendar-feed-not-found' }
  | { type: 'calendar-feed-not-yours' }
  // push devices
  | { type: 'push-device-not-found' }
  | { type: 'push-provider-unknown'; provider: string; known: readonly string[] }
  // pantry observations and inventory
  | { type: 'food-key-empty' }
  | { type: 'observation-not-found' }
  // pantry merges and unit weights
  | { type: 'same-food' }
  | { type: 'mutual-merge' }
  | { type: 'pantry-food-not-found' }
  | { type: 'merge-not-found' }
  | { type: 'merge-rejection-not-found' }
  | { type: 'unit-empty' }
  | { type: 'unit-weight-not-found' }
  | { type: 'unit-weight-out-of-bounds' }
  // billing webhook: the reason is logged, the caller only learns that the delivery was refused
  | {
      type: 'billing-webhook-rejected';
      reason: 'not-configured' | 'signature-missing' | 'signature-malformed' | 'timestamp-outside-tolerance' | 'signature-mismatch' | 'event-malformed';
    }
  // shopping list
  | { type: 'shopping-item-not-found' }
  | { type: 'shopping-line-not-removable' }
  | { type: 'shopping-item-name-empty' }
  | { type: 'shopping-quantity-out-of-bounds' }
  // a change sent late that someone else's later change of the line outranks (core/shopping/line-changes.ts);
  // changedBy is the member's name (null when they have left the household)
  | { type: 'shopping-line-changed'; change: 'Purchased' | 'Buy' | 'Amount' | 'Removed'; changedBy: string | null; changedAt: Date; displayName: string }
  // dinner-price list
  | { type: 'email-invalid' }
  | { type: 'dinner-price-token-unknown' }
  | { type: 'dinner-price-token-expired' }
  // waitlist (its malformed address is 'email-invalid', as on the dinner-price list)
  | { type: 'waitlist-token-unknown' }
  | { type: 'waitlist-token-expired' }
  // dinner calendar link
  | { type: 'dinner-calendar-not-found' }
  // public data downloads
  | { type: 'food-db-not-built' }
  | { type: 'library-file-not-built' };

/** Why a dish may not be served on a day: the avoid of the day's guests that one of its ingredients breaks. */
export interface DishConflict {
  readonly date: string;
  readonly recipeId: string;
  readonly recipeTitle: string;
  /** The avoid as the household wrote it. */
  readonly avoid: string;
  /** The ingredient as the recipe names it (of the dish or of a base it uses). */
  readonly ingredient: string;
}

export type ErrorOf<T extends AppError['type']> = Extract<AppError, { type: T }>;
