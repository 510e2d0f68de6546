// What the week says about a day beside its dish, as plain data (no preact: test/web-day-facts.test.ts reads it).

/** The one line a day says about its dish, or null when all is well. */
export type DayWarning =
  | { readonly kind: 'tooLong'; readonly minutes: number; readonly left: number }
  | { readonly kind: 'unknownTime'; readonly left: number }
  /** An event closed the day (eating out, travel): the dish planned for it is on no day. */
  | { readonly kind: 'closed' }
  | null;

/** A recipe's own time as the planner reads it: its total time, else its active time. */
export const minutesOf = (r: { readonly totalMinutes: number | null; readonly activeMinutes: number | null } | undefined): number | null =>
  r === undefined ? null : (r.totalMinutes ?? r.activeMinutes);

/**
 * The day's warning: a dish on a day nobody eats at home, or one that needs longer than the evening leaves (or whose
 * time is unknown on a limited evening), judged as the planner judges it.
 */
export function dayWarning(
  day: { readonly cookedAtHome: boolean; readonly recipeId: string | null },
  dishMinutes: number | null,
  cookingMinutes: number | null,
): DayWarning {
  if (day.recipeId === null) return null;
  if (!day.cookedAtHome) return { kind: 'closed' };
  if (cookingMinutes === null) return null;
  if (dishMinutes === null) return { kind: 'unknownTime', left: cookingMinutes };
  return dishMinutes > cookingMinutes ? { kind: 'tooLong', minutes: dishMinutes, left: cookingMinutes } : null;
}

/**
 * The days shown first and those folded away: on the week holding today, the days before it are folded (a phone opens
 * at today); on any other week none is.
 */
export function splitPast<D extends { readonly date: string }>(days: readonly D[], today: string): { past: D[]; rest: D[] } {
  const holdsToday = days.some((d) => d.date === today);
  const past = holdsToday ? days.filter((d) => d.date < today) : [];
  return { past, rest: days.filter((d) => !past.includes(d)) };
}
