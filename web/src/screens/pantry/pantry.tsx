import { useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type PantryRow } from '../../api';
import { amount, dayAndMonth } from '../../format';
import { t } from '../../i18n';
import { ActionForm, Field, Page, Problem, SearchForm, useAction } from '../../ui';
import { hiddenByUndo, withUndo } from '../../ui/undo';
import { ClearPlace, MergeSuggestions, PLACES, UnitWeights } from './pantry-tools';
import { GROUPS, usePantry, type Place } from './use-pantry';

/** What the household has, as the service estimates it from what it saw (bought, used, counted), in its sections. */
export function Pantry({ householdId, role }: { householdId: string; role: string }) {
  const m = t.value;
  const { rows, sections, total, next, searched, where, act, search, more, filter, reread } = usePantry(householdId);
  const [q, setQ] = useState('');
  // Merging, clearing and weights change the household's pantry for everyone: for adults.
  const adult = role !== 'Junior';
  return (
    <Page title={m.pantry}>
      <HaveForm householdId={householdId} onAdded={reread} />
      <SearchForm id="f-pantry-q" label={m.searchPantry} button={m.search} value={q} onInput={setQ} onSearch={(text) => void search(text)} />
      <div class="row filters">
        <Filter id="f-place" label={m.placeFilter} all={m.everywhere} value={where.place} options={PLACES.map((p) => [p, m.place[p]!])} onPick={(place) => filter({ place })} />
        <Filter id="f-group" label={m.groupFilter} all={m.allGroups} value={where.group} options={GROUPS.map((g) => [g, m.pantryGroup[g]!])} onPick={(group) => filter({ group })} />
      </div>
      <Problem error={act.error} />
      {rows === null ? (
        !act.error && <p>{m.loading}</p>
      ) : rows.length === 0 ? (
        <p>{searched || where.place || where.group ? m.pantryNoMatch : m.pantryEmpty}</p>
      ) : (
        <>
          <p class="muted" role="status">
            {m.pantryCount(total)}
          </p>
          {[...sections].map(([group, items]) => (
            <section key={group} aria-labelledby={`group-${group}`}>
              <h2 id={`group-${group}`}>{m.pantryGroup[group] ?? group}</h2>
              <ul class="items">
                {items.filter((r) => !hiddenByUndo.value.has(`pantry:${r.foodKey}`)).map((r) => (
                  <li key={r.foodKey} class="pantry-row">
                    <span>
                      {r.displayName}{' '}
                      <span class="muted">
                        {amount(r.estimatedQuantity, r.unit)}
                      </span>
                      <span class="reason">
                        {/* A place nobody gave (food bought on a trip) is not said: only the places a person named are. */}
                        {[r.storageLocation === 'Unknown' ? null : (m.place[r.storageLocation] ?? r.storageLocation), r.bestBefore ? m.bestBefore(dayAndMonth(r.bestBefore)) : null]
                          .filter((x) => x !== null)
                          .join(' · ')}
                      </span>
                    </span>
                    <RowActions householdId={householdId} row={r} onChange={reread} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {next && (
            <button type="button" class="secondary" disabled={act.busy} onClick={() => void more()}>
              {m.showMore}
            </button>
          )}
        </>
      )}
      {adult && <MergeSuggestions householdId={householdId} onChange={reread} />}
      <UnitWeights householdId={householdId} adult={adult} />
      {adult && <ClearPlace householdId={householdId} onChange={reread} />}
    </Page>
  );
}

/** "What I have": a food, an amount and where it is, recorded as seen now. */
function HaveForm({ householdId, onAdded }: { householdId: string; onAdded: () => void }) {
  const m = t.value;
  const [name, setName] = useState('');
  const [amount, setAmount] = useState('');
  const [unit, setUnit] = useState('');
  const [where, setWhere] = useState<Place>('Fridge');
  const act = useAction();
  const add = async () => {
    const quantity = amount.trim() === '' ? null : Number(amount.trim().replace(',', '.'));
    if (quantity !== null && !(Number.isFinite(quantity) && quantity >= 0)) throw new ApiProblem(400, 'validation_failed', ['quantity']);
    await api.POST('/api/v1/households/{householdId}/inventory/observations', {
      params: { path: { householdId } },
      body: { displayName: name.trim(), observationType: 'Seen', quantity, unit: unit.trim() || null, storageLocation: where },
    });
    setName('');
    setAmount('');
    setUnit('');
    onAdded();
  };
  return (
    <details class="have" open={act.error !== null}>
      <summary>{m.whatIHave}</summary>
      <ActionForm action={act} button={m.addToPantry} onSubmit={add}>
        <Field label={m.food} name="have-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <div class="row">
          <Field label={m.amount} name="have-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
          <Field label={m.unit} name="have-unit" maxLength={32} value={unit} onInput={(e) => setUnit(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="f-have-place">{m.where}</label>
          <select id="f-have-place" value={where} onChange={(e) => setWhere(e.currentTarget.value as Place)}>
            {PLACES.map((p) => (
              <option key={p} value={p}>
                {m.place[p]}
              </option>
            ))}
          </select>
        </div>
      </ActionForm>
    </details>
  );
}

/** A row's own actions: the date on the pack where the row asks for one, and "finished". */
function RowActions({ householdId, row, onChange }: { householdId: string; row: PantryRow; onChange: () => void }) {
  const m = t.value;
  const [bestBefore, setBestBefore] = useState('');
  const act = useAction();
  const observe = (body: { observationType: 'Seen' | 'Gone'; bestBefore?: string }) =>
    act.run(async () => {
      await api.POST('/api/v1/households/{householdId}/inventory/observations', { params: { path: { householdId } }, body: { foodKey: row.foodKey, ...body } });
      onChange();
    });
  // "Used up" leaves the list at once, with a few seconds to undo (web/src/ui/undo.tsx) before it is written.
  const usedUp = () =>
    withUndo(m.usedUpSaid(row.displayName), [`pantry:${row.foodKey}`], async () => {
      await dataOf(api.POST('/api/v1/households/{householdId}/inventory/observations', { params: { path: { householdId } }, body: { foodKey: row.foodKey, observationType: 'Gone' } }));
      onChange();
    });
  if (row.estimatedQuantity <= 0) return null;
  return (
    <div class="row-actions">
      {row.asksForDate && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void observe({ observationType: 'Seen', bestBefore });
          }}
        >
          <label for={`bb-${row.foodKey}`} class="visually-hidden">
            {m.bestBeforeOf(row.displayName)}
          </label>
          <input id={`bb-${row.foodKey}`} type="date" required value={bestBefore} onInput={(e) => setBestBefore(e.currentTarget.value)} />
          <button type="submit" class="secondary" disabled={act.busy}>
            {m.saveDate}
          </button>
        </form>
      )}
      <button type="button" class="link" disabled={act.busy} onClick={usedUp} aria-label={m.finishedOf(row.displayName)}>
        {m.finished}
      </button>
      <Problem error={act.error} />
    </div>
  );
}

/** A labelled choice of one value, or all (""), that narrows the list at once. */
function Filter<V extends string>(props: { id: string; label: string; all: string; value: V | ''; options: readonly (readonly [V, string])[]; onPick: (v: V | '') => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onPick(e.currentTarget.value as V | '')}>
        <option value="">{props.all}</option>
        {props.options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
