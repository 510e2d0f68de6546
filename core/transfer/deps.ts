import type { Clock } from '../../ports/clock.js';
import type { HouseholdArchiveStore } from '../../ports/household-archive.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { TimeZoneCatalog } from '../../ports/time-zones.js';

export interface TransferDeps {
  readonly households: HouseholdStore;
  readonly archive: HouseholdArchiveStore;
  readonly timeZones: TimeZoneCatalog;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}
