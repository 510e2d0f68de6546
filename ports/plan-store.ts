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
  /** Sets a day's dish, portions and note; null when the plan is not the household's. */
  setDay(householdId: HouseholdId, planId: string, date: IsoDate, day: { recipeId: string | null; portionsOverride: number | null; note: string | null }, at: Date): Promise<PlanDayRow | null>;
  /**
   * Sets the dishes of several days of one plan in one transaction, keeping each day's portions override and note,
   * with the push that tells the household (recorded in the same transaction). Nothing is written when the plan is
   * not the household's ('plan-not-found'), a date is not in its week ('date-outside-week') or a recipe is not the
   * household's, deleted meanwhile ('recipe-not-found'); else the plan as written. A null recipeId takes the day's
   * dish off (a dish moved away).
   */
  setDishes(
    householdId: HouseholdId,
    planId: string,
    dishes: readonly { readonly date: IsoDate; readonly recipeId: string | null }[],
    at: Date,
    push: OutboxEntry | null,
  ): Promise<PlanRow | { readonly refused: 'plan-not-found' | 'date-outside-week' | 'recipe-not-found' }>;
}
