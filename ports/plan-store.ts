import type { IsoDate } from '../core/events/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';
import type { OutboxEntry } from './push-outbox.js';

export interface PlanDayRow {
  /** The plan entry id (what shopping lines name in relatedPlanEntryIds). */
  readonly id: string;
  readonly date: IsoDate;
  readonly recipeId: string | null;
  readonly portionsOverride: number | null;
  readonly note: string | null;
  /**
   * The day eats the leftovers of the dish planned on this earlier date (of the same or the previous week), and has no
   * dish of its own; null: it is not leftovers (core/plans/leftovers.ts).
   */
  readonly leftoversOf: IsoDate | null;
}

export interface PlanRow {
  readonly id: string;
  readonly householdId: HouseholdId;
  /** The Monday of the week. */
  readonly weekStart: IsoDate;
  readonly days: readonly PlanDayRow[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface PlanStore {
  /** The week's plan, made with its seven days when there is none yet; concurrent calls get the same plan. */
  getOrCreate(householdId: HouseholdId, weekStart: IsoDate, fresh: { planId: string; dayIds: readonly string[]; at: Date }): Promise<PlanRow>;
  byId(householdId: HouseholdId, planId: string): Promise<PlanRow | null>;
  byWeek(householdId: HouseholdId, weekStart: IsoDate): Promise<PlanRow | null>;
  /** Plans whose week starts within [fromWeek, toWeek] (Mondays), by week. */
  weeksBetween(householdId: HouseholdId, fromWeek: IsoDate, toWeek: IsoDate): Promise<PlanRow[]>;
  /**
   * Sets a day's dish, portions and note; null when the plan is not the household's. A day given a dish is no longer
   * leftovers; a day whose dish changes takes its leftovers with it: every day of the household that ate the
   * leftovers of this date stops being leftovers, in the same write.
   */
  setDay(householdId: HouseholdId, planId: string, date: IsoDate, day: { recipeId: string | null; portionsOverride: number | null; note: string | null }, at: Date): Promise<PlanDayRow | null>;
  /**
   * Sets the dishes of several days of one plan in one transaction, keeping each day's portions override and note,
   * with the push that tells the household (recorded in the same transaction). Nothing is written when the plan is
   * not the household's ('plan-not-found'), a date is not in its week ('date-outside-week') or a recipe is not the
   * household's, deleted meanwhile ('recipe-not-found'); else the plan as written. A null recipeId takes the day's
   * dish off (a dish moved away). As setDay: a day given a dish is not leftovers, and the leftovers of a day whose
   * dish changes are cleared; then an entry's `leftoversOf` (left out: null) makes it a day of leftovers (with a null
   * recipeId), so that one write may plan a dish and the day that eats its leftovers.
   */
  setDishes(
    householdId: HouseholdId,
    planId: string,
    dishes: readonly { readonly date: IsoDate; readonly recipeId: string | null; readonly leftoversOf?: IsoDate | null }[],
    at: Date,
    push: OutboxEntry | null,
  ): Promise<PlanRow | { readonly refused: 'plan-not-found' | 'date-outside-week' | 'recipe-not-found' }>;
  /**
   * Makes the day eat the leftovers of `leftoversOf` (its dish taken off), or, with null, no longer leftovers; its
   * portions override and note stay. Null when the plan is not the household's or the date not in its week. The
   * rules (an earlier day with a dish, within the keeping days, ...) are the use case's (core/plans/leftovers.ts).
   */
  setLeftovers(householdId: HouseholdId, planId: string, date: IsoDate, leftoversOf: IsoDate | null, at: Date): Promise<PlanDayRow | null>;
}
