import { useState } from 'preact/hooks';
import type { Plan, ShoppingItem } from '../../api';
import { weekday } from '../../format';
import { t } from '../../i18n';
import { liveDown } from '../../live';
import { Page, Problem } from '../../ui';
import { AddRecipe } from './add-recipe';
import { BetterChoices } from './better-choices';
import { ListLine, WeekAsks } from './list-line';
import { useShoppingList } from './use-shopping-list';

/** Why a line is on the list, in words: the dishes and days it is for, or who put it there. */
function reasons(plan: Plan | null): (i: ShoppingItem) => string {
  const m = t.value;
  const dishOfDay = new Map((plan?.days ?? []).filter((d) => d.recipeTitle !== null).map((d) => [d.id, m.forDish(d.recipeTitle!, weekday(d.date))]));
  return (i) => {
    if (i.reasonCode === 'Manual') return m.reasonManual;
    if (i.reasonCode === 'AddedRecipe') return m.reasonAddedRecipe;
    return i.relatedPlanEntryIds.flatMap((id) => dishOfDay.get(id) ?? []).join(', ');
  };
}

/** The shopping list of a week: its lines by aisle, ticked as they go in the basket, and the trip's end. */
export function ShoppingList({ householdId, planId }: { householdId: string; planId: string }) {
  const m = t.value;
  const shop = useShoppingList(householdId, planId);
  const [text, setText] = useState('');
  const { list } = shop;
  if (!list) return <Page title={m.list}>{shop.error ? <Problem error={shop.error} /> : <p>{m.loading}</p>}</Page>;
  const reasonOf = reasons(shop.plan);
  const groups = new Map<string, ShoppingItem[]>();
  for (const i of list.items.filter((i) => i.reasonCode !== 'OptionalOnly')) groups.set(i.aisle, [...(groups.get(i.aisle) ?? []), i]);
  const optional = list.items.filter((i) => i.reasonCode === 'OptionalOnly');
  const closed = list.completedAt !== null;
  const line = (i: ShoppingItem) => (
    <ListLine key={i.id} item={i} bought={shop.statusOf(i) === 'Purchased'} reason={reasonOf(i)} closed={closed} onTick={() => void shop.tick(i)} onRemove={() => void shop.remove(i)} />
  );
  const add = (e: Event) => {
    e.preventDefault();
    void shop.add(text).then((added) => added && setText(''));
  };
  return (
    <Page title={m.list}>
      <p role="status">{m.toBuy(list.toBuyCount)}</p>
      {liveDown.value && <p class="muted">{m.liveDown}</p>}
      {list.wouldAdd.length > 0 && !closed && <WeekAsks wouldAdd={list.wouldAdd} onApply={() => void shop.generate()} />}
      <Problem error={shop.error} />
      {list.items.length === 0 && <p>{m.emptyList}</p>}
      {[...groups].map(([aisle, items]) => (
        <section key={aisle} aria-labelledby={`aisle-${aisle}`}>
          <h2 id={`aisle-${aisle}`}>{m.aisle[aisle] ?? aisle}</h2>
          <ul class="items">{items.map(line)}</ul>
        </section>
      ))}
      {optional.length > 0 && (
        <section aria-labelledby="aisle-optional">
          <h2 id="aisle-optional">{m.optionalOnly}</h2>
          <ul class="items">{optional.map(line)}</ul>
        </section>
      )}
      <BetterChoices householdId={householdId} planId={planId} stamp={`${list.generatedAt}|${list.items.map((i) => i.id).join(',')}`} />
      {!closed && shop.recipes.length > 0 && <AddRecipe recipes={shop.recipes} onAdd={shop.addRecipe} />}
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
            <button type="button" onClick={() => void shop.reopen()}>
              {m.reopen}
            </button>
          </>
        ) : (
          <button type="button" onClick={() => void shop.complete()}>
            {m.complete}
          </button>
        )}
      </p>
    </Page>
  );
}
