import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf, type Plan, type RecipeSummary, type ShoppingItem, type ShoppingList } from '../../api';
import { changesOf, live, POLL_MS } from '../../live';
import { answerTo, queueChange, refused, waiting, whenSent, withdraw, type Change, type WaitingChange } from '../../offline';
import { settled } from '../../startup';
import { me } from '../../state';
import { useAction } from '../../ui';

type Answer<T> = Promise<{ data?: T; response: Response }>;

/** What a change made here did to the lines (null: the whole list changed, e.g. a trip closed). */
type Onto = (items: readonly ShoppingItem[]) => ShoppingItem[] | null;

/**
 * The list's reads and the writes that answer it: every answer's ETag is kept, and reads go one at a time, each with
 * the ETag of the copy shown. `changed(onto)` is called for every change made here that the service has answered: a
 * read sent before it may be answered after it with the list as it was, so the answer is shown with every such
 * change put back on top of it (a tick stays ticked, and the other shopper's ticks in the same answer still show). A
 * change of the whole list (a write's answer) drops such a read's answer instead, and the list is read once more.
 */
function useListReads(householdId: string, planId: string, setList: (l: ShoppingList) => void) {
  const path = { householdId, planId };
  const etag = useRef<string | null>(null);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  /** How many changes were answered here: taken when a read is sent; and each answer since, to put back on top. */
  const changes = useRef(0);
  const answered = useRef<{ at: number; onto: Onto }[]>([]);
  const changed = (onto: Onto) => {
    changes.current += 1;
    answered.current.push({ at: changes.current, onto });
  };

  /** An answer with the list (a refusal has been thrown as its problem by then): shown, and its ETag kept. */
  const write = async (request: Answer<ShoppingList>) => {
    const { data, response } = await request;
    changed(() => null);
    etag.current = response.headers.get('ETag') ?? etag.current;
    setList(data as ShoppingList);
  };
  const readOnce = async () => {
    const sentAt = changes.current;
    // Reads go one at a time: a change answered before this one was sent is in its answer already.
    answered.current = answered.current.filter((a) => a.at > sentAt);
    const { data, response } = await api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list', { params: { path }, headers: etag.current ? { 'If-None-Match': etag.current } : {} });
    // A 304: the copy shown is the list as it is (with the changes made here since).
    if (response.status === 304 || !data) return;
    let items: ShoppingItem[] | null = data.items;
    for (const a of answered.current) if (items && a.at > sentAt) items = a.onto(items);
    if (!items) {
      again.current = true;
      return;
    }
    etag.current = response.headers.get('ETag') ?? etag.current;
    setList({ ...data, items });
  };
  /** Reads the list again; asked while a read is under way, it reads once more after it, with the newer ETag. */
  const refresh = (): Promise<void> => {
    if (reading.current) {
      again.current = true;
      return reading.current;
    }
    const run = async () => {
      try {
        do {
          again.current = false;
          await readOnce();
        } while (again.current);
      } finally {
        reading.current = null;
      }
    };
    return (reading.current = run());
  };

  return { etag, write, refresh, changed };
}

/** The id a line added here shows under while it waits to be sent. */
const WAITING_ID = 'waiting-';
const waitingSeq = (i: ShoppingItem): number | null => (i.id.startsWith(WAITING_ID) ? Number(i.id.slice(WAITING_ID.length)) : null);

/** A line added here, as shown while it waits: its name as typed, to buy, among "other". */
const waitingLine = (seq: number, displayName: string): ShoppingItem => {
  const none = { quantity: null, unit: null, packageSize: null };
  const amounts = { requiredQuantity: 0, unit: 'pcs', buy: none, remainingQuantity: 0, remaining: none, extraQuantity: 0, haveQuantity: 0 };
  const purchase = { status: 'Buy', purchasedQuantity: 0, purchasedUnit: null } as const;
  const price = { suggestedPrice: null, suggestedProductName: null, suggestedPriceIsAggregate: false, suggestedPriceSource: 'None' } as const;
  const reason = { reasonCode: 'Manual', relatedPlanEntryIds: [], addedAfterShopping: false, isManual: true, preferenceFit: 'NotAssessed' } as const;
  return { id: `${WAITING_ID}${seq}`, foodKey: '', displayName, aisle: 'Other', ...amounts, ...purchase, ...price, ...reason, relatedPlanEntryIds: [] };
};

/** The lines after the service's answer to one change: the line ticked or added put in, the line removed left out. */
function sentInto(items: readonly ShoppingItem[], sent: WaitingChange, item: ShoppingItem | null): ShoppingItem[] {
  if (sent.kind === 'remove') return items.filter((i) => i.id !== sent.itemId);
  if (!item) return [...items];
  return items.some((i) => i.id === item.id) ? items.map((i) => (i.id === item.id ? item : i)) : [...items, item];
}

