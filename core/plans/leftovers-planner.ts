import { avoidMatcher } from '../kernel/avoids.js';
import { daysBetween, type IsoDate } from '../kernel/dates.js';
import { fitsTime, planWeek, type PlannedDay, type PlannerCandidate, type PlannerDay, type PlannerInput } from './planner.js';

/** An evening that leaves fewer minutes than this to cook is one for leftovers, when an earlier dish can stretch. */
export const LITTLE_TIME_MINUTES = 20;

export interface LeftoversPlannerInput extends PlannerInput {
  /** The dishes already on the week's open days (a candidate's id), which may be cooked double. */
  readonly cooked: readonly { readonly date: IsoDate; readonly id: string }[];
  /** The household's leftoversKeepDays. */
  readonly keepDays: number;
}

/** Whether the day leaves little time: under LITTLE_TIME_MINUTES, or too little for any candidate. */
const littleTime = (day: PlannerDay, candidates: readonly PlannerCandidate[]) =>
  day.limitMinutes !== null && (day.limitMinutes < LITTLE_TIME_MINUTES || !candidates.some((c) => fitsTime(c, day.limitMinutes)));

/**
 * The week's proposal with leftovers: the days with time to cook are planned first (planWeek); then each evening
 * with little time, in date order, eats the leftovers of the nearest earlier dish of the week (already planned, or
 * just proposed) within the keeping days that none of the evening's guests avoids, each dish cooked double for one
 * evening at most (reason Leftovers, `leftoversOf`); an evening no dish can stretch to is planned as any other day,
 * without the dishes proposed already. Every day given is open (the caller gives open days only).
 */
export function planWeekWithLeftovers(input: LeftoversPlannerInput): PlannedDay[] {
  const little = input.days.filter((d) => littleTime(d, input.candidates));
  const rest = input.days.filter((d) => !little.includes(d));
  const first = planWeek({ ...input, days: rest });
  const byId = new Map(input.candidates.map((c) => [c.id, c]));
  const sources = [...input.cooked, ...first.flatMap((p) => (p.pick ? [{ date: p.date, id: p.pick.id }] : []))];
  const used = new Set<IsoDate>();
  const out: PlannedDay[] = [...first];
  const unfed: PlannerDay[] = [];
  for (const day of [...little].sort((a, b) => (a.date < b.date ? -1 : 1))) {
    const breaks = avoidMatcher(day.avoids);
    const fits = (s: { date: IsoDate; id: string }) => {
      const c = byId.get(s.id);
      const gap = daysBetween(s.date, day.date);
      return c !== undefined && gap > 0 && gap <= input.keepDays && !used.has(s.date) && c.ingredients.every((i) => breaks(i) === null);
    };
    const source = sources.filter(fits).sort((a, b) => (a.date > b.date ? -1 : a.date < b.date ? 1 : 0))[0];
    if (!source) {
      unfed.push(day);
      continue;
    }
    used.add(source.date);
    out.push({ date: day.date, pick: byId.get(source.id)!, reasons: [...(day.avoids.length > 0 ? (['AvoidsRespected'] as const) : []), 'Leftovers'], pantryFoods: [], leftoversOf: source.date });
  }
  if (unfed.length > 0) out.push(...planWeek({ ...input, days: unfed, taken: [...input.taken, ...first.flatMap((p) => (p.pick ? [p.pick.id] : []))] }));
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
