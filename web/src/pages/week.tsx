import { useEffect, useState } from 'preact/hooks';
import { api, call, type Plan, type PlanDay, type Recipe } from '../api';
import { language, t } from '../i18n';
import { navigate } from '../router';
import { Page, Problem, useAction } from '../ui';

const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (date: string, n: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000));
const dayName = (date: string) => new Intl.DateTimeFormat(language.value === 'en' ? 'en-GB' : 'nb-NO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

export function Week({ householdId, date }: { householdId: string; date: string }) {
  const m = t.value;
  const [plan, setPlan] = useState<Plan | null>(null);
  const [recipes, setRecipes] = useState<Recipe[]>([]);
  const load = useAction();
  const refresh = () =>
    load.run(async () => {
      const [p, r] = await Promise.all([
        call(api.PUT('/api/v1/households/{householdId}/plans/week/{date}', { params: { path: { householdId, date } } })),
        call(api.GET('/api/v1/households/{householdId}/recipes', { params: { path: { householdId }, query: { limit: '100' } } })),
      ]);
      setPlan(p);
      setRecipes(r.items);
    });
  useEffect(() => void refresh(), [householdId, date]);
  const monday = plan?.weekStart ?? date;
  return (
    <Page title={m.weekOf(dayName(monday))}>
      <nav class="row" aria-label={m.week}>
        <button type="button" onClick={() => navigate(`/week/${addDays(monday, -7)}`)}>← {m.previousWeek}</button>
        <button type="button" onClick={() => navigate(`/week/${addDays(monday, 7)}`)}>{m.nextWeek} →</button>
      </nav>
      <Problem error={load.error} />
      {plan === null ? (
        <p>{m.loading}</p>
      ) : (
        <ol class="days">
          {plan.days.map((d) => (
            <Day key={d.id} householdId={householdId} planId={plan.id} day={d} recipes={recipes} onChange={refresh} />
          ))}
        </ol>
      )}
      {plan && (
        <p>
          <a class="button" href={`/list/${plan.id}`}>
            {m.list}
          </a>
        </p>
      )}
    </Page>
  );
}

function Day({ householdId, planId, day, recipes, onChange }: { householdId: string; planId: string; day: PlanDay; recipes: Recipe[]; onChange: () => void }) {
  const m = t.value;
  const act = useAction();
  const [guests, setGuests] = useState('');
  const [avoids, setAvoids] = useState('');
  const id = `day-${day.date}`;
  const setDish = (recipeId: string) =>
    act.run(async () => {
      await call(api.PUT('/api/v1/households/{householdId}/plans/{planId}/days/{date}', { params: { path: { householdId, planId, date: day.date } }, body: { recipeId: recipeId || null, portions: day.portionsOverride, note: day.note } }));
      onChange();
    });
  const addEvent = (eventType: 'Guests' | 'EatingOut') =>
    act.run(async () => {
      const count = Math.max(1, Number(guests) || 1);
      const words = avoids.split(',').map((w) => w.trim()).filter((w) => w !== '');
      await call(
        api.POST('/api/v1/households/{householdId}/events', {
          params: { path: { householdId } },
          body: {
            date: day.date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, memberAttendance: null,
            guests: eventType === 'Guests' ? [{ guestType: 'Adult', guestCount: count, dietaryNotes: null, avoids: words }] : null,
          },
        }),
      );
      setGuests('');
      setAvoids('');
      onChange();
    });
  return (
    <li class="day" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{dayName(day.date)}</h2>
      {day.cookedAtHome ? (
        <>
          <label for={`${id}-dish`}>{m.dish}</label>
          <select id={`${id}-dish`} value={day.recipeId ?? ''} disabled={act.busy} onChange={(e) => void setDish(e.currentTarget.value)}>
            <option value="">{m.noDish}</option>
            {recipes.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
          </select>
          <p class="muted">{m.portions(day.portions)}</p>
        </>
      ) : (
        <p class="muted">{m.closedDay}</p>
      )}
      {day.servingNotes.length > 0 && (
        <ul class="notes">
          {day.servingNotes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <details>
        <summary>{m.addGuests} / {m.eatingOut}</summary>
        <div class="stack">
          <label for={`${id}-guests`}>{m.guestsCount}</label>
          <input id={`${id}-guests`} type="number" min={1} max={50} inputMode="numeric" value={guests} onInput={(e) => setGuests(e.currentTarget.value)} />
          <label for={`${id}-avoids`}>{m.avoids}</label>
          <input id={`${id}-avoids`} value={avoids} onInput={(e) => setAvoids(e.currentTarget.value)} />
          <div class="row">
            <button type="button" disabled={act.busy} onClick={() => void addEvent('Guests')}>
              {m.addGuests}
            </button>
            <button type="button" disabled={act.busy} onClick={() => void addEvent('EatingOut')}>
              {m.eatingOut}
            </button>
          </div>
        </div>
      </details>
      <Problem error={act.error} />
    </li>
  );
}
