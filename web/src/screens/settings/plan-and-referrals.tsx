import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { householdInfo } from '../../state';
import { Problem, useAction } from '../../ui';

/** The household's plan (Free or Plus) and, on Plus, its referral codes to hand to friends. */
export function PlanAndReferrals({ householdId }: { householdId: string }) {
  const m = t.value;
  const plan = householdInfo.value?.plan;
  const [codes, setCodes] = useState<{ code: string; usedAt: string | null }[]>([]);
  const act = useAction();
  useEffect(() => {
    if (plan === 'Plus') void act.run(async () => setCodes(await dataOf(api.GET('/api/v1/households/{householdId}/referral-codes', { params: { path: { householdId } } }))));
  }, [householdId, plan]);
  if (!plan) return null;
  return (
    <section aria-labelledby="plan-h">
      <h2 id="plan-h">{m.plan}</h2>
      <p>{plan === 'Plus' ? m.planPlus : m.planFree}</p>
      {plan === 'Plus' && codes.length > 0 && (
        <>
          <p class="muted">{m.referralAbout}</p>
          <ul class="items">
            {codes.map((c) => (
              <li key={c.code} class="pantry-row">
                <code>{c.code}</code>
                <span class="muted">{c.usedAt ? m.referralUsed : m.referralFree}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <Problem error={act.error} />
    </section>
  );
}
