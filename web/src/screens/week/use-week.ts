import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type Evening, type MealEvent, type Plan, type Recipe } from '../../api';
import { useAction } from '../../ui';
import { addDays } from './dates';

/**
 * The week from its Monday: the plan (made by an adult when there is none yet), its dishes as recipes (for their
 * pictures and minutes), the events, what each evening leaves to cook, and whether the household has any recipe
 * (adults: the first run asks how to start); read again by `refresh` after a change.
 */
export function useWeek(householdId: string, monday: string, adult: boolean) {
  const sunday = addDays(monday, 6);
  const [plan, setPlan] = useState<Plan | null | undefined>(undefined);
  const [dishes, setDishes] = useState<ReadonlyMap<string, Recipe>>(new Map());
  const [hasRecipes, setHasRecipes] = useState<boolean | undefined>(undefined);
  const [events, setEvents] = useState<MealEvent[]>([]);
  const [evenings, setEvenings] = useState<Evening[]>([]);
  const load = useAction();
  const refresh = () =>
    load.run(async () => {
      const path = { householdId };
      const week = { from: monday, to: sunday };
      const [p, r, e] = await Promise.all([
        // The week's plan is read first (so the week opens offline from the service worker's copy); an adult makes
        // it when there is none yet. A Junior reads the week as the adults left it (making a plan is for adults).
        dataOf(api.GET('/api/v1/households/{householdId}/plans', { params: { path, query: week } }))
          .then((ps) => ps.find((x) => x.weekStart === monday) ?? null)
          .then((found) => found ?? (adult ? dataOf(api.PUT('/api/v1/households/{householdId}/plans/week/{date}', { params: { path: { householdId, date: monday } } })) : null)),
        // Whether there is any recipe (the first run asks how to start); not knowing (offline) asks nothing.
        adult ? dataOf(api.GET('/api/v1/households/{householdId}/recipes', { params: { path, query: { limit: '1' } } })).catch(() => null) : Promise.resolve(null),
        dataOf(api.GET('/api/v1/households/{householdId}/events', { params: { path, query: { ...week, limit: '100' } } })),
      ]);
      const ids = [...new Set((p?.days ?? []).map((d) => d.recipeId).filter((id): id is string => id !== null && !id.includes(':')))];
      const [cards, ev] = await Promise.all([
        // The week's dishes, each once: a picture and minutes for the day cards (at most seven small reads).
        Promise.all(ids.map((recipeId) => dataOf(api.GET('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId } } })).catch(() => null))),
        p ? dataOf(api.GET('/api/v1/households/{householdId}/plans/{planId}/evenings', { params: { path: { householdId, planId: p.id } } })).catch(() => ({ days: [] })) : Promise.resolve({ days: [] }),
      ]);
      setPlan(p);
      setDishes(new Map(cards.filter((c): c is Recipe => c !== null).map((c) => [c.id, c])));
      setHasRecipes(r === null ? undefined : r.items.length > 0);
      setEvents(e.items);
      setEvenings(ev.days);
    });
  useEffect(() => void refresh(), [householdId, monday]);
  return { plan, dishes, hasRecipes, events, evenings, load, refresh };
}
