import { t } from '../../i18n';
import { householdInfo } from '../../state';
import { addDays } from './dates';
import type { useDay } from './use-day';

/**
 * "Change the day" (an adult: guests, someone away, eating out, travel, over one day or a run of days) or "I am
 * away" (a Junior): a form folded away until opened. When the guests' avoids clash with the dish, it offers to add
 * the event and take the dish off.
 */
export function DayChange({ id, date, day }: { id: string; date: string; day: ReturnType<typeof useDay> }) {
  const m = t.value;
  const { adult, act, form, edit } = day;
  const members = householdInfo.value?.members ?? [];
  return (
    <details open={day.open} onToggle={(e) => day.setOpen(e.currentTarget.open)}>
      <summary>{adult ? m.changeDay : m.awaySummary}</summary>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void day.addEvent(false);
        }}
      >
        {adult ? (
          <fieldset>
            <legend>{m.whatHappens}</legend>
            {(['Guests', 'PersonAbsent', 'EatingOut', 'Travel'] as const).map((k) => (
              <label key={k} class="check">
                <input type="radio" name={`${id}-kind`} value={k} checked={form.kind === k} onChange={() => edit({ kind: k })} />
                {m.kindLabel[k]}
              </label>
            ))}
          </fieldset>
        ) : (
          <p>{m.iAmAway}</p>
        )}
        {form.kind === 'Guests' && (
          <>
            <label for={`${id}-guests`}>{m.guestsCount}</label>
            <input id={`${id}-guests`} type="number" min={1} max={1000} inputMode="numeric" required value={form.guests} onInput={(e) => edit({ guests: e.currentTarget.value })} />
            <label for={`${id}-avoids`}>{m.avoids}</label>
            <input id={`${id}-avoids`} maxLength={500} value={form.avoids} onInput={(e) => edit({ avoids: e.currentTarget.value })} />
          </>
        )}
        {form.kind === 'PersonAbsent' && adult && (
          <>
            <label for={`${id}-who`}>{m.whoIsAway}</label>
            <select id={`${id}-who`} value={form.who} required onChange={(e) => edit({ who: e.currentTarget.value })}>
              {members.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.displayName}
                </option>
              ))}
            </select>
          </>
        )}
        {adult && (
          <>
            <label for={`${id}-through`}>{m.through}</label>
            <input id={`${id}-through`} type="date" min={date} max={addDays(date, 30)} value={form.through} onInput={(e) => edit({ through: e.currentTarget.value || date })} />
          </>
        )}
        <button type="submit" disabled={act.busy}>
          {m.addEvent}
        </button>
        {day.conflict && (
          <button type="button" class="secondary" disabled={act.busy} onClick={() => void day.addEvent(true)}>
            {m.addAndClearDish}
          </button>
        )}
      </form>
    </details>
  );
}
