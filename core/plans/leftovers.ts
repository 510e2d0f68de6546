import type { PlanDayRow, PlanRow } from '../../ports/plan-store.js';
import type { Account } from '../accounts/types.js';
import { avoidsOfDay, dishConflict } from '../events/avoid-gate.js';
import { deriveDay } from '../events/portions.js';
import type { MealEvent } from '../events/types.js';
import { requireAdult } from '../households/access.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { addDays, weekStartOf, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { recipesReaching } from '../recipes/reaching.js';
import { getPlan, type PlanDeps, type PlanView } from './plans.js';
import { leftoversRefusal, type LeftoversRefusal } from './leftovers-model.js';

type Denied = ErrorOf<'household-not-found' | 'adults-only' | 'plan-not-found' | 'date-outside-week'>;
type Refused = ErrorOf<'leftovers-refused' | 'avoid-conflict'>;

/** What a day of leftovers is judged against: the cooking day's row (when its week has a plan) and both days' events. */
interface Judged {
  readonly household: HouseholdWithMembers;
  readonly plans: readonly PlanRow[];
  readonly rows: ReadonlyMap<IsoDate, PlanDayRow>;
  readonly events: readonly MealEvent[];
}

async function read(deps: PlanDeps, householdId: HouseholdId, from: IsoDate, to: IsoDate): Promise<Result<Judged, ErrorOf<'household-not-found'>>> {
  const [household, plans, events] = await Promise.all([
    deps.households.byId(householdId),
    deps.plans.weeksBetween(householdId, weekStartOf(from), weekStartOf(to)),
    deps.events.eventsBetween(householdId, from, to),
  ]);
  if (!household) return fail({ type: 'household-not-found' });
  return ok({ household, plans, rows: new Map(plans.flatMap((p) => p.days.map((d) => [d.date, d] as const))), events });
}

/** The first rule `date` eating the leftovers of `of` breaks, avoids included; null: it may. */
async function judge(deps: PlanDeps, householdId: HouseholdId, j: Judged, of: IsoDate, date: IsoDate): Promise<LeftoversRefusal | ErrorOf<'avoid-conflict'> | null> {
  const on = (d: IsoDate) => j.events.filter((e) => e.date === d);
  const cookRow = j.rows.get(of);
  const cook = cookRow ? { date: of, recipeId: cookRow.recipeId, cookedAtHome: deriveDay(j.household.members, on(of)).cookedAtHome } : undefined;
  const refusal = leftoversRefusal(cook, { date, cookedAtHome: deriveDay(j.household.members, on(date)).cookedAtHome }, j.household.leftoversKeepDays, of);
  if (refusal) return refusal;
  const avoids = avoidsOfDay(on(date));
  if (avoids.length === 0) return null;
  const recipes = await recipesReaching(deps, householdId, [cook!.recipeId!]);
  const recipe = recipes.get(cook!.recipeId!);
  const conflict = recipe ? dishConflict(recipe, recipes, avoids, date) : null;
  return conflict ? { type: 'avoid-conflict', ...conflict } : null;
}

const refused = (r: LeftoversRefusal | ErrorOf<'avoid-conflict'>): Refused => (typeof r === 'string' ? { type: 'leftovers-refused', reason: r } : r);

/**
 * PUT plans/{planId}/days/{date}/leftovers (adults): the day eats the leftovers of the earlier day `of` (its own dish
 * taken off; its portions override and note stay). Refused, with nothing written, by the rules above.
 */
export async function setLeftovers(
  deps: PlanDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  date: IsoDate,
  of: IsoDate,
): Promise<Result<PlanView, Denied | Refused>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const plan = await deps.plans.byId(householdId, planId);
  if (!plan) return fail({ type: 'plan-not-found' });
  if (!plan.days.some((d) => d.date === date)) return fail({ type: 'date-outside-week' });
  const from = of < date ? of : date;
  const judged = await read(deps, householdId, from, date);
  if (!judged.ok) return judged;
  const refusal = await judge(deps, householdId, judged.value, of, date);
  if (refusal) return fail(refused(refusal));
  const written = await deps.plans.setLeftovers(householdId, planId, date, of, deps.clock.now());
  return written ? getPlan(deps, caller, householdId, planId) : fail({ type: 'plan-not-found' });
}

