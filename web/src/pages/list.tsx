import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Plan, type Recipe, type ShoppingItem, type ShoppingList } from '../api';
import { amount, weekday } from '../format';
import { t } from '../i18n';
import { changesOf, live, liveDown, POLL_MS } from '../live';
import { queueTick, waiting, whenTickSent } from '../offline';
import { BetterChoices } from './better-choices';
import { me } from '../state';
import { Page, Problem, useAction } from '../ui';

export function List({ householdId, planId }: { householdId: string; planId: string }) {
  const m = t.value;
  const [list, setList] = useState<ShoppingList | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [recipes, setRecipes] = useState<Recipe[]>([]);
  const [text, setText] = useState('');
  const act = useAction();
  const path = { householdId, planId };
  // The list is read with the ETag of the copy shown: an unchanged list is a 304 with no body.
  const etag = useRef<string | null>(null);
  const reload = async () => {
    const read = api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list', { params: { path }, headers: etag.current ? { 'If-None-Match': etag.current } : {} });
    const answer = await read.catch(() => null);
    if (answer?.response.status === 304) return;
    // No answer: call() turns the failed request into the problem it is.
    setList(await call(read));
    etag.current = answer?.response.headers.get('ETag') ?? null;
  };
  useEffect(
    () =>
      void act.run(async () => {
        etag.current = null;
        const [, p] = await Promise.all([reload(), call(api.GET('/api/v1/households/{householdId}/plans/{planId}', { params: { path } }))]);
        setPlan(p);
        // The recipes to add come second: the list shows without waiting for them.
        setRecipes((await call(api.GET('/api/v1/households/{householdId}/recipes', { params: { path: { householdId }, query: { limit: '100' } } }))).items);
      }),
    [householdId, planId],
  );
  // Another member's change, heard on the live stream: the list is read again (a 304 when it is unchanged). What
  // was heard before the screen opened is in the first read already.
  const heard = changesOf.value[householdId] ?? 0;
  const heardAtOpen = useRef(heard);
  useEffect(() => {
    if (heard !== heardAtOpen.current) void reload().catch(() => undefined);
  }, [heard]);
  // While the stream is down, the list is read every few seconds instead (the browser sends its ETag).
  const streaming = live.value;
  useEffect(() => {
    if (streaming) return;
    const timer = setInterval(() => void reload().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [streaming, householdId, planId]);
  // Ticks go through the offline queue (web/src/offline.ts): shown at once, sent in order, kept while there is no
  // network. A tick the service refuses (the line went, the trip closed) is taken back, with the list as it is now.
  const tick = (item: ShoppingItem) =>
    act.run(async () => {
      const accountId = me.value?.user.id;
      if (!accountId) return;
      const status = statusOf(item) === 'Buy' ? 'Purchased' : 'Buy';
      try {
        await queueTick({ accountId, householdId, itemId: item.id, status });
      } catch (err) {
        await reload().catch(() => undefined);
        throw err;
      }
    });
  // The service's answer to a tick that was sent replaces the line before the tick stops waiting: no flicker.
  useEffect(
    () =>
      whenTickSent((sent, h) => {
        if (h === householdId) setList((l) => l && { ...l, items: l.items.map((i) => (i.id === sent.id ? sent : i)) });
      }),
    [householdId],
  );
  // A tick still waiting shows as made, whatever the list last read says.
  const waitingStatus = new Map(waiting.value.filter((w) => w.householdId === householdId).map((w) => [w.itemId, w.status]));
  const statusOf = (i: ShoppingItem) => waitingStatus.get(i.id) ?? i.status;
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
  /** Why a line is on the list, in words: the dishes and days it is for, or who put it there. */
  const dishOfDay = new Map((plan?.days ?? []).filter((d) => d.recipeTitle !== null).map((d) => [d.id, m.forDish(d.recipeTitle!, weekday(d.date))]));
  const reasonOf = (i: ShoppingItem): string => {
    if (i.reasonCode === 'Manual') return m.reasonManual;
    if (i.reasonCode === 'AddedRecipe') return m.reasonAddedRecipe;
    return i.relatedPlanEntryIds.flatMap((id) => dishOfDay.get(id) ?? []).join(', ');
  };
  if (!list) return <Page title={m.list}>{act.error ? <Problem error={act.error} /> : <p>{m.loading}</p>}</Page>;
  const groups = new Map<string, ShoppingItem[]>();
  for (const i of list.items.filter((i) => i.reasonCode !== 'OptionalOnly')) groups.set(i.aisle, [...(groups.get(i.aisle) ?? []), i]);
  const optional = list.items.filter((i) => i.reasonCode === 'OptionalOnly');
  const closed = list.completedAt !== null;
  const row = (i: ShoppingItem) => {
    const reason = reasonOf(i);
    return (
      <li key={i.id} class={statusOf(i) === 'Purchased' ? 'item done' : 'item'}>
        <label>
          <input type="checkbox" checked={statusOf(i) === 'Purchased'} disabled={closed} onChange={() => void tick(i)} />
          <span>
            {i.displayName} <span class="muted">{amount(i.requiredQuantity, i.unit)}</span>
            {i.haveQuantity > 0 && <span class="muted"> · {m.inPantry(amount(i.haveQuantity, i.unit))}</span>}
            {reason !== '' && <span class="reason">{reason}</span>}
            {i.addedAfterShopping && <span class="reason">{m.addedAfterShopping}</span>}
          </span>
        </label>
        {(i.reasonCode === 'Manual' || i.reasonCode === 'AddedRecipe') && !closed && (
          <button type="button" class="link" onClick={() => void remove(i)} aria-label={`${m.remove}: ${i.displayName}`}>
            {m.remove}
          </button>
        )}
      </li>
    );
  };
  return (
    <Page title={m.list}>
      <p role="status">{m.toBuy(list.toBuyCount)}</p>
      {liveDown.value && <p class="muted">{m.liveDown}</p>}
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
      <BetterChoices householdId={householdId} planId={planId} stamp={`${list.generatedAt}|${list.items.map((i) => i.id).join(',')}`} />
      {!closed && recipes.length > 0 && <AddRecipe householdId={householdId} planId={planId} recipes={recipes} onAdded={setList} />}
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
            <a href="/receipts">{m.newReceipt}</a>{' '}
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

/** Adds a recipe's lines to this list, for a number of portions (the recipe's own by default), tied to no day. */
function AddRecipe({ householdId, planId, recipes, onAdded }: { householdId: string; planId: string; recipes: Recipe[]; onAdded: (l: ShoppingList) => void }) {
  const m = t.value;
  const [recipeId, setRecipeId] = useState('');
  const [portions, setPortions] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const act = useAction();
  const picked = recipes.find((r) => r.id === recipeId);
  const submit = (e: Event) => {
    e.preventDefault();
    if (!picked) return;
    void act.run(async () => {
      const n = portions.trim() === '' ? undefined : Number(portions);
      onAdded(await call(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/recipe', { params: { path: { householdId, planId } }, body: { recipeId, portions: n } })));
      setDone(m.recipeAdded(picked.title));
      setRecipeId('');
      setPortions('');
    });
  };
  return (
    <details class="add-recipe">
      <summary>{m.addRecipeToList}</summary>
      <form onSubmit={submit} class="stack">
        <label for="f-add-recipe">{m.recipe}</label>
        <select id="f-add-recipe" required value={recipeId} onChange={(e) => setRecipeId(e.currentTarget.value)}>
          <option value="">{m.pickRecipe}</option>
          {recipes.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </select>
        <label for="f-add-portions">{m.servings}</label>
        <input id="f-add-portions" type="number" min={1} max={100} inputMode="numeric" placeholder={picked ? String(picked.servings) : ''} value={portions} onInput={(e) => setPortions(e.currentTarget.value)} />
        <button type="submit" disabled={act.busy || !picked}>
          {m.addToList}
        </button>
        {done && <p role="status">{done}</p>}
        <Problem error={act.error} />
      </form>
    </details>
  );
}
