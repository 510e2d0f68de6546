import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { household, today } from '../../state';
import { Page, Problem, useAction } from '../../ui';
import { addDays, mondayOf } from '../week/dates';
import { ShoppingList } from './shopping-list';

/**
 * The list of the week holding today (the menu's "Handleliste"): the week's plan is read (as the week screen reads
 * it, so it opens offline from the same copy), and an adult makes it when there is none yet; a Junior is told that
 * there is no list this week then.
 */
export function CurrentList({ householdId }: { householdId: string }) {
  const m = t.value;
  const monday = mondayOf(today());
  const adult = household.value?.role !== 'Junior';
  const [planId, setPlanId] = useState<string | null | undefined>(undefined);
  const load = useAction();
  useEffect(() => {
    setPlanId(undefined);
    void load.run(async () => {
      const path = { householdId };
      const plans = await dataOf(api.GET('/api/v1/households/{householdId}/plans', { params: { path, query: { from: monday, to: addDays(monday, 6) } } }));
      const found = plans.find((p) => p.weekStart === monday) ?? (adult ? await dataOf(api.PUT('/api/v1/households/{householdId}/plans/week/{date}', { params: { path: { householdId, date: monday } } })) : null);
      setPlanId(found?.id ?? null);
    });
  }, [householdId, monday]);
  if (planId) return <ShoppingList householdId={householdId} planId={planId} />;
  return (
    <Page title={m.list}>
      {load.error ? <Problem error={load.error} /> : planId === null ? <p>{m.noCurrentList}</p> : <p>{m.loading}</p>}
    </Page>
  );
}
