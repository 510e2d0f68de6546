import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { number, unitName } from '../../format';
import { t } from '../../i18n';
import { AskFirst, Field, Problem, useAction } from '../../ui';

type Suggestion = Awaited<ReturnType<typeof readSuggestions>>[number];
type Merge = Awaited<ReturnType<typeof readMerges>>['items'][number];
type UnitWeight = Awaited<ReturnType<typeof readWeights>>[number];
/** The places of the pantry, in the order the screens offer them. */
export const PLACES = ['Fridge', 'Freezer', 'Pantry', 'Unknown'] as const;

const inventory = (householdId: string) => ({ params: { path: { householdId } } });
const readSuggestions = (householdId: string) => dataOf(api.GET('/api/v1/households/{householdId}/inventory/merge-suggestions', inventory(householdId)));
const readMerges = (householdId: string) => dataOf(api.GET('/api/v1/households/{householdId}/inventory/merges', { params: { path: { householdId }, query: { limit: '50' } } }));
const readWeights = (householdId: string) => dataOf(api.GET('/api/v1/households/{householdId}/inventory/unit-weights', inventory(householdId)));

/**
 * Rows that look like one food ("Er «Cherrytomater» og «Tomater» det samme?"), for an adult to answer: yes merges
 * them, no keeps them apart for good. The merges that stand can be split again. A Junior sees none of it.
 */
