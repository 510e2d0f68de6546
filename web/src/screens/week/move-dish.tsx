import { useRef } from 'preact/hooks';
import type { PlanDay } from '../../api';
import { dayName } from '../../format';
import { t } from '../../i18n';

/**
 * "Move" a day's dish to another day of the week: a small menu of the other days, each saying whose dish it would
 * swap with. The same move as dragging the dish onto a day on a computer.
 */
export function MoveDish({ day, week, busy, onMove }: { day: PlanDay; week: readonly PlanDay[]; busy: boolean; onMove: (to: string) => void }) {
  const m = t.value;
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <details class="move" ref={menu}>
      <summary class="button secondary" aria-label={m.moveDishOf(day.recipeTitle ?? '')}>
        {m.moveDish}
      </summary>
      <ul class="move-menu">
        {week
          .filter((other) => other.date !== day.date)
          .map((other) => (
            <li key={other.date}>
              <button
                type="button"
                class="link"
                aria-disabled={busy}
                onClick={() => {
                  if (busy) return;
                  menu.current?.removeAttribute('open');
                  onMove(other.date);
                }}
              >
                {m.moveToDay(dayName(other.date), other.recipeTitle)}
              </button>
            </li>
          ))}
      </ul>
    </details>
  );
}
