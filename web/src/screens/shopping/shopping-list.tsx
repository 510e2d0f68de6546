import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiProblem, Plan, ShoppingItem, ShoppingList as List } from '../../api';
import { kroner, weekday } from '../../format';
import { sentenceFor, t } from '../../i18n';
import type { LineChangeSaid } from '../../i18n/nb';
import { liveDown } from '../../live';
import type { WaitingChange } from '../../offline';
import { Page, Problem } from '../../ui';
import { AddRecipe } from './add-recipe';
import { BetterChoices } from './better-choices';
import { ListLine, WeekAsks } from './list-line';
import { TripEnd } from './trip-end';
import { fills, useShoppingList } from './use-shopping-list';
import { useAisleOrder } from './use-aisle-order';
import { household } from '../../state';

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

/**
 * "Nei, ikke nå" to the week's question: kept in this browser for the list's plan, and only for what the list
 * would add then, so that the question comes back once the list would add something else.
 */
function useNotNow(planId: string, wouldAdd: List['wouldAdd'] | undefined) {
  const key = `week-asks-not-now:${planId}`;
  const stamp = JSON.stringify(wouldAdd ?? []);
  const [said, setSaid] = useState(() => localStorage.getItem(key));
  useEffect(() => setSaid(localStorage.getItem(key)), [key]);
  const notNow = () => {
    localStorage.setItem(key, stamp);
    setSaid(stamp);
  };
  return { hidden: said === stamp, notNow };
}

/**
 * Keeps the keyboard where the shopper is when a tick moves a line (into the basket, or back out of it): to the tick
 * box of the line below the one ticked (or above, at the end), or of the line itself once back on the list.
 */
function useTickFocus() {
  const next = useRef<string | null>(null);
  useEffect(() => {
    if (next.current === null) return;
    const box = document.getElementById(`tick-${next.current}`);
    if (box) {
      box.focus();
      next.current = null;
    }
  });
  return (id: string) => void (next.current = id);
}

/** How many lines the list's first showing holds: a phone's screenful (390 × 844 px), so that a cheap phone shows it soon. */
const FIRST_LINES = 12;

/**
 * How many lines to show: the first screenful when the list first shows, every line from the next moment on (after
 * that first paint). On a cheap phone a long list's first paint comes sooner; the rest follow before a hand can scroll.
 */
function useFirstLines(shown: boolean): number {
  const [limit, setLimit] = useState(FIRST_LINES);
  useEffect(() => {
    if (!shown || limit === Infinity) return;
    const timer = setTimeout(() => setLimit(Infinity), 0);
    return () => clearTimeout(timer);
  }, [shown]);
  return limit;
}

/** Takes lines, in the order they are shown, until `limit` are taken. */
function shareOf(limit: number) {
  let room = limit;
  const upTo = (items: ShoppingItem[]) => {
    const taken = items.slice(0, Math.max(room, 0));
    room -= taken.length;
    return taken;
  };
  return { upTo, left: () => room > 0 };
}

/** What another member did to a line after a change sent late was made (409 shopping_line_changed's members). */
const lineChangeOf = (p: ApiProblem): LineChangeSaid => ({
  by: typeof p.extra['changedBy'] === 'string' ? p.extra['changedBy'] : null,
  change: p.extra['change'] as LineChangeSaid['change'],
  name: String(p.extra['displayName'] ?? ''),
});

/** What a refused change was, for its sentence: a tick with an amount is an amount changed. */
const refusedKind = (c: WaitingChange) => (c.kind === 'tick' && c.purchasedQuantity !== undefined ? 'amount' : c.kind);

/**
 * The changes the service refused after they waited, one line each: another member's later change of the line as
 * news (what they did), any other refusal as a problem with its reason.
 */
