import { useEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf, type Plan, type Recipe, type ShoppingItem, type ShoppingList } from '../../api';
import { changesOf, live, POLL_MS } from '../../live';
import { queueTick, waiting, whenTickSent } from '../../offline';
import { me } from '../../state';
import { useAction } from '../../ui';

type Answer<T> = Promise<{ data?: T; response: Response }>;

/**
 * The list's reads and the writes that answer it: every answer's ETag is kept, and reads go one at a time, each with
 * the ETag of the copy shown. `changed()` is called for every change made here (queued, answered, or a write's
 * answer): a read sent before the newest of them may be answered after it with the list as it was, so its answer is
 * not shown and the list is read once more.
 */
function useListReads(householdId: string, planId: string, setList: (l: ShoppingList) => void) {
  const path = { householdId, planId };
  const etag = useRef<string | null>(null);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  /** How many changes were made here: taken when a read is sent, compared when its answer comes. */
  const changes = useRef(0);
  const changed = () => void (changes.current += 1);

  /** An answer with the list (a refusal has been thrown as its problem by then): shown, and its ETag kept. */
  const write = async (request: Answer<ShoppingList>) => {
    const { data, response } = await request;
    changed();
    etag.current = response.headers.get('ETag') ?? etag.current;
    setList(data as ShoppingList);
  };
  const readOnce = async () => {
    const sentAt = changes.current;
    const { data, response } = await api.GET('/api/v1/households/{householdId}/plans/{planId}/shopping-list', { params: { path }, headers: etag.current ? { 'If-None-Match': etag.current } : {} });
    // A change made while the read was on its way: the answer may be older than what is shown, so it is read again.
    if (changes.current !== sentAt) {
      again.current = true;
      return;
    }
    // A 304: the copy shown is the list as it is.
    if (response.status === 304) return;
    etag.current = response.headers.get('ETag') ?? etag.current;
    setList(data as ShoppingList);
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
  const [recipes, setRecipes] = useState<Recipe[]>([]);
  const act = useAction();
  const path = { householdId, planId };
  const { etag, write, refresh, changed } = useListReads(householdId, planId, setList);

  useEffect(() => {
    etag.current = null;
    changed();
    setList(null);
    void act.run(async () => {
      const [, p] = await Promise.all([refresh(), dataOf(api.GET('/api/v1/households/{householdId}/plans/{planId}', { params: { path } }))]);
      setPlan(p);
      // The recipes to add come second: the list shows without waiting for them.
      setRecipes((await dataOf(api.GET('/api/v1/households/{householdId}/recipes', { params: { path: { householdId }, query: { limit: '100' } } }))).items);
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
  // The service's answer to a tick replaces the line before the tick stops waiting: no flicker.
  useEffect(
    () =>
      whenTickSent((sent, h) => {
        if (h !== householdId) return;
        changed();
        setList((l) => l && { ...l, items: l.items.map((i) => (i.id === sent.id ? sent : i)) });
      }),
    [householdId],
  );

  // A tick still waiting shows as made, whatever the list last read says.
  const waitingStatus = new Map(waiting.value.filter((w) => w.householdId === householdId).map((w) => [w.itemId, w.status]));
  const statusOf = (i: ShoppingItem) => waitingStatus.get(i.id) ?? i.status;

  /**
   * Ticks go through the offline queue: shown at once, sent in order, kept while there is no network. Once sent,
   * the list is read for its new ETag (so the stream's report of this tick is a 304); a tick the service refuses
   * (the line went, the trip closed) is taken back, with the list as it is now.
   */
  const tick = (item: ShoppingItem) =>
    act.run(async () => {
      const accountId = me.value?.user.id;
      if (!accountId) return;
      const status = statusOf(item) === 'Buy' ? 'Purchased' : 'Buy';
      changed();
      try {
        if ((await queueTick({ accountId, householdId, itemId: item.id, status })) === 'sent') await refresh().catch(() => undefined);
      } catch (err) {
        await refresh().catch(() => undefined);
        throw err;
      }
    });
  const add = (displayName: string) =>
    act.run(async () => {
      changed();
      await api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/items', { params: { path }, body: { displayName } });
      changed();
      await refresh();
      return true;
    });
  const remove = (item: ShoppingItem) =>
    act.run(async () => {
      changed();
      await api.DELETE('/api/v1/households/{householdId}/shopping-items/{itemId}', { params: { path: { householdId, itemId: item.id } } });
      changed();
      await refresh();
    });
  const generate = () => act.run(() => write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/generate', { params: { path } })));
  /** Closes the trip; `unticked` says what becomes of the lines still to buy (bought, kept for next week's list, dropped). */
  const complete = (unticked: 'bought' | 'keep' | 'drop') =>
    act.run(() => write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/complete', { params: { path, query: { unticked } } })));
  const reopen = () => act.run(() => write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/reopen', { params: { path } })));
  /** Puts a recipe's lines on the list (the AddRecipe part asks for it, and says how it went). */
  const addRecipe = (recipeId: string, portions: number | undefined) =>
    write(api.POST('/api/v1/households/{householdId}/plans/{planId}/shopping-list/recipe', { params: { path }, body: { recipeId, portions } }));

  return { list, plan, recipes, error: act.error, busy: act.busy, statusOf, tick, add, remove, generate, complete, reopen, addRecipe };
}
