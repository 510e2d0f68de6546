import type { VersionMap } from '../../config/config.js';
import type { AccountDeps } from '../../core/accounts/deps.js';
import type { MeDeps } from '../../core/households/me.js';
import type { HouseholdDeps } from '../../core/households/households.js';
import type { MemberDeps } from '../../core/households/members.js';
import type { PlanDeps } from '../../core/plans/plans.js';
import type { InviteDeps } from '../../core/households/invites.js';
import type { SignInStores } from '../../core/accounts/social.js';
import type { LoyaltyDeps } from '../../core/reference/loyalty-programs.js';
import type { ReferralDeps } from '../../core/reference/referral-codes.js';
import type { FeedbackDeps } from '../../core/feedback/submit-feedback.js';
import type { EventDeps } from '../../core/events/deps.js';
import type { RecipeDeps } from '../../core/recipes/recipes.js';
import type { RecipePhotoDeps } from '../../core/recipes/photos.js';
import type { RecipePictureDeps } from '../../core/recipes/import-picture.js';
import type { PantryDeps } from '../../core/pantry/rows.js';
import type { PantryMergeDeps, UnitWeightDeps } from '../../core/pantry/merge-deps.js';
import type { ReceiptDeps } from '../../core/food/receipts.js';
import type { ShoppingDeps } from '../../core/shopping/lists.js';
import type { DinnerCalendarDeps } from '../../core/calendar/dinner-calendar.js';
import type { DinnerPriceListDeps } from '../../core/publicdata/dinner-price-list.js';
import type { PushDeviceDeps } from '../../core/push/devices.js';
import type { PushDeliveryDeps } from '../../core/push/delivery.js';
import type { MailQueueDeps } from '../../core/mail/queue.js';
import type { BillingDeps } from '../../core/billing/webhook.js';
import type { DerivedFileDeps } from '../../core/publicdata/derived-files.js';
import type { DinnerPriceMeasureDeps } from '../../core/dinnerprices/measure.js';
import type { WaitlistDeps } from '../../core/waitlist/waitlist.js';
import type { LiveDeps } from '../../core/households/live.js';
import type { SuggestionDeps } from '../../core/plans/suggestions.js';
import type { AiAdminDeps } from '../../core/plans/ai-pause.js';
import type { TransferDeps } from '../../core/transfer/deps.js';
import type { AisleOrderDeps } from '../../core/shopping/aisle-orders.js';
import type { DinnerRuleDeps } from '../../core/plans/dinner-rules.js';
import type { AccessTokenDeps } from '../../core/households/access-tokens.js';
import type { IdempotencyStore } from '../../ports/idempotency-store.js';
import type { Logger } from '../../ports/logger.js';
import type { AfterAnswer } from './after-answer.js';

/** Everything the use cases behind the routes need: ports only. */
export type ServiceDeps = AccountDeps & MeDeps & HouseholdDeps & SignInStores & MemberDeps & InviteDeps & LoyaltyDeps & ReferralDeps & FeedbackDeps & RecipeDeps & RecipePhotoDeps & EventDeps & PlanDeps & PantryDeps & PantryMergeDeps & UnitWeightDeps & ReceiptDeps & ShoppingDeps & DinnerCalendarDeps & DinnerPriceListDeps & PushDeviceDeps & PushDeliveryDeps & BillingDeps & DerivedFileDeps & DinnerPriceMeasureDeps & WaitlistDeps & LiveDeps & SuggestionDeps & AiAdminDeps & TransferDeps & AisleOrderDeps & DinnerRuleDeps & Pick<RecipePictureDeps, 'recipePictureReader'> & MailQueueDeps & AccessTokenDeps & { readonly idempotency: IdempotencyStore };

/** What the routes need besides the use cases. */
export interface RouteSettings {
  readonly publicBaseUrl: string;
  readonly version: string;
  readonly buildId: string;
  readonly appVersionFloor: VersionMap;
  readonly appVersionLatest: VersionMap;
  readonly logger: Logger;
  /** Work done after the answer has gone out (forgot-password: the answer must not tell whether the address is known). */
  readonly afterAnswer: AfterAnswer;
  readiness(): Promise<{ ready: true } | { ready: false; reason: string }>;
}
