import { useRef, useState } from 'preact/hooks';
import { api, dataOf, type LeftoversDay, type PlanDay } from '../../api';
import { weekday } from '../../format';
import { t } from '../../i18n';
import { Problem, useAction } from '../../ui';

/**
 * "Lag dobbelt": the dish is cooked for a later day too. On opening, the service says which of the next days may eat
 * the leftovers (within the household's keeping days, open, no guest's avoid broken); only those are offered. A day
 * of the next week gets its week's plan first.
 */
export function CookDouble({ householdId, planId, day, week, said }: { householdId: string; planId: string; day: PlanDay; week: readonly PlanDay[]; said: (text: string) => void }) {
  const m = t.value;
  const menu = useRef<HTMLDetailsElement>(null);
  const [days, setDays] = useState<LeftoversDay[] | null>(null);
  // The day a refusal was about: the menu is read again meanwhile and may no longer offer it, so the sentence names it.
  const [refused, setRefused] = useState<string | null>(null);
  const act = useAction();
  const read = async () => {
    const answer = await dataOf(api.GET('/api/v1/households/{householdId}/plans/{planId}/days/{date}/leftovers-days', { params: { path: { householdId, planId, date: day.date } } }));
    setDays(answer.days.filter((d) => d.refusal === null));
  };
  const open = () => act.run(read);
  const pick = (to: LeftoversDay) =>
    act.run(async () => {
      setRefused(null);
      const target = to.planId ?? (await dataOf(api.PUT('/api/v1/households/{householdId}/plans/week/{date}', { params: { path: { householdId, date: to.date } } }))).id;
      try {
        await dataOf(api.PUT('/api/v1/households/{householdId}/plans/{planId}/days/{date}/leftovers', { params: { path: { householdId, planId: target, date: to.date } }, body: { leftoversOf: day.date } }));
      } catch (err) {
        setRefused(to.date);
        // The day changed since the menu opened (an event closed it, a guest came): offer what is valid now.
        await read().catch(() => undefined);
        throw err;
      }
      menu.current?.removeAttribute('open');
      said(m.leftoversSet(day.recipeTitle ?? '', weekday(to.date)));
    });
  const replaces = (date: string) => week.find((d) => d.date === date)?.recipeTitle ?? null;
  return (
    <details
      class="move cook-double"
      ref={menu}
      onToggle={(e) => {
        if (e.currentTarget.open) void open();
      }}
    >
      <summary class="button secondary" aria-label={m.cookDoubleOf(day.recipeTitle ?? '')}>
        {m.cookDouble}
      </summary>
      <div class="move-menu">
        {days === null ? (
          !act.error && <p class="muted">{m.loading}</p>
        ) : days.length === 0 ? (
          <p class="muted">{m.noLeftoversDays}</p>
        ) : (
          <ul>
            {days.map((d) => (
              <li key={d.date}>
                <button type="button" class="link" aria-disabled={act.busy} onClick={() => !act.busy && void pick(d)}>
                  {m.cookDoubleFor(weekday(d.date), d.recipeId !== null ? replaces(d.date) : null)}
                </button>
              </li>
            ))}
          </ul>
        )}
        {act.error !== null && refused !== null && <p>{m.leftoversRefusedFor(weekday(refused))}</p>}
        <Problem error={act.error} />
      </div>
    </details>
  );
}

/** "Ikke rester": the day no longer eats leftovers (it then has no dish; the cooking day cooks for itself again). */
export function ClearLeftovers({ householdId, planId, day, busy, said }: { householdId: string; planId: string; day: PlanDay; busy: boolean; said: (text: string) => void }) {
  const m = t.value;
  const act = useAction();
  return (
    <>
      <button
        type="button"
        class="secondary"
        aria-label={m.clearLeftoversOf(weekday(day.date))}
        aria-disabled={busy || act.busy}
        onClick={() =>
          !busy &&
          !act.busy &&
          void act.run(async () => {
            await dataOf(api.DELETE('/api/v1/households/{householdId}/plans/{planId}/days/{date}/leftovers', { params: { path: { householdId, planId, date: day.date } } }));
            said(m.leftoversCleared(weekday(day.date)));
          })
        }
      >
        {m.clearLeftovers}
      </button>
      <Problem error={act.error} />
    </>
  );
}
