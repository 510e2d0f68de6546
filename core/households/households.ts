import type { Clock } from '../../ports/clock.js';
import type { HouseholdChanges, HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { TimeZoneCatalog } from '../../ports/time-zones.js';
import type { Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { onceEachIgnoringCase } from '../kernel/words.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { requireAdult, requireMember } from './access.js';
import {
  DEFAULT_COUNTRY,
  DEFAULT_DINNER_TIME,
  DEFAULT_LANGUAGE,
  DEFAULT_TIME_ZONE,
  type HouseholdWithMembers,
  type Language,
} from './types.js';

export interface HouseholdDeps {
  households: HouseholdStore;
  timeZones: TimeZoneCatalog;
  ids: IdGenerator;
  clock: Clock;
}

export interface CreateHouseholdInput {
  name: string;
  timeZoneId?: string | undefined;
  language?: Language | undefined;
  country?: string | undefined;
}

/** The caller becomes the Owner, linked to a new member row named as the account. */
export async function createHousehold(
  deps: HouseholdDeps,
  caller: Account,
  input: CreateHouseholdInput,
): Promise<Result<HouseholdWithMembers, ErrorOf<'time-zone-unknown'>>> {
  const timeZoneId = input.timeZoneId ?? DEFAULT_TIME_ZONE;
  if (!deps.timeZones.has(timeZoneId)) return fail({ type: 'time-zone-unknown', timeZoneId });
  const now = deps.clock.now();
  const id = deps.ids.newId();
  return ok(
    await deps.households.create(
      {
        id,
        name: input.name.trim(),
        timeZoneId,
        language: input.language ?? DEFAULT_LANGUAGE,
        country: input.country ?? DEFAULT_COUNTRY,
        dinnerTime: DEFAULT_DINNER_TIME,
        chains: [],
        plan: 'Free',
        createdAt: now,
      },
      { id: deps.ids.newId(), displayName: caller.displayName, role: 'Owner', ageGroup: 'Adult', accountId: caller.id, createdAt: now },
    ),
  );
}

export async function getHousehold(
  deps: Pick<HouseholdDeps, 'households'>,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<HouseholdWithMembers, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  return household ? ok(household) : fail({ type: 'household-not-found' });
}

export async function updateHousehold(
  deps: HouseholdDeps,
  caller: Account,
  householdId: HouseholdId,
  changes: HouseholdChanges,
): Promise<Result<HouseholdWithMembers, ErrorOf<'household-not-found' | 'adults-only' | 'time-zone-unknown'>>> {
  const member = await requireAdult(deps, householdId, caller.id);
  if (!member.ok) return member;
  if (changes.timeZoneId !== undefined && !deps.timeZones.has(changes.timeZoneId)) {
    return fail({ type: 'time-zone-unknown', timeZoneId: changes.timeZoneId });
  }
  const cleaned: HouseholdChanges = {
    ...changes,
    ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
    ...(changes.chains !== undefined ? { chains: [...new Set(changes.chains.map((c) => c.trim()))] } : {}),
    ...(changes.dislikes !== undefined ? { dislikes: onceEachIgnoringCase(changes.dislikes.map((d) => d.trim())) } : {}),
  };
  const updated = await deps.households.update(householdId, cleaned, deps.clock.now());
  return updated ? ok(updated) : fail({ type: 'household-not-found' });
}
