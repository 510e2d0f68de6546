import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type PantryRow } from '../../api';
import { useAction } from '../../ui';
import type { PLACES } from './pantry-tools';

const PAGE = '50';
export const GROUPS = ['UseSoon', 'LikelyAvailable', 'Uncertain', 'Aged'] as const;
export type Place = (typeof PLACES)[number];
export type Group = (typeof GROUPS)[number];
type Where = { place: Place | ''; group: Group | '' };

/**
 * The pantry as the service estimates it, a page at a time: the words searched for, the place and the group picked,
 * and the rows read so far in the service's sections. `reread` reads it again after a change.
 */
export function usePantry(householdId: string) {
  const [rows, setRows] = useState<PantryRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [searched, setSearched] = useState('');
  const [where, setWhere] = useState<Where>({ place: '', group: '' });
  const act = useAction();
  const fetchPage = (text: string, cursor: string | null, w: Where) =>
    dataOf(
      api.GET('/api/v1/households/{householdId}/inventory', {
        params: {
          path: { householdId },
          query: { limit: PAGE, ...(text ? { q: text } : {}), ...(cursor ? { cursor } : {}), ...(w.place ? { place: w.place } : {}), ...(w.group ? { group: w.group } : {}) },
        },
      }),
    );
  const search = (text: string, w = where) =>
    act.run(async () => {
      const page = await fetchPage(text.trim(), null, w);
      setRows(page.items);
      setNext(page.nextCursor);
      setTotal(page.total);
      setSearched(text.trim());
    });
  const more = () =>
    act.run(async () => {
      const page = await fetchPage(searched, next, where);
      setRows((r) => [...(r ?? []), ...page.items]);
      setNext(page.nextCursor);
    });
  /** Picks a place or a group: the rows are read again with the words already searched for. */
  const filter = (patch: Partial<Where>) => {
    const w = { ...where, ...patch };
    setWhere(w);
    void search(searched, w);
  };
  useEffect(() => void search(''), [householdId]);

  const sections = new Map<string, PantryRow[]>();
  for (const r of rows ?? []) sections.set(r.group, [...(sections.get(r.group) ?? []), r]);
  return { rows, sections, total, next, searched, where, act, search, more, filter, reread: () => void search(searched) };
}
