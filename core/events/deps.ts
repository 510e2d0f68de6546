import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { MealEventStore } from '../../ports/meal-event-store.js';
import type { PageCursors } from '../../ports/page-cursors.js';
import type { PlanStore } from '../../ports/plan-store.js';
import type { RecipeStore } from '../../ports/recipe-store.js';

export interface EventDeps {
  events: MealEventStore;
  households: HouseholdStore;
  /** For the candidate gate: the dishes planned on the days an event with avoids lands on, cleared when a change replaces them. */
  plans: Pick<PlanStore, 'weeksBetween' | 'setDay' | 'setLeftovers'>;
  recipes: Pick<RecipeStore, 'byIds'>;
  pageCursors: PageCursors;
  clock: Clock;
  ids: IdGenerator;
}
