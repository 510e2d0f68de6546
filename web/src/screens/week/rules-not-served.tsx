import type { RuleNotServed } from '../../api';
import { ruleWords } from '../../dinner-rules';
import { dayName } from '../../format';
import { t } from '../../i18n';

/** The household's dinner rules the proposed week cannot keep, each said with why. */
export function RulesNotServed({ notes }: { notes: readonly RuleNotServed[] }) {
  const m = t.value;
  if (notes.length === 0) return null;
  return (
    <section class="rules-not-served" aria-labelledby="rules-not-served-h">
      <h3 id="rules-not-served-h">{m.rulesNotServedTitle}</h3>
      <ul>
        {notes.map((n) => (
          <li key={`${n.rule.id}-${n.date ?? ''}`} class="warn">
            {m.ruleNotServed(ruleWords(n.rule), n.why, n.served, n.wanted, n.date === null ? null : dayName(n.date))}
          </li>
        ))}
      </ul>
    </section>
  );
}