function Refusals(props: { refusals: readonly { change: WaitingChange; problem: ApiProblem }[] }) {
  const m = t.value;
  return (
    <>
      {props.refusals.map(({ change, problem }) =>
        problem.code === 'shopping_line_changed' ? (
          <p key={change.seq} class="notice" role="status">
            {m.changedMeanwhile(lineChangeOf(problem))}
          </p>
        ) : (
          <p key={change.seq} class="problem" role="alert">
            {m.changeRefused(refusedKind(change), 'displayName' in change ? change.displayName : '')} {sentenceFor(problem)}
          </p>
        ),
      )}
    </>
  );
}

/** One aisle's lines under its name, with buttons that move the aisle one place earlier or later in the store's walk. */
function AisleGroup(props: { aisle: string; at: number; of: number; movable: boolean; onMove: (by: -1 | 1) => void; children: ComponentChildren }) {
  const m = t.value;
  const { aisle, at } = props;
  const name = m.aisle[aisle] ?? aisle;
  return (
    <section aria-labelledby={`aisle-${aisle}`}>
      <div class="aisle-head">
        <h2 id={`aisle-${aisle}`}>{name}</h2>
        {props.movable && props.of > 1 && (
          <span class="aisle-move">
            <button type="button" class="link" disabled={at === 0} onClick={() => props.onMove(-1)} aria-label={m.aisleEarlier(name)}>
              ↑
            </button>
            <button type="button" class="link" disabled={at === props.of - 1} onClick={() => props.onMove(1)} aria-label={m.aisleLater(name)}>
              ↓
            </button>
          </span>
        )}
      </div>
      <ul class="items">{props.children}</ul>
    </section>
  );
}

/** Whether a list has lines to buy and none of them priced, while the household asked for prices. */
const pricesMissing = (list: List) => list.priceCatalogueOn && list.items.some((i) => i.status === 'Buy') && list.items.every((i) => i.suggestedPrice === null);

/**
 * The shopping list of a week, made for the store: the add field at the top, the lines still to buy by aisle, the
 * ticked ones in a collapsed "I kurven" group at the end (a tick undone from there), and the trip's end.
 */
