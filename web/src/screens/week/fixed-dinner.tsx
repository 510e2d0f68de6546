import { useEffect } from 'preact/hooks';
import type { PlanDay } from '../../api';
import { fixedRuleOf, loadDinnerRules, ruleWords } from '../../dinner-rules';
import { t } from '../../i18n';

/** "Fast: Taco på fredag": said on a day whose dish is the household's fixed dish of that weekday. */
export function FixedDinner({ householdId, day }: { householdId: string; day: PlanDay }) {
  // The rules are read once for all the week's days (again after a change in the settings).
  useEffect(() => void loadDinnerRules(householdId), [householdId]);
  const rule = day.cookedAtHome ? fixedRuleOf(householdId, day) : null;
  return rule && <p class="rule-note">{t.value.fixedDinner(ruleWords(rule))}</p>;
}