/** A sum of amounts without the float's noise (0.30000000000000004 is 0.3), as the service tidies them. */
const tidy = (n: number) => Number(n.toPrecision(12));
/** What a line needs bought, in its unit: its need less what the pantry likely holds (as the service counts it). */
export const needOf = (i: ShoppingItem): number => tidy(Math.max(i.requiredQuantity - i.haveQuantity, 0));
/** A line with nothing left to buy, as the service writes it. */
const NOTHING = { quantity: null, unit: null, packageSize: null };
/** Whether `purchasedQuantity` in the basket is all a line needs, so that the service buys it. */
export const fills = (i: ShoppingItem, purchasedQuantity: number): boolean => purchasedQuantity >= needOf(i);

/** Whether a line already says what a tick says (its answer is in, or it was so before): shown as the service wrote it. */
const holds = (i: ShoppingItem, tick: Extract<Change, { kind: 'tick' }>): boolean =>
  tick.status === 'Buy' ? i.status === 'Buy' && i.purchasedQuantity === 0 : tick.purchasedQuantity === undefined ? i.status === 'Purchased' : i.purchasedUnit === null && i.purchasedQuantity === tick.purchasedQuantity;

/**
 * A line as a tick still waiting to be sent leaves it, as near as the screen can tell before the service answers:
 * an untick empties the basket; a tick buys the rest; an amount is what is in the basket, and the line stays open
 * with the rest to buy (in the line's own unit; the service's answer rounds it to what a shop sells) while it is
 * less than the need.
 */
function ticked(i: ShoppingItem, tick: Extract<Change, { kind: 'tick' }>): ShoppingItem {
  if (holds(i, tick)) return i;
  if (tick.status === 'Buy') return { ...i, status: 'Buy', purchasedQuantity: 0, purchasedUnit: null, remainingQuantity: needOf(i), remaining: i.buy };
  if (tick.purchasedQuantity === undefined) return { ...i, status: 'Purchased', purchasedQuantity: 0, purchasedUnit: null, remainingQuantity: 0, remaining: NOTHING };
  const basket = { purchasedQuantity: tick.purchasedQuantity, purchasedUnit: null };
  if (fills(i, tick.purchasedQuantity)) return { ...i, ...basket, status: 'Purchased', remainingQuantity: 0, remaining: NOTHING };
  const left = tidy(needOf(i) - tick.purchasedQuantity);
  return { ...i, ...basket, status: 'Buy', remainingQuantity: left, remaining: { quantity: left, unit: i.unit, packageSize: null } };
}

/**
 * The list as the shopper made it: every change still waiting shown as made, whatever the list last read says (a
 * tick as ticked, an amount as in the basket, a line added as a line, a line removed as gone). The count of lines to
 * buy is counted from the lines shown, as the service counts it, so that it moves with a waiting tick and does not
 * go back for a moment when the tick's answer is in before the list is read again.
 */
function withWaiting(list: ShoppingList | null, here: readonly WaitingChange[], planId: string) {
  const ticks = new Map<string, Extract<Change, { kind: 'tick' }>>();
  const gone = new Set<string>();
  const added: ShoppingItem[] = [];
  for (const w of here) {
    // The last change of a line is what it shows: each is sent in order, and each replaces what the one before said.
    if (w.kind === 'tick') ticks.set(w.itemId, w);
    else if (w.kind === 'remove') gone.add(w.itemId);
    else if (w.planId === planId) added.push(waitingLine(w.seq, w.displayName));
  }
  const lineOf = (i: ShoppingItem) => {
    const tick = ticks.get(i.id);
    return tick ? ticked(i, tick) : i;
  };
  const statusOf = (i: ShoppingItem) => lineOf(i).status;
  if (!list) return { statusOf, shown: list };
  const items = [...list.items.filter((i) => !gone.has(i.id)).map(lineOf), ...added];
  const toBuyCount = items.filter((i) => i.status === 'Buy' && i.reasonCode !== 'OptionalOnly').length;
  return { statusOf, shown: { ...list, items, toBuyCount } };
}

/**
 * The one owner of a shopping list on screen: it reads the list, takes the ETag of every answer that carries one
 * (the read, and every write that answers the list), hears the live stream (or polls while it is down), and sends
 * ticks through the offline queue. Reads go one at a time, each with the ETag of the copy shown: a tick's own
 * change, reported by the live stream after the tick's answer is in, is read back as a 304 and changes nothing.
 */
