import { useEffect, useState } from 'preact/hooks';
import { api, call, type ShoppingItem, type ShoppingList } from '../api';
import { language, t } from '../i18n';
import { Page, Problem, useAction } from '../ui';

/** An amount as the person's language writes it (0,5 stk / 0.5 pcs). */
const amount = (q: number, unit: string) => `${Number(q.toFixed(2)).toLocaleString(language.value === 'en' ? 'en-GB' : 'nb-NO')} ${t.value.units[unit] ?? unit}`;

export function List({ householdId, planId }: { householdId: string; planId: string }) {
  const m = t.value;
  const [list, setList] = useState<ShoppingList | null>(null);
  const [text, setText] = useState('');
  const act = useAction();
  const path = { householdId, planId };
  useEffect(() => void act.run(async () => setList(await call(api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list', { params: { path } })))), [householdId, planId]);
  const reload = async () => setList(await call(api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list', { params: { path } })));
  const tick = (item: ShoppingItem) =>
    act.run(async () => {
      // Instant feedback: the tick shows at once and is put back if the service refuses it.
      const status = item.status === 'Buy' ? 'Purchased' : 'Buy';
      setList((l) => l && { ...l, items: l.items.map((i) => (i.id === item.id ? { ...i, status } : i)) });
      try {
        await call(api.PATCH('/api/v1/households/{householdId}/shopping-items/{itemId}', { params: { path: { householdId, itemId: item.id } }, body: { status } }));
      } finally {
        await reload();
      }
    });
  const add = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      await call(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/items', { params: { path }, body: { displayName: text } }));
      setText('');
      await reload();
    });
  };
  const remove = (item: ShoppingItem) =>
    act.run(async () => {
      await call(api.DELETE('/api/v1/households/{householdId}/shopping-items/{itemId}', { params: { path: { householdId, itemId: item.id } } }));
      await reload();
    });
  const post = (what: 'generate' | 'complete' | 'reopen') =>
    act.run(async () => {
      const p = { params: { path } };
      setList(
        await call(
          what === 'generate'
            ? api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/generate', p)
            : what === 'complete'
              ? api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/complete', { params: { path, query: { markAllBought: 'false' } } })
              : api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/reopen', p),
        ),
      );
    });
  if (!list) return <Page title={m.list}>{act.error ? <Problem error={act.error} /> : <p>{m.loading}</p>}</Page>;
  const groups = new Map<string, ShoppingItem[]>();
  for (const i of list.items.filter((i) => i.reasonCode !== 'OptionalOnly')) groups.set(i.aisle, [...(groups.get(i.aisle) ?? []), i]);
  const optional = list.items.filter((i) => i.reasonCode === 'OptionalOnly');
  const closed = list.completedAt !== null;
  const row = (i: ShoppingItem) => (
    <li key={i.id} class={i.status === 'Purchased' ? 'item done' : 'item'}>
      <label>
        <input type="checkbox" checked={i.status === 'Purchased'} disabled={closed} onChange={() => void tick(i)} />
        <span>
          {i.displayName} <span class="muted">{amount(i.requiredQuantity, i.unit)}</span>
          {i.haveQuantity > 0 && <span class="muted"> · {m.inPantry(amount(i.haveQuantity, i.unit))}</span>}
        </span>
      </label>
      {(i.reasonCode === 'Manual' || i.reasonCode === 'AddedRecipe') && !closed && (
        <button type="button" class="link" onClick={() => void remove(i)} aria-label={`${m.remove}: ${i.displayName}`}>
          {m.remove}
        </button>
      )}
    </li>
  );
  return (
    <Page title={m.list}>
      <p role="status">{m.toBuy(list.toBuyCount)}</p>
      {list.wouldAdd.length > 0 && !closed && (
        <div class="ask" role="region" aria-label={m.weekAsks(list.wouldAdd.length)}>
          <p>{m.weekAsks(list.wouldAdd.length)}</p>
          <ul>
            {list.wouldAdd.map((w) => (
              <li key={`${w.foodKey}/${w.unit}`}>
                {w.displayName} <span class="muted">+{amount(w.quantity, w.unit)}</span>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => void post('generate')}>
            {m.applyChanges}
          </button>
        </div>
      )}
      <Problem error={act.error} />
      {list.items.length === 0 && <p>{m.emptyList}</p>}
      {[...groups].map(([aisle, items]) => (
        <section key={aisle} aria-labelledby={`aisle-${aisle}`}>
          <h2 id={`aisle-${aisle}`}>{m.aisle[aisle] ?? aisle}</h2>
          <ul class="items">{items.map(row)}</ul>
        </section>
      ))}
      {optional.length > 0 && (
        <section aria-labelledby="aisle-optional">
          <h2 id="aisle-optional">{m.optionalOnly}</h2>
          <ul class="items">{optional.map(row)}</ul>
        </section>
      )}
      {!closed && (
        <form onSubmit={add} class="row">
          <label for="f-item" class="visually-hidden">
            {m.addItem}
          </label>
          <input id="f-item" placeholder={m.addItem} required maxLength={200} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <button type="submit">{m.add}</button>
        </form>
      )}
      <p>
        {closed ? (
          <>
            {list.tripSummary && <span role="status">{m.tripDone(list.tripSummary.observationsWritten)} </span>}
            <button type="button" onClick={() => void post('reopen')}>
              {m.reopen}
            </button>
          </>
        ) : (
          <button type="button" onClick={() => void post('complete')}>
            {m.complete}
          </button>
        )}
      </p>
    </Page>
  );
}