/** DELETE plans/{planId}/days/{date}/leftovers (adults): the day is no longer leftovers (it then has no dish). */
export async function clearLeftovers(deps: PlanDeps, caller: Account, householdId: HouseholdId, planId: string, date: IsoDate): Promise<Result<void, Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const written = await deps.plans.setLeftovers(householdId, planId, date, null, deps.clock.now());
  if (written) return ok(undefined);
  return (await deps.plans.byId(householdId, planId)) ? fail({ type: 'date-outside-week' }) : fail({ type: 'plan-not-found' });
}

/** A later day as the "cook double" choice offers it. */
export interface LeftoversDay {
  readonly date: IsoDate;
  /** The plan of the day's week; null when that week has none yet (PUT plans/week/{date} makes it). */
  readonly planId: string | null;
  /** The day's own dish, which leftovers would take off; null: none. */
  readonly recipeId: string | null;
  /** Why the day may not eat the leftovers; null: it may. */
  readonly refusal: LeftoversRefusal | 'avoid-conflict' | null;
  /** The avoid of the day's guests the dish breaks, when that is why. */
  readonly avoid: string | null;
}

/**
 * GET plans/{planId}/days/{date}/leftovers-days (adults): the days after `date`, up to the household's keeping days
 * (into the next week), each judged as PUT days/{d}/leftovers { leftoversOf: date } would judge it.
 */
export async function leftoversDays(deps: PlanDeps, caller: Account, householdId: HouseholdId, planId: string, date: IsoDate): Promise<Result<LeftoversDay[], Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const plan = await deps.plans.byId(householdId, planId);
  if (!plan) return fail({ type: 'plan-not-found' });
  if (!plan.days.some((d) => d.date === date)) return fail({ type: 'date-outside-week' });
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  const last = addDays(date, household.leftoversKeepDays);
  const judged = await read(deps, householdId, date, last);
  if (!judged.ok) return judged;
  const out: LeftoversDay[] = [];
  for (let i = 1; i <= household.leftoversKeepDays; i++) {
    const day = addDays(date, i);
    const verdict = await judge(deps, householdId, judged.value, date, day);
    out.push({
      date: day,
      planId: judged.value.plans.find((p) => p.weekStart === weekStartOf(day))?.id ?? null,
      recipeId: judged.value.rows.get(day)?.recipeId ?? null,
      refusal: verdict === null ? null : typeof verdict === 'string' ? verdict : 'avoid-conflict',
      avoid: verdict !== null && typeof verdict !== 'string' ? verdict.avoid : null,
    });
  }
  return ok(out);
}

/**
 * The days of leftovers in an accepted proposal, judged before anything is written: each names an earlier day whose
 * dish once the proposal is saved (the one accepted with it, else the plan's) is the day's recipeId, and breaks no
 * rule of leftovers (the guests' avoids are the accept's own check, as for every dish it writes).
 */
export async function acceptedLeftovers(
  deps: PlanDeps,
  householdId: HouseholdId,
  plan: PlanRow,
  days: readonly { readonly date: IsoDate; readonly recipeId: string; readonly leftoversOf?: IsoDate | undefined }[],
): Promise<Result<void, ErrorOf<'household-not-found' | 'leftovers-refused'>>> {
  const wanted = days.filter((d) => d.leftoversOf !== undefined);
  if (wanted.length === 0) return ok(undefined);
  const earliest = wanted.map((d) => d.leftoversOf!).reduce((a, b) => (a < b ? a : b));
  const judged = await read(deps, householdId, earliest < plan.weekStart ? earliest : plan.weekStart, addDays(plan.weekStart, 6));
  if (!judged.ok) return judged;
  const { household, rows, events } = judged.value;
  const dishAfter = (date: IsoDate) => {
    const asked = days.find((x) => x.date === date);
    return asked ? (asked.leftoversOf !== undefined ? null : asked.recipeId) : (rows.get(date)?.recipeId ?? null);
  };
  const open = (date: IsoDate) => deriveDay(household.members, events.filter((e) => e.date === date)).cookedAtHome;
  for (const d of wanted) {
    const of = d.leftoversOf!;
    const cook = { date: of, recipeId: dishAfter(of) === d.recipeId ? d.recipeId : null, cookedAtHome: open(of) };
    const refusal = leftoversRefusal(cook, { date: d.date, cookedAtHome: open(d.date) }, household.leftoversKeepDays, of);
    if (refusal) return fail({ type: 'leftovers-refused', reason: refusal });
  }
  return ok(undefined);
}
