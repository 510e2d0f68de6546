import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { kroner } from '../../format';
import { t } from '../../i18n';
import { settled } from '../../startup';

type Choices = Awaited<ReturnType<typeof readChoices>>;
const readChoices = (householdId: string, planId: string) =>
  dataOf(api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list/better-choices', { params: { path: { householdId, planId } } }));

/**
 * Less processed choices for the list's lines that are often ultra-processed, as the service picks them (the
 * household's earlier buys first): shown only when there are any, and read again when the lines change (`stamp`).
 */
export function BetterChoices({ householdId, planId, stamp }: { householdId: string; planId: string; stamp: string }) {
  const m = t.value;
  const [choices, setChoices] = useState<Choices | null>(null);
  useEffect(() => {
    let gone = false;
    // Read once the app's start has settled (src/startup.ts): the list comes first.
    void settled
      .then(() => readChoices(householdId, planId))
      .then(
        (c) => !gone && setChoices(c),
        () => !gone && setChoices(null),
      );
    return () => void (gone = true);
  }, [householdId, planId, stamp]);
  if (!choices || choices.lines.length === 0) return null;
  return (
    <details class="tools">
      <summary>{m.betterChoices}</summary>
      <p class="muted">{m.betterChoicesAbout}</p>
      {choices.lines.map((l) => (
        <section key={l.foodKey} aria-label={m.betterChoiceFor(l.productName)}>
          <h3>{m.betterChoiceFor(l.productName)}</h3>
          <ul class="items">
            {l.choices.map((c) => (
              <li key={`${c.productName}|${c.ean ?? ''}`} class="pantry-row">
                <span>
                  {c.productName}
                  <span class="reason">{[c.price !== null ? kroner(c.price, true) : null, c.chain, m.choiceReason[c.reason]].filter(Boolean).join(' · ')}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </details>
  );
}
