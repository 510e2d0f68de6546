import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type BusyEvening, type MealEvent, type Plan, type Recipe } from '../../api';
import { useAction } from '../../ui';
import { addDays } from './dates';

/**
 * The week from its Monday: the plan (made by an adult when there is none yet), the recipes an adult may put on a
 * day, the events and the busy evenings of the household's calendars; read again by `refresh` after a change.
 */
export function useWeek(householdId: string, monday: string, adult: boolean) {
  const sunday = addDays(monday, 6);
  const [plan, setPlan] = useState<Plan | null | undefined>(undefined);
  const [recipes, setRecipes] = useState<Recipe[]>([]);
  const [events, setEvents] = useState<MealEvent[]>([]);
  const [busy, setBusy] = useState<BusyEvening[]>([]);
  const load = useAction();
  const refresh = () =>
    load.run(async () => {
      const path = { householdId };
      const week = { from: monday, to: sunday };
      const [p, r, e, c] = await Promise.all([
        // The week's plan is read first (so the week opens offline from the service worker's copy); an adult makes
        // it when there is none yet. A Junior reads the week as the adults left it (making a plan is for adults).
        dataOf(api.GET('/api/v1/households/{householdId}/plans', { params: { path, query: week } }))
          .then((ps) => ps.find((x) => x.weekStart === monday) ?? null)
          .then((found) => found ?? (adult ? dataOf(api.PUT('/api/v1/households/{householdId}/plans/week/{date}', { params: { path: { householdId, date: monday } } })) : null)),
        adult ? dataOf(api.GET('/api/v1/households/{householdId}/recipes', { params: { path, query: { limit: '100' } } })) : Promise.resolve({ items: [] }),
        dataOf(api.GET('/api/v1/households/{householdId}/events', { params: { path, query: { ...week, limit: '100' } } })),
        dataOf(api.GET('/api/v1/households/{householdId}/calendar-events', { params: { path, query: week } })),
      ]);
      setPlan(p);
      setRecipes(r.items);
      setEvents(e.items);
      setBusy(c.busyEvenings);
    });
  useEffect(() => void refresh(), [householdId, monday]);
  return { plan, recipes, events, busy, load, refresh };
}
