import type { Config } from '../config/config.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { intlTimeZones } from '../adapters/clock/intl-time-zones.js';
import { argon2Hasher } from '../adapters/crypto/argon2-hasher.js';
import { randomTokens, uuidIds } from '../adapters/crypto/node-crypto.js';
import type { Database } from '../adapters/knex/database.js';
import { emptyTables } from '../adapters/memory/stores.js';
import { knexStores, memoryStores, type StoreSet } from './stores.js';
import { memoryMailer } from '../adapters/mail/memory.js';
import { offlineBreachedPasswords } from '../adapters/passwords/breached-passwords.js';
import type { BreachedPasswords } from '../ports/breached-passwords.js';
import type { Mailer } from '../ports/mailer.js';
import { randomReadableCodes } from '../adapters/crypto/readable-codes.js';
import { shippedLoyaltyPrograms } from '../adapters/reference/loyalty-programs.js';
import type { ServiceDeps } from '../adapters/http/deps.js';
import { hmacPageCursors } from '../adapters/crypto/page-cursors.js';
import type { Clock } from '../ports/clock.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { FoodSource } from '../ports/food-source.js';
import { embeddedFoodSource } from '../adapters/foodtable/embedded-source.js';
import { foodTablePrices } from '../core/food/prices.js';

export interface DepsOverrides {
  clock?: Clock;
  hasher?: PasswordHasher;
  mailer?: Mailer;
  breached?: BreachedPasswords;
  foodSource?: FoodSource;
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
  pageCursors: hmacPageCursors(),
  referralCodesPerHousehold: config.referralCodesPerHousehold,
  foodSource: o.foodSource ?? embeddedFoodSource(),
});

/** Production wiring: the Knex stores on the configured database. */
export function databaseDeps(db: Database, config: DepsConfig, o: DepsOverrides = {}): ServiceDeps {
  return {
    ...common(config, o),
    ...withPrices(knexStores(db.knex)),
  };
}

/** The in-memory composition root: the same dependency object over memory stores, for fast tests. */
export function memoryDeps(config: DepsConfig, o: DepsOverrides = {}): ServiceDeps {
  return {
    ...common(config, o),
    ...withPrices(memoryStores(emptyTables())),
  };
}

/** The default price provider reads the synced food table of the same stores. */
const withPrices = (stores: StoreSet) => ({ ...stores, prices: foodTablePrices(stores) });
