import type { Knex } from 'knex';
import { knexAccountStore, knexSessionStore } from '../adapters/knex/account-store.js';
import { knexHouseholdStore } from '../adapters/knex/household-store.js';
import { memoryAccountStore, memoryHouseholdStore, memorySessionStore, type MemoryTables } from '../adapters/memory/stores.js';
import { memoryAccountTokenStore, memoryLoginThrottle } from '../adapters/memory/account-security.js';
import { knexAccountTokenStore } from '../adapters/knex/account-token-store.js';
import { knexLoginThrottle } from '../adapters/knex/login-throttle.js';
import { knexInviteStore } from '../adapters/knex/invite-store.js';
import { knexPushOutbox } from '../adapters/knex/push-outbox.js';
import { memoryInviteStore, memoryPushOutbox } from '../adapters/memory/invites.js';
import { knexPlanStore } from '../adapters/knex/plan-store.js';
import { memoryPlanStore } from '../adapters/memory/plans.js';
import { knexFeedbackStore } from '../adapters/knex/feedback-store.js';
import { knexReferralCodeStore } from '../adapters/knex/referral-code-store.js';
import { memoryFeedbackStore } from '../adapters/memory/feedback-store.js';
import { memoryReferralCodeStore } from '../adapters/memory/referral-code-store.js';
import { knexIdentityStore, knexSignInCodeStore, knexSignInFlowStore } from '../adapters/knex/identity-store.js';
import { memoryIdentityStore, memorySignInCodeStore, memorySignInFlowStore } from '../adapters/memory/identity-store.js';
import { knexMealEventStore } from '../adapters/knex/meal-event-store.js';
import { memoryMealEventStore } from '../adapters/memory/meal-events.js';
import { knexRecipeStore } from '../adapters/knex/recipe-store.js';
import { memoryRecipeImageStore } from '../adapters/memory/recipe-image-store.js';
import { knexRecipeImageStore } from '../adapters/knex/recipe-image-store.js';
import { memoryRecipeStore } from '../adapters/memory/recipe-store.js';
import { knexPantryObservationStore } from '../adapters/knex/pantry-observation-store.js';
import { memoryPantryObservationStore } from '../adapters/memory/pantry-observations.js';
import { knexPantryMergeStore } from '../adapters/knex/pantry-merge-store.js';
import { memoryPantryMergeStore, memoryUnitWeightStore } from '../adapters/memory/pantry-merges.js';
import { knexUnitWeightStore } from '../adapters/knex/unit-weight-store.js';
import { knexFoodTableStore } from '../adapters/knex/food-table-store.js';
import { knexReceiptStore } from '../adapters/knex/receipt-store.js';
import { memoryFoodTableStore, memoryReceiptStore } from '../adapters/memory/food-table.js';
import { knexShoppingListStore } from '../adapters/knex/shopping-list-store.js';
import { memoryShoppingListStore } from '../adapters/memory/shopping-lists.js';
import { knexCalendarFeedStore } from '../adapters/knex/calendar-feed-store.js';
import { memoryCalendarFeedStore } from '../adapters/memory/calendar-feeds.js';
import { knexDinnerCalendarStore } from '../adapters/knex/dinner-calendar-store.js';
import { memoryDinnerCalendarStore } from '../adapters/memory/dinner-calendar.js';
import { knexHouseholdRevisions } from '../adapters/knex/household-revisions.js';
import { knexHouseholdChanges } from '../adapters/knex/household-changes.js';
import { knexIdempotencyStore } from '../adapters/knex/idempotency-store.js';
import { knexAiQuotaStore } from '../adapters/knex/ai-quota-store.js';
import { memoryAiQuotaStore } from '../adapters/memory/ai-quota-store.js';
import { memoryIdempotencyStore } from '../adapters/memory/idempotency-store.js';
import { memoryHouseholdChanges } from '../adapters/memory/household-changes.js';
import { memoryHouseholdRevisions } from '../adapters/memory/stores.js';
import { knexPublicDataFiles } from '../adapters/knex/public-data-files.js';
import { memoryPublicDataFiles } from '../adapters/memory/public-data-files.js';
import { knexBillingStore } from '../adapters/knex/billing-store.js';
import { memoryBillingStore } from '../adapters/memory/billing-store.js';
import { knexPushDeviceStore } from '../adapters/knex/push-device-store.js';
import { knexPushDeliveryStore } from '../adapters/knex/push-delivery-store.js';
import { memoryPushDeliveryStore, memoryPushDeviceStore } from '../adapters/memory/push-devices.js';
import { knexDinnerPriceSubscriberStore } from '../adapters/knex/dinner-price-monthly-mails.js';
import { memoryDinnerPriceSubscriberStore } from '../adapters/memory/dinner-price-monthly-mails.js';
import { knexDinnerPriceStore } from '../adapters/knex/dinner-price-store.js';
import { memoryDinnerPriceStore } from '../adapters/memory/dinner-prices.js';
import { knexMailingList } from '../adapters/knex/mailing-list-store.js';
import { listRows, memoryMailingList } from '../adapters/memory/mailing-list.js';
import { knexHouseholdArchiveStore } from '../adapters/knex/household-archive-store.js';
import { memoryHouseholdArchiveStore } from '../adapters/memory/household-archive-store.js';
import { knexAisleOrderStore } from '../adapters/knex/aisle-order-store.js';
import { memoryAisleOrderStore } from '../adapters/memory/aisle-orders.js';
import { knexDinnerRuleStore } from '../adapters/knex/dinner-rule-store.js';
import { memoryDinnerRuleStore } from '../adapters/memory/dinner-rules.js';
import { knexMailOutbox } from '../adapters/knex/mail-outbox.js';
import { memoryMailOutbox } from '../adapters/memory/mail-outbox.js';
import { knexAccessTokenStore } from '../adapters/knex/access-token-store.js';
import { memoryAccessTokenStore } from '../adapters/memory/access-tokens.js';

