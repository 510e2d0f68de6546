import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { t } from '../../i18n';
import { householdInfo, loadHousehold } from '../../state';
import { Problem, useAction } from '../../ui';

/** The store chains the household shops at, from the loyalty programmes of its country; they set which prices count. */
export function Chains({ householdId, adult }: { householdId: string; adult: boolean }) {
  const m = t.value;
  const [all, setAll] = useState<string[] | null>(null);
  // The chains as just picked, shown at once while the household is saved and read again.
  const [picked, setPicked] = useState<string[] | null>(null);
  const mine = picked ?? householdInfo.value?.chains ?? [];
  const act = useAction();
  useEffect(
    () =>
      void act.run(async () => {
        try {
          const programs = await dataOf(api.GET('/api/v1/households/{householdId}/loyalty-programs', { params: { path: { householdId } } }));
          setAll([...new Set(programs.flatMap((p) => p.chains))].sort((a, b) => a.localeCompare(b)));
        } catch (err) {
          // No programmes known for the household's country: the chains are simply not offered.
          if (err instanceof ApiProblem && err.code === 'loyalty_programs_unavailable') return setAll([]);
          throw err;
        }
      }),
    [householdId],
  );
  const flip = (chain: string, on: boolean) =>
    act.run(async () => {
      const chains = on ? [...mine, chain] : mine.filter((c) => c !== chain);
      setPicked(chains);
      try {
        await api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId } }, body: { chains } });
        await loadHousehold();
      } finally {
        setPicked(null);
      }
    });
  if (!all || all.length === 0) return act.error ? <Problem error={act.error} /> : null;
  return (
    <section aria-labelledby="chains-h">
      <h2 id="chains-h">{m.chains}</h2>
      <p class="muted">{m.chainsAbout}</p>
      <fieldset class="chain-choices">
        <legend class="visually-hidden">{m.chains}</legend>
        {all.map((c) => (
          <label key={c} class="check">
            <input type="checkbox" checked={mine.includes(c)} disabled={!adult || act.busy} onChange={(e) => void flip(c, e.currentTarget.checked)} /> {c}
          </label>
        ))}
      </fieldset>
      <Problem error={act.error} />
    </section>
  );
}