export function ShoppingList({ householdId, planId }: { householdId: string; planId: string }) {
  const m = t.value;
  const shop = useShoppingList(householdId, planId);
  const [text, setText] = useState('');
  const asks = useNotNow(planId, shop.list?.wouldAdd);
  const focusLater = useTickFocus();
  const aisles = useAisleOrder(householdId);
  const { list } = shop;
  const ready = list !== null && shop.planRead && aisles.read;
  const limit = useFirstLines(ready);
  // The list shows once, whole: its lines, what each is for (the week) and the store's order, read side by side.
  if (!list || !ready) return <Page title={m.list}>{shop.error ? <Problem error={shop.error} /> : <p>{m.loading}</p>}</Page>;
  const reasonOf = reasons(shop.plan);
  const bought = (i: ShoppingItem) => shop.statusOf(i) === 'Purchased';
  const open = list.items.filter((i) => !bought(i));
  const basket = list.items.filter(bought);
  const groups = new Map<string, ShoppingItem[]>();
  for (const i of open.filter((i) => i.reasonCode !== 'OptionalOnly')) groups.set(i.aisle, [...(groups.get(i.aisle) ?? []), i]);
  // The groups in the order the household walks its store (learned from its ticks, or set by hand).
  const ordered = [...groups].sort(([a], [b]) => aisles.rank(a) - aisles.rank(b));
  const optional = open.filter((i) => i.reasonCode === 'OptionalOnly');
  // The lines in the order shown, for the focus to go to the next one after a tick.
  const shown = [...ordered.flatMap(([, items]) => items), ...optional];
  const closed = list.completedAt !== null;
  // A closed trip that took its unticked lines to next week's list: they are shown as gone there, not as to buy.
  const carried = closed ? (list.tripSummary?.carried ?? null) : null;
  const adult = household.value?.role !== 'Junior';
  /** Focus goes on to the next line's tick box when a line leaves the list (into the basket), or to its own coming back. */
  const focusPast = (i: ShoppingItem) => {
    const at = shown.indexOf(i);
    const after = at < 0 ? i : (shown[at + 1] ?? shown[at - 1]);
    if (after) focusLater(after.id);
  };
  const tick = (i: ShoppingItem) => {
    focusPast(i);
    void shop.tick(i);
  };
  // An amount that is all the line needs buys it; less keeps it here, and the line gives focus back itself.
  const setAmount = (i: ShoppingItem, q: number) => {
    if (fills(i, q)) focusPast(i);
    void shop.setAmount(i, q);
  };
  const line = (i: ShoppingItem) => (
    <ListLine key={i.id} item={i} bought={bought(i)} reason={reasonOf(i)} closed={closed} waiting={shop.isWaiting(i)} onTick={() => tick(i)} onRemove={() => void shop.remove(i)} onAmount={(q) => setAmount(i, q)} />
  );
  // The first showing's share of the lines, taken in the order shown; the rest (and what follows the lines) a moment later.
  const { upTo, left } = shareOf(limit);
  const all = limit === Infinity;
  const add = (e: Event) => {
    e.preventDefault();
    void shop.add(text).then((added) => added && setText(''));
  };
  return (
    <Page title={m.list}>
      <p role="status">
        {carried ? m.carriedToNextWeek(carried.lines) : m.toBuy(list.toBuyCount)}
        {!carried && list.priceTotal !== null && ` · ${m.aboutPrice(kroner(list.priceTotal))}`}
      </p>
      {carried && (
        <p>
          <a href={`/list/${carried.planId}`}>{m.openNextWeeksList}</a>
        </p>
      )}
      {liveDown.value && <p class="muted">{m.liveDown}</p>}
      {!closed && (
        <form onSubmit={add} class="row add-line">
          <label for="f-item" class="visually-hidden">
            {m.addItem}
          </label>
          <input id="f-item" placeholder={m.addItem} required maxLength={200} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <button type="submit">{m.add}</button>
        </form>
      )}
      {list.wouldAdd.length > 0 && !asks.hidden && <WeekAsks wouldAdd={list.wouldAdd} onApply={() => void shop.generate()} onNotNow={asks.notNow} />}
      <Problem error={shop.error} />
      <Refusals refusals={shop.refusals} />
      {pricesMissing(list) && <p class="muted">{m.noPricesYet}</p>}
      {list.items.length === 0 && <p>{m.emptyList}</p>}
      <Problem error={aisles.error} />
      {carried && shown.length > optional.length && (
        <section aria-labelledby="carried-lines">
          <h2 id="carried-lines">{m.carriedLines}</h2>
          <ul class="items">{upTo(ordered.flatMap(([, items]) => items)).map(line)}</ul>
        </section>
      )}
      {!carried &&
        ordered
          .map(([aisle, items], at) => [aisle, upTo(items), at] as const)
          .filter(([, items]) => items.length > 0)
          .map(([aisle, items, at]) => (
            <AisleGroup key={aisle} aisle={aisle} at={at} of={ordered.length} movable={adult && !closed} onMove={(by) => void aisles.move(aisle, by)}>
              {items.map(line)}
            </AisleGroup>
          ))}
      {optional.length > 0 && left() && (
        <section aria-labelledby="aisle-optional">
          <h2 id="aisle-optional">{m.optionalOnly}</h2>
          <ul class="items">{upTo(optional).map(line)}</ul>
        </section>
      )}
      {all && basket.length > 0 && (
        <details class="basket">
          <summary>{m.inBasket(basket.length)}</summary>
          <ul class="items">{basket.map(line)}</ul>
        </details>
      )}
      {all && (
        <>
          <TripEnd list={list} unticked={list.toBuyCount} busy={shop.busy} onComplete={(u) => void shop.complete(u)} onReopen={() => void shop.reopen()} />
          <BetterChoices householdId={householdId} planId={planId} stamp={`${list.generatedAt}|${list.items.map((i) => i.id).join(',')}`} />
          {!closed && shop.recipes.length > 0 && <AddRecipe recipes={shop.recipes} onAdd={shop.addRecipe} />}
        </>
      )}
    </Page>
  );
}
