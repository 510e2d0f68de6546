import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { MealEventStore } from '../../ports/meal-event-store.js';
import type { PageCursors } from '../../ports/page-cursors.js';
import type { PlanStore } from '../../ports/plan-store.js';

export interface EventDeps {
  events: MealEventStore;
  households: HouseholdStore;
  /** Only to say that a week's shopping list should be looked at again. */
  plans: Pick<PlanStore, 'markListStale'>;
  pageCursors: PageCursors;
  clock: Clock;
  ids: IdGenerator;
}
