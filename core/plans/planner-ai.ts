import type { AiDinner, AiQuotaStore, PlannerAi } from '../../ports/planner-ai.js';
import { instantAt } from '../calendar/wall-clock.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { avoidMatcher } from '../kernel/avoids.js';
import { dateIn, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { PlannedDay, PlannerDay } from './planner.js';
import type { DerivedDay } from '../events/portions.js';

export type AiRefusal = ErrorOf<'ai-quota-used' | 'ai-paused'>;

/** At most this many tips of the AI per day, each at most this long: notes to read at the stove. */
export const AI_TIPS_PER_DAY = 3;
export const AI_TIP_MAX = 300;

/** The first day of the month after `date`'s. */
const nextMonth = (date: IsoDate): IsoDate => {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};

/**
 * Counts one AI call in the household's month (its own time zone) against `monthlyCalls`: past the quota
 * `ai-quota-used` with the seconds until its next month, while the operator's pause holds `ai-paused` with its end.
 */
export async function takeAiCall(aiQuota: AiQuotaStore, household: Pick<HouseholdWithMembers, 'id' | 'timeZoneId'>, monthlyCalls: number, now: Date): Promise<Result<void, AiRefusal>> {
  const today = dateIn(household.timeZoneId, now);
  const allowance = await aiQuota.take(household.id, today.slice(0, 7), monthlyCalls, now);
  if (allowance.allowed) return ok(undefined);
  if (allowance.why === 'paused') return fail({ type: 'ai-paused', until: allowance.until });
  const next = instantAt(household.timeZoneId, nextMonth(today), '00:00');
  return fail({ type: 'ai-quota-used', retryAfterSec: Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)) });
}

/**
 * The AI's serving notes and tips for the proposed dinners, when the operator has
 * configured an AI and the request does not decline it. One call per proposal counts against the household's
 * monthly quota (its month in its own time zone): past the quota the answer is `ai-quota-used` with the seconds
 * until the next month; a household whose AI is paused gets `ai-paused` with the pause's end. A call that fails
 * costs the proposal nothing but the AI's notes. A tip that names one of the day's avoids is never shown (the
 * avoids bind the tips too), and none is longer than AI_TIP_MAX.
 */
export async function aiTips(
  deps: { plannerAi: { readonly ai: PlannerAi; readonly monthlyCalls: number } | null; aiQuota: AiQuotaStore },
  household: HouseholdWithMembers,
  wanted: boolean | undefined,
  planned: readonly PlannedDay[],
  derived: ReadonlyMap<IsoDate, DerivedDay>,
  days: readonly PlannerDay[],
  now: Date,
): Promise<Result<Map<IsoDate, string[]>, AiRefusal>> {
  const none = new Map<IsoDate, string[]>();
  const picked = planned.filter((p) => p.pick !== null);
  if (!deps.plannerAi || wanted === false || picked.length === 0) return ok(none);
  const taken = await takeAiCall(deps.aiQuota, household, deps.plannerAi.monthlyCalls, now);
  if (!taken.ok) return taken;
  const dinners: AiDinner[] = picked.map((p) => ({
    date: p.date,
    recipeTitle: p.pick!.title,
    ingredients: [...new Set(p.pick!.ingredients.map((i) => i.displayName))],
    avoids: derived.get(p.date)?.avoids ?? [],
    portions: derived.get(p.date)?.portions ?? 0,
    cookingMinutes: days.find((d) => d.date === p.date)?.limitMinutes ?? null,
  }));
  let answer: ReadonlyMap<IsoDate, readonly string[]>;
  try {
    answer = await deps.plannerAi.ai.servingTips({ language: household.language, dinners });
  } catch {
    return ok(none);
  }
  const out = new Map<IsoDate, string[]>();
  for (const d of dinners) {
    const breaks = avoidMatcher(d.avoids);
    const tips = (answer.get(d.date) ?? [])
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter((t) => t.length > 0 && t.length <= AI_TIP_MAX && breaks({ displayName: t, foodKey: '' }) === null)
      .slice(0, AI_TIPS_PER_DAY);
    if (tips.length > 0) out.set(d.date, tips);
  }
  return ok(out);
}