export function useShoppingList(householdId: string, planId: string) {
  const [list, setList] = useState<ShoppingList | null>(null);
  // The week (what each line is for) and the recipes that may be put on the list.
  const [plan, setPlan] = useState<Plan | null>(null);
  // Whether the week's first read is done (answered or failed): the list shows with what each line is for at once.
  const [planRead, setPlanRead] = useState(false);
  const [recipes, setRecipes] = useState<RecipeSummary[]>([]);
  const act = useAction();
  const path = { householdId, planId };
  const { etag, write, refresh, changed } = useListReads(householdId, planId, setList);

  // Read as the screen is made (a layout effect), not after its first paint: the list is what the shopper waits for.
  useLayoutEffect(() => {
    etag.current = null;
    changed(() => null);
    setList(null);
    setPlanRead(false);
    void act.run(async () => {
      // The week is read beside the list, and counts as read on its own answer: a read of the list asked again
      // meanwhile (the live stream opening says `ready`) must not hold the first showing back for another round trip.
      const week = dataOf(api.GET('/api/v1/households/{householdId}/plans/{planId}', { params: { path } }))
        .then(setPlan)
        .finally(() => setPlanRead(true));
      await Promise.all([refresh(), week]);
      // The recipes to add come last, once the app's start has settled (src/startup.ts): the list shows without them.
      await settled;
      setRecipes((await dataOf(api.GET('/api/v1/households/{householdId}/recipe-summaries', { params: { path: { householdId }, query: { limit: '100' } } }))).items);
    });
  }, [householdId, planId]);

  // A change heard on the live stream: read again (a 304 when it was this device's own tick, already shown). What
  // was heard before the screen opened is in the first read already.
  const heard = changesOf.value[householdId] ?? 0;
  const heardAtOpen = useRef(heard);
  useEffect(() => {
    if (heard !== heardAtOpen.current) void refresh().catch(() => undefined);
  }, [heard]);
  // While the stream is down, the list is read every few seconds instead.
  const streaming = live.value;
  useEffect(() => {
    if (streaming) return;
    const timer = setInterval(() => void refresh().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [streaming, householdId, planId]);
  // The service's answer to a change replaces, adds or drops the line before the change stops waiting: no flicker.
  useEffect(
    () =>
      whenSent((sent, item) => {
        if (sent.householdId !== householdId) return;
        changed((items) => sentInto(items, sent, item));
        setList((l) => l && { ...l, items: sentInto(l.items, sent, item) });
      }),
    [householdId],
  );

  const here = waiting.value.filter((w) => w.householdId === householdId);
  const { statusOf, shown } = withWaiting(list, here, planId);

  /**
   * Every change goes through the offline queue: shown at once, sent in order, kept while there is no network. Once
   * sent, the list is read for its new ETag (so the stream's report of this change is a 304); a change the service
   * refuses (the line went, the trip closed) is taken back, with the list as it is now.
   */
  const change = (what: Change) =>
    act.run(async () => {
      const accountId = me.value?.user.id;
      if (!accountId) return;
      refused.value = [];
      try {
        if ((await queueChange({ accountId, householdId, ...what })) === 'sent') await refresh().catch(() => undefined);
      } catch (err) {
        await refresh().catch(() => undefined);
        throw err;
      }
    });
  const tick = (item: ShoppingItem) => change({ kind: 'tick', itemId: item.id, status: statusOf(item) === 'Buy' ? 'Purchased' : 'Buy' });
  /**
   * Says how much of a line is in the basket, in its unit (4 dl of 6 dl): a purchase with that amount, which keeps
   * the line open while it is less than the need, and buys it when it is all.
   */
  const setAmount = (item: ShoppingItem, purchasedQuantity: number) => change({ kind: 'tick', itemId: item.id, status: 'Purchased', purchasedQuantity });
  /** Adds a line; the field empties at once, the line shows while it waits. */
  const add = (displayName: string) => {
    void change({ kind: 'add', planId, displayName });
    return Promise.resolve(true);
  };
  /**
   * Removes a hand-added line; one added here and not yet sent is only taken back, and one whose add is already on its
   * way is removed as the line the service makes of it, once that answer is in.
   */
  const remove = async (item: ShoppingItem) => {
    const seq = waitingSeq(item);
    if (seq === null) return change({ kind: 'remove', itemId: item.id, displayName: item.displayName });
    if (await withdraw(seq)) return;
    const made = await answerTo(seq);
    if (made) return change({ kind: 'remove', itemId: made.id, displayName: made.displayName });
  };
  /** The changes the service refused after they had waited, for the list to say so; cleared by the next change. */
  const refusals = refused.value.filter((r) => r.change.householdId === householdId);
  // A refused change stops showing as made: the list as the service has it now (a line another member removed goes).
  useEffect(() => {
    if (refusals.length > 0) void refresh().catch(() => undefined);
  }, [refusals.length]);
  const generate = () => act.run(() => write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/generate', { params: { path } })));
  /** Closes the trip; `unticked` says what becomes of the lines still to buy (bought, kept for next week's list, dropped). */
  const complete = (unticked: 'bought' | 'keep' | 'drop') =>
    act.run(() => write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/complete', { params: { path, query: { unticked } } })));
  const reopen = () => act.run(() => write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/reopen', { params: { path } })));
  /** Puts a recipe's lines on the list (the AddRecipe part asks for it, and says how it went). */
  const addRecipe = (recipeId: string, portions: number | undefined) =>
    write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/recipe', { params: { path }, body: { recipeId, portions } }));

  return { list: shown, plan, planRead, recipes, error: act.error, busy: act.busy, statusOf, isWaiting: (i: ShoppingItem) => waitingSeq(i) !== null, refusals, tick, setAmount, add, remove, generate, complete, reopen, addRecipe };
}