/**
 * Every store of the service over one backend. The composition roots and the store contract suites build them
 * here, so a store added once is wired everywhere.
 */
export function knexStores(knex: Knex) {
  return {
    accounts: knexAccountStore(knex),
    sessions: knexSessionStore(knex),
    households: knexHouseholdStore(knex),
    accountTokens: knexAccountTokenStore(knex),
    accessTokens: knexAccessTokenStore(knex),
    loginThrottle: knexLoginThrottle(knex),
    invites: knexInviteStore(knex),
    feedback: knexFeedbackStore(knex),
    referralCodes: knexReferralCodeStore(knex),
    pushOutbox: knexPushOutbox(knex),
    pushDevices: knexPushDeviceStore(knex),
    pushDeliveries: knexPushDeliveryStore(knex),
    recipes: knexRecipeStore(knex),
    recipeImages: knexRecipeImageStore(knex),
    events: knexMealEventStore(knex),
    plans: knexPlanStore(knex),
    identities: knexIdentityStore(knex),
    signInFlows: knexSignInFlowStore(knex),
    signInCodes: knexSignInCodeStore(knex),
    pantry: knexPantryObservationStore(knex),
    pantryMerges: knexPantryMergeStore(knex),
    unitWeights: knexUnitWeightStore(knex),
    foodTable: knexFoodTableStore(knex),
    receipts: knexReceiptStore(knex),
    calendarFeeds: knexCalendarFeedStore(knex),
    shoppingLists: knexShoppingListStore(knex),
    dinnerCalendars: knexDinnerCalendarStore(knex),
    revisions: knexHouseholdRevisions(knex),
    changes: knexHouseholdChanges(knex),
    idempotency: knexIdempotencyStore(knex),
    aiQuota: knexAiQuotaStore(knex),
    publicDataFiles: knexPublicDataFiles(knex),
    billing: knexBillingStore(knex),
    dinnerPriceSubscribers: knexDinnerPriceSubscriberStore(knex),
    dinnerPrices: knexDinnerPriceStore(knex),
    waitlist: knexMailingList(knex, 'waitlist'),
    archive: knexHouseholdArchiveStore(knex),
    aisleOrders: knexAisleOrderStore(knex),
    dinnerRules: knexDinnerRuleStore(knex),
    mailOutbox: knexMailOutbox(knex),
  };
}

export type StoreSet = ReturnType<typeof knexStores>;

/** The same stores in memory, over one set of tables (so that cascades between them hold). */
export function memoryStores(t: MemoryTables): StoreSet {
  const pantry = memoryPantryObservationStore(t);
  const pushOutbox = memoryPushOutbox(t);
  const pushDevices = memoryPushDeviceStore(t);
  const stores: StoreSet = {
    accounts: memoryAccountStore(t),
    sessions: memorySessionStore(t),
    households: memoryHouseholdStore(t),
    accountTokens: memoryAccountTokenStore(t),
    accessTokens: memoryAccessTokenStore(t),
    loginThrottle: memoryLoginThrottle(),
    invites: memoryInviteStore(t, pushOutbox),
    feedback: memoryFeedbackStore(t),
    referralCodes: memoryReferralCodeStore(t),
    pushOutbox,
    pushDevices,
    pushDeliveries: memoryPushDeliveryStore(t, { outbox: pushOutbox, devices: pushDevices }),
    recipes: memoryRecipeStore(t),
    recipeImages: memoryRecipeImageStore(t),
    events: memoryMealEventStore(t),
    plans: memoryPlanStore(t, pushOutbox),
    identities: memoryIdentityStore(t),
    signInFlows: memorySignInFlowStore(),
    signInCodes: memorySignInCodeStore(t),
    pantry,
    shoppingLists: memoryShoppingListStore(t, { pantry, pushOutbox, stores: () => stores }),
    pantryMerges: memoryPantryMergeStore(t),
    unitWeights: memoryUnitWeightStore(t),
    foodTable: memoryFoodTableStore(t),
    receipts: memoryReceiptStore(t),
    calendarFeeds: memoryCalendarFeedStore(t),
    dinnerCalendars: memoryDinnerCalendarStore(t),
    revisions: memoryHouseholdRevisions(t),
    changes: memoryHouseholdChanges(t),
    idempotency: memoryIdempotencyStore(t),
    aiQuota: memoryAiQuotaStore(t),
    publicDataFiles: memoryPublicDataFiles(),
    billing: memoryBillingStore(t),
    dinnerPriceSubscribers: memoryDinnerPriceSubscriberStore(),
    dinnerPrices: memoryDinnerPriceStore(),
    waitlist: memoryMailingList(listRows('waitlist'), t),
    archive: memoryHouseholdArchiveStore(() => stores),
    aisleOrders: memoryAisleOrderStore(t, () => stores.shoppingLists),
    dinnerRules: memoryDinnerRuleStore(t),
    mailOutbox: memoryMailOutbox(),
  };
  return stores;
}
