import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { screen } from '../../ui';

// The proposal is loaded when an adult first asks for one: the week itself opens without it.
const WeekSuggestions = screen(() => import('./week-suggestions').then((p) => p.WeekSuggestions));

/**
 * "Suggest the week" (adults): the button, the proposal once asked for, and whether the last one was saved. Closing
 * gives the focus back to the button; another week (or household) starts closed.
 */
export function SuggestWeek({ householdId, planId, onSaved }: { householdId: string; planId: string; onSaved: () => void }) {
  const m = t.value;
  const [suggesting, setSuggesting] = useState(false);
  const [saved, setSaved] = useState(false);
  const suggestButton = useRef<HTMLButtonElement>(null);
  const wasSuggesting = useRef(false);
  useEffect(() => {
    setSuggesting(false);
    setSaved(false);
  }, [householdId, planId]);
  useLayoutEffect(() => {
    if (wasSuggesting.current && !suggesting) suggestButton.current?.focus();
    wasSuggesting.current = suggesting;
  }, [suggesting]);
  return (
    <div class="suggest-open">
      {suggesting ? (
        <WeekSuggestions
          householdId={householdId}
          planId={planId}
          onClose={() => setSuggesting(false)}
          onSaved={() => {
            setSuggesting(false);
            setSaved(true);
            onSaved();
          }}
        />
      ) : (
        <button
          type="button"
          ref={suggestButton}
          onClick={() => {
            setSaved(false);
            setSuggesting(true);
          }}
        >
          {m.suggestWeek}
        </button>
      )}
      <p role="status" class="suggest-saved">
        {saved ? m.weekSaved : ''}
      </p>
    </div>
  );
}
