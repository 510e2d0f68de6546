import { useLayoutEffect, useState } from 'preact/hooks';
import { api, dataOf, type Aisle } from '../../api';
import { useAction } from '../../ui';

/**
 * The order of the list's groups in the store the household shops at: learned by the service from the order of
 * ticks on finished trips, or set by hand here (docs/shopping-aisles.md). Until it is read, the list keeps the order
 * the service answered its lines in. `move` puts a group one place earlier or later and saves that order by hand.
 */
export function useAisleOrder(householdId: string) {
  const [order, setOrder] = useState<Aisle[] | null>(null);
  // Whether the first read is done (answered or failed): the list waits for it, so that it does not reorder itself
  // in the shopper's hand a moment after it shows.
  const [read, setRead] = useState(false);
  const action = useAction();
  const path = { householdId };
  // Read as the screen is made, beside the list, so that the list is shown in the store's order from its first paint.
  useLayoutEffect(() => {
    let gone = false;
    // Without the order the list still reads well (the default walk): a failure here says nothing.
    dataOf(api.GET('/api/v1/households/{householdId}/aisle-order', { params: { path } }))
      .then(
        (data) => !gone && setOrder(data.aisles.map((a) => a.aisle)),
        () => undefined,
      )
      .finally(() => !gone && setRead(true));
    return () => void (gone = true);
  }, [householdId]);
  const rank = (aisle: string) => {
    const at = order?.indexOf(aisle as Aisle) ?? -1;
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  const move = async (aisle: string, by: -1 | 1) => {
    if (!order) return;
    const from = order.indexOf(aisle as Aisle);
    const to = from + by;
    if (from < 0 || to < 0 || to >= order.length) return;
    const next = [...order];
    [next[from], next[to]] = [next[to]!, next[from]!];
    setOrder(next);
    const saved = await action.run(() => dataOf(api.PUT('/api/v1/households/{householdId}/aisle-order', { params: { path }, body: { aisles: next } })));
    setOrder(saved ? saved.aisles.map((a) => a.aisle) : order);
  };
  return { rank, move, read, error: action.error };
}
