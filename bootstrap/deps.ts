import type { Config } from '../config/config.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { intlTimeZones } from '../adapters/clock/intl-time-zones.js';
import { argon2Hasher } from '../adapters/crypto/argon2-hasher.js';
import { randomTokens, uuidIds } from '../adapters/crypto/node-crypto.js';
import { knexAccountStore, knexSessionStore } from '../adapters/knex/account-store.js';
import { knexHouseholdStore } from '../adapters/knex/household-store.js';
import type { Database } from '../adapters/knex/database.js';
import { emptyTables, memoryAccountStore, memoryHouseholdStore, memorySessionStore } from '../adapters/memory/stores.js';
import { memoryAccountTokenStore, memoryLoginThrottle } from '../adapters/memory/account-security.js';
import { knexAccountTokenStore } from '../adapters/knex/account-token-store.js';
import { knexLoginThrottle } from '../adapters/knex/login-throttle.js';
import { memoryMailer } from '../adapters/mail/memory.js';
import { offlineBreachedPasswords } from '../adapters/passwords/breached-passwords.js';
import type { BreachedPasswords } from '../ports/breached-passwords.js';
import type { Mailer } from '../ports/mailer.js';
import { knexInviteStore } from '../adapters/knex/invite-store.js';
import { knexPushOutbox } from '../adapters/knex/push-outbox.js';
import { memoryInviteStore, memoryPushOutbox } from '../adapters/memory/invites.js';
import { randomReadableCodes } from '../adapters/crypto/readable-codes.js';
import { knexPlanStore } from '../adapters/knex/plan-store.js';
import { memoryPlanStore } from '../adapters/memory/plans.js';
import { knexFeedbackStore } from '../adapters/knex/feedback-store.js';
import { knexReferralCodeStore } from '../adapters/knex/referral-code-store.js';
import { memoryFeedbackStore } from '../adapters/memory/feedback-store.js';
import { memoryReferralCodeStore } from '../adapters/memory/referral-code-store.js';
import { shippedLoyaltyPrograms } from '../adapters/reference/loyalty-programs.js';
import { knexIdentityStore, knexSignInCodeStore, knexSignInFlowStore } from '../adapters/knex/identity-store.js';
import { memoryIdentityStore, memorySignInCodeStore, memorySignInFlowStore } from '../adapters/memory/identity-store.js';
import type { ServiceDeps } from '../adapters/http/deps.js';
import { knexMealEventStore } from '../adapters/knex/meal-event-store.js';
import { memoryMealEventStore } from '../adapters/memory/meal-events.js';
import { hmacPageCursors } from '../adapters/crypto/page-cursors.js';
import { knexRecipeStore } from '../adapters/knex/recipe-store.js';
import { memoryRecipeStore } from '../adapters/memory/recipe-store.js';
import { knexPantryObservationStore } from '../adapters/knex/pantry-observation-store.js';
import { memoryPantryObservationStore } from '../adapters/memory/pantry-observations.js';
import { knexPantryMergeStore } from '../adapters/knex/pantry-merge-store.js';
import { memoryPantryMergeStore, memoryUnitWeightStore } from '../adapters/memory/pantry-merges.js';
import { knexUnitWeightStore } from '../adapters/knex/unit-weight-store.js';
import type { Clock } from '../ports/clock.js';
import type { PasswordHasher } from '../ports/password-hasher.js';

export interface DepsOverrides {
  clock?: Clock;
  hasher?: PasswordHasher;
  mailer?: Mailer;
  breached?: BreachedPasswords;
}

/** The settings the use cases read. */
export type DepsConfig = Pick<Config, 'adminEmails' | 'publicBaseUrl' | 'lockout' | 'referralCodesPerHousehold'>;

const common = (config: DepsConfig, o: DepsOverrides) => ({
  hasher: o.hasher ?? argon2Hasher(),
  breached: o.breached ?? offlineBreachedPasswords(),
  mailer: o.mailer ?? memoryMailer(),
  publicBaseUrl: config.publicBaseUrl,
  lockout: { attempts: config.lockout.attempts, windowMs: config.lockout.windowSec * 1000, lockMs: config.lockout.lockSec * 1000 },
  ids: uuidIds,
  codes: randomReadableCodes,
  tokens: randomTokens,
  clock: o.clock ?? systemClock,
  timeZones: intlTimeZones(),
  platformAdmins: new Set(config.adminEmails),
  loyaltyPrograms: shippedLoyaltyPrograms(),
  referralCodesPerHousehold: config.referralCodesPerHousehold,
});

/** Production wiring: the Knex stores on the configured database. */
export function databaseDeps(db: Database, config: DepsConfig, o: DepsOverrides = {}): ServiceDeps {
  return {
    ...common(config, o),
    accounts: knexAccountStore(db.knex),
    sessions: knexSessionStore(db.knex),
    households: knexHouseholdStore(db.knex),
    accountTokens: knexAccountTokenStore(db.knex),
    loginThrottle: knexLoginThrottle(db.knex),
    invites: knexInviteStore(db.knex),
    feedback: knexFeedbackStore(db.knex),
    referralCodes: knexReferralCodeStore(db.knex),
    pushOutbox: knexPushOutbox(db.knex),
    recipes: knexRecipeStore(db.knex),
    events: knexMealEventStore(db.knex),
    pageCursors: hmacPageCursors(),
    plans: knexPlanStore(db.knex),
    identities: knexIdentityStore(db.knex),
    signInFlows: knexSignInFlowStore(db.knex),
    signInCodes: knexSignInCodeStore(db.knex),
    pantry: knexPantryObservationStore(db.knex),
    pantryMerges: knexPantryMergeStore(db.knex),
    unitWeights: knexUnitWeightStore(db.knex),
  };
}

/** The in-memory composition root: the same dependency object over memory stores, for fast tests. */
export function memoryDeps(config: DepsConfig, o: DepsOverrides = {}): ServiceDeps {
  const t = emptyTables();
  return {
    ...common(config, o),
    accounts: memoryAccountStore(t),
    sessions: memorySessionStore(t),
    households: memoryHouseholdStore(t),
    accountTokens: memoryAccountTokenStore(t),
    loginThrottle: memoryLoginThrottle(),
    invites: memoryInviteStore(t),
    feedback: memoryFeedbackStore(t),
    referralCodes: memoryReferralCodeStore(t),
    pushOutbox: memoryPushOutbox(t),
    recipes: memoryRecipeStore(t),
    events: memoryMealEventStore(t),
    pageCursors: hmacPageCursors(),
    plans: memoryPlanStore(t),
    identities: memoryIdentityStore(t),
    signInFlows: memorySignInFlowStore(),
    signInCodes: memorySignInCodeStore(t),
    pantry: memoryPantryObservationStore(t),
    pantryMerges: memoryPantryMergeStore(t),
    unitWeights: memoryUnitWeightStore(t),
  };
}
