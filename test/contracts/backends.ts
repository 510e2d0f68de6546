import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import { emptyTables, memoryAccountStore, memoryHouseholdStore, memorySessionStore } from '../../adapters/memory/stores.js';
import { knexAccountStore, knexSessionStore } from '../../adapters/knex/account-store.js';
import { knexHouseholdStore } from '../../adapters/knex/household-store.js';
import { databaseKinds } from '../support/databases.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import { memoryRecipeStore } from '../../adapters/memory/recipe-store.js';
import { knexRecipeStore } from '../../adapters/knex/recipe-store.js';
import type { MealEventStore } from '../../ports/meal-event-store.js';
import { memoryMealEventStore } from '../../adapters/memory/meal-events.js';
import { knexMealEventStore } from '../../adapters/knex/meal-event-store.js';
import type { IdentityStore, SignInCodeStore, SignInFlowStore } from '../../ports/identity-store.js';
import { memoryIdentityStore, memorySignInCodeStore, memorySignInFlowStore } from '../../adapters/memory/identity-store.js';
import { knexIdentityStore, knexSignInCodeStore, knexSignInFlowStore } from '../../adapters/knex/identity-store.js';
import type { AccountTokenStore } from '../../ports/account-token-store.js';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import { memoryAccountTokenStore, memoryLoginThrottle } from '../../adapters/memory/account-security.js';
import { knexAccountTokenStore } from '../../adapters/knex/account-token-store.js';
import { knexLoginThrottle } from '../../adapters/knex/login-throttle.js';
import type { InviteStore } from '../../ports/invite-store.js';
import type { PushOutbox } from '../../ports/push-outbox.js';
import { knexInviteStore } from '../../adapters/knex/invite-store.js';
import { knexPushOutbox } from '../../adapters/knex/push-outbox.js';
import { memoryInviteStore, memoryPushOutbox } from '../../adapters/memory/invites.js';
import type { PlanStore } from '../../ports/plan-store.js';
import { knexPlanStore } from '../../adapters/knex/plan-store.js';
import { memoryPlanStore } from '../../adapters/memory/plans.js';
import type { FeedbackStore } from '../../ports/feedback-store.js';
import type { ReferralCodeStore } from '../../ports/referral-code-store.js';
import { knexFeedbackStore } from '../../adapters/knex/feedback-store.js';
import { knexReferralCodeStore } from '../../adapters/knex/referral-code-store.js';
import { memoryFeedbackStore } from '../../adapters/memory/feedback-store.js';
import { memoryReferralCodeStore } from '../../adapters/memory/referral-code-store.js';
import type { PantryMergeStore } from '../../ports/pantry-merge-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import { memoryPantryMergeStore, memoryUnitWeightStore } from '../../adapters/memory/pantry-merges.js';
import { knexPantryMergeStore } from '../../adapters/knex/pantry-merge-store.js';
import { knexUnitWeightStore } from '../../adapters/knex/unit-weight-store.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import { memoryPantryObservationStore } from '../../adapters/memory/pantry-observations.js';
import { knexPantryObservationStore } from '../../adapters/knex/pantry-observation-store.js';

/** The stores of one backend over one fresh set of tables. */
export interface Stores {
  accounts: AccountStore;
  sessions: SessionStore;
  households: HouseholdStore;
  accountTokens: AccountTokenStore;
  loginThrottle: LoginThrottle;
  invites: InviteStore;
  pushOutbox: PushOutbox;
  plans: PlanStore;
  feedback: FeedbackStore;
  referralCodes: ReferralCodeStore;
  recipes: RecipeStore;
  events: MealEventStore;
  identities: IdentityStore;
  signInFlows: SignInFlowStore;
  signInCodes: SignInCodeStore;
  pantry: PantryObservationStore;
  pantryMerges: PantryMergeStore;
  unitWeights: UnitWeightStore;
  close(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  open(): Promise<Stores>;
}

/** memory, SQLite, and Postgres when DATABASE_URL_PG is set: every contract suite runs against each. */
export function backends(): Backend[] {
  return [
    {
      name: 'memory',
      async open() {
        const t = emptyTables();
        return {
          accounts: memoryAccountStore(t),
          sessions: memorySessionStore(t),
          households: memoryHouseholdStore(t),
          accountTokens: memoryAccountTokenStore(t),
          loginThrottle: memoryLoginThrottle(),
          invites: memoryInviteStore(t),
          pushOutbox: memoryPushOutbox(t),
          plans: memoryPlanStore(t),
          feedback: memoryFeedbackStore(t),
          referralCodes: memoryReferralCodeStore(t),
          recipes: memoryRecipeStore(t),
          events: memoryMealEventStore(t),
          identities: memoryIdentityStore(t),
          signInFlows: memorySignInFlowStore(),
          signInCodes: memorySignInCodeStore(t),
          pantryMerges: memoryPantryMergeStore(t),
          unitWeights: memoryUnitWeightStore(t),
          pantry: memoryPantryObservationStore(t),
          close: async () => {},
        };
      },
    },
    ...databaseKinds().map((kind) => ({
      name: kind.name,
      async open(): Promise<Stores> {
        const database = await kind.create();
        const db = await database.open();
        return {
          accounts: knexAccountStore(db.knex),
          sessions: knexSessionStore(db.knex),
          households: knexHouseholdStore(db.knex),
          accountTokens: knexAccountTokenStore(db.knex),
          loginThrottle: knexLoginThrottle(db.knex),
          invites: knexInviteStore(db.knex),
          pushOutbox: knexPushOutbox(db.knex),
          plans: knexPlanStore(db.knex),
          feedback: knexFeedbackStore(db.knex),
          referralCodes: knexReferralCodeStore(db.knex),
          recipes: knexRecipeStore(db.knex),
          events: knexMealEventStore(db.knex),
          identities: knexIdentityStore(db.knex),
          signInFlows: knexSignInFlowStore(db.knex),
          signInCodes: knexSignInCodeStore(db.knex),
          pantryMerges: knexPantryMergeStore(db.knex),
          unitWeights: knexUnitWeightStore(db.knex),
          pantry: knexPantryObservationStore(db.knex),
          async close() {
            await db.close();
            await database.cleanup();
          },
        };
      },
    })),
  ];
}
