import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { AiQuotaStore, PlannerAi } from '../../ports/planner-ai.js';
import { normalizeEmail } from '../accounts/email.js';
import type { Account } from '../accounts/types.js';
import { dateIn } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';

export interface AiAdminDeps {
  households: HouseholdStore;
  aiQuota: AiQuotaStore;
  plannerAi: { readonly ai: PlannerAi; readonly monthlyCalls: number } | null;
  /** Addresses of platform admins, normalized (config ADMIN_EMAILS). */
  platformAdmins: ReadonlySet<string>;
  clock: Clock;
}

/** A household's AI as its operator sees it. */
export interface HouseholdAiView {
  readonly householdId: HouseholdId;
  /** Whether the operator has configured an AI at all. */
  readonly configured: boolean;
  readonly pausedUntil: Date | null;
  /** Calls counted in the household's current month (its own time zone). */
  readonly callsThisMonth: number;
  readonly monthlyCalls: number | null;
}

type Denied = ErrorOf<'platform-admin-only' | 'household-not-found'>;

/** A platform admin is a login with a confirmed address listed in ADMIN_EMAILS. */
const isAdmin = (deps: AiAdminDeps, caller: Account) => caller.email !== null && caller.emailConfirmed && deps.platformAdmins.has(normalizeEmail(caller.email));

/** GET admin/households/{id}/ai (platform admins). */
export async function householdAi(deps: AiAdminDeps, caller: Account, householdId: HouseholdId): Promise<Result<HouseholdAiView, Denied>> {
  if (!isAdmin(deps, caller)) return fail({ type: 'platform-admin-only' });
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  const now = deps.clock.now();
  const [pausedUntil, callsThisMonth] = await Promise.all([deps.aiQuota.pausedUntil(householdId, now), deps.aiQuota.used(householdId, dateIn(household.timeZoneId, now).slice(0, 7))]);
  return ok({ householdId, configured: deps.plannerAi !== null, pausedUntil, callsThisMonth, monthlyCalls: deps.plannerAi?.monthlyCalls ?? null });
}

/**
 * PUT admin/households/{id}/ai (platform admins): pauses the household's AI until a time (its planner requests that
 * ask for AI then answer 429 ai_paused with that time), or lifts the pause (null, or a time already past).
 */
export async function pauseHouseholdAi(deps: AiAdminDeps, caller: Account, householdId: HouseholdId, until: Date | null): Promise<Result<HouseholdAiView, Denied>> {
  if (!isAdmin(deps, caller)) return fail({ type: 'platform-admin-only' });
  if (!(await deps.households.byId(householdId))) return fail({ type: 'household-not-found' });
  await deps.aiQuota.pause(householdId, until !== null && until > deps.clock.now() ? until : null);
  return householdAi(deps, caller, householdId);
}