export function MergeSuggestions({ householdId, onChange }: { householdId: string; onChange: () => void }) {
  const m = t.value;
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [merges, setMerges] = useState<Merge[]>([]);
  const act = useAction();
  const load = async () => {
    const [s, g] = await Promise.all([readSuggestions(householdId), readMerges(householdId)]);
    setSuggestions(s);
    setMerges(g.items);
  };
  useEffect(() => void act.run(load), [householdId]);
  const answer = (s: Suggestion, same: boolean) =>
    act.run(async () => {
      if (same) await api.POST('/api/v1/households/{householdId}/inventory/merges', { ...inventory(householdId), body: { fromKey: s.from.foodKey, toKey: s.to.foodKey, source: 'Suggestion' } });
      else await api.POST('/api/v1/households/{householdId}/inventory/merge-rejections', { ...inventory(householdId), body: { keyA: s.from.foodKey, keyB: s.to.foodKey } });
      await load();
      onChange();
    });
  const split = (g: Merge) =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/inventory/merges/{fromKey}', { params: { path: { householdId, fromKey: g.fromKey } } });
      await load();
      onChange();
    });
  if (suggestions.length === 0 && merges.length === 0 && !act.error) return null;
  // The questions wait in their own place, below the pantry, folded with their count: they never greet the person.
  return (
    <section aria-labelledby="merges-h">
      <h2 id="merges-h">{m.sameFoodTitle}</h2>
      {suggestions.length > 0 && (
        <details class="merge-questions">
          <summary>{m.sameFoodQuestions(suggestions.length)}</summary>
        <ul class="asks">
          {suggestions.map((s) => (
            <li key={`${s.from.foodKey}|${s.to.foodKey}`} class="ask">
              <p>{m.sameFood(s.from.displayName, s.to.displayName)}</p>
              <div class="row">
                <button type="button" class="secondary" disabled={act.busy} onClick={() => void answer(s, true)}>
                  {m.sameFoodYes}
                </button>
                <button type="button" class="secondary" disabled={act.busy} onClick={() => void answer(s, false)}>
                  {m.sameFoodNo}
                </button>
              </div>
            </li>
          ))}
        </ul>
        </details>
      )}
      {merges.length > 0 && (
        <details>
          <summary>{m.mergedFoods(merges.length)}</summary>
          <ul class="items">
            {merges.map((g) => (
              <li key={g.fromKey} class="pantry-row">
                <span>{m.mergedInto(g.fromDisplayName, g.toDisplayName)}</span>
                <button type="button" class="link" disabled={act.busy} onClick={() => void split(g)} aria-label={m.splitOf(g.fromDisplayName)}>
                  {m.split}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
      <Problem error={act.error} />
    </section>
  );
}

/** The household's own grams per unit of a food ("1 stk løk = 150 g"), so amounts in pieces and grams add up. */
export function UnitWeights({ householdId, adult }: { householdId: string; adult: boolean }) {
  const m = t.value;
  const [weights, setWeights] = useState<UnitWeight[] | null>(null);
  const [food, setFood] = useState('');
  const [unit, setUnit] = useState('stk');
  const [grams, setGrams] = useState('');
  const act = useAction();
  useEffect(() => void act.run(async () => setWeights(await readWeights(householdId))), [householdId]);
  const save = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const g = Number(grams.trim().replace(',', '.'));
      if (!(Number.isFinite(g) && g > 0)) throw new ApiProblem(400, 'validation_failed', ['grams']);
      await api.PUT('/api/v1/households/{householdId}/inventory/unit-weights/{foodKey}/{unit}', { params: { path: { householdId, foodKey: food.trim(), unit: unit.trim() } }, body: { grams: g } });
      setFood('');
      setGrams('');
      setWeights(await readWeights(householdId));
    });
  };
  const remove = (w: UnitWeight) =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/inventory/unit-weights/{foodKey}/{unit}', { params: { path: { householdId, foodKey: w.foodKey, unit: w.unit } } });
      setWeights(await readWeights(householdId));
    });
  return (
    <details class="tools">
      <summary>{m.unitWeights}</summary>
      <p class="muted">{m.unitWeightsAbout}</p>
      {weights && weights.length === 0 && <p>{m.noUnitWeights}</p>}
      {weights && weights.length > 0 && (
        <ul class="items">
          {weights.map((w) => (
            <li key={`${w.foodKey}|${w.unit}`} class="pantry-row">
              <span>{m.unitWeightLine(w.displayName, unitName(w.unit, 1), number(w.grams))}</span>
              {adult && (
                <button type="button" class="link" disabled={act.busy} onClick={() => void remove(w)} aria-label={`${m.remove}: ${w.displayName}`}>
                  {m.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {adult && (
        <form onSubmit={save} class="stack">
          <Field label={m.food} name="weight-food" required maxLength={200} value={food} onInput={(e) => setFood(e.currentTarget.value)} />
          <div class="row">
            <Field label={m.unit} name="weight-unit" required maxLength={32} value={unit} onInput={(e) => setUnit(e.currentTarget.value)} />
            <Field label={m.gramsPerUnit} name="weight-grams" required inputMode="decimal" value={grams} onInput={(e) => setGrams(e.currentTarget.value)} />
          </div>
          <button type="submit" disabled={act.busy}>
            {m.saveUnitWeight}
          </button>
        </form>
      )}
      <Problem error={act.error} />
    </details>
  );
}

/** Empty one place (or the whole pantry) after a clear-out, asked twice: it cannot be taken back. Adults only. */
export function ClearPlace({ householdId, onChange }: { householdId: string; onChange: () => void }) {
  const m = t.value;
  const [where, setWhere] = useState<(typeof PLACES)[number] | ''>('Fridge');
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const act = useAction();
  const name = where === '' ? m.wholePantry : m.place[where]!;
  const clear = () =>
    act.run(async () => {
      const { removedObservations } = await dataOf(
        api.DELETE('/api/v1/households/{householdId}/inventory/observations', { params: { path: { householdId }, query: where === '' ? {} : { location: where } } }),
      );
      setAsking(false);
      setDone(m.cleared(name, removedObservations));
      onChange();
    });
  return (
    <details class="tools">
      <summary>{m.clearPlace}</summary>
      <div class="field">
        <label for="f-clear-place">{m.where}</label>
        <select
          id="f-clear-place"
          value={where}
          onChange={(e) => {
            setWhere(e.currentTarget.value as (typeof PLACES)[number] | '');
            setAsking(false);
          }}
        >
          {PLACES.map((p) => (
            <option key={p} value={p}>
              {m.place[p]}
            </option>
          ))}
          <option value="">{m.wholePantry}</option>
        </select>
      </div>
      {asking ? (
        <AskFirst id="clear-q" question={m.clearConfirm(name)} yes={m.clearYes} busy={act.busy} onYes={() => void clear()} onCancel={() => setAsking(false)} />
      ) : (
        <button type="button" class="secondary" onClick={() => setAsking(true)}>
          {m.clearPlaceButton(name)}
        </button>
      )}
      {done && <p role="status">{done}</p>}
      <Problem error={act.error} />
    </details>
  );
}
