import { useEffect, useState } from 'preact/hooks';
import { api, call, type PantryRow } from '../api';
import { language, t } from '../i18n';
import { Page, Problem, SearchForm, useAction } from '../ui';

const PAGE = '50';

/** What the household has, as the service estimates it from what it saw (bought, used, counted), in its sections. */
export function Pantry({ householdId }: { householdId: string }) {
  const m = t.value;
  const [rows, setRows] = useState<PantryRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [q, setQ] = useState('');
  const [searched, setSearched] = useState('');
  const act = useAction();
  const fetchPage = (search: string, cursor: string | null) =>
    call(api.GET('/api/v1/households/{householdId}/inventory', { params: { path: { householdId }, query: { limit: PAGE, ...(search ? { q: search } : {}), ...(cursor ? { cursor } : {}) } } }));
  const search = (text: string) =>
    act.run(async () => {
      const page = await fetchPage(text.trim(), null);
      setRows(page.items);
      setNext(page.nextCursor);
      setTotal(page.total);
      setSearched(text.trim());
    });
  const more = () =>
    act.run(async () => {
      const page = await fetchPage(searched, next);
      setRows((r) => [...(r ?? []), ...page.items]);
      setNext(page.nextCursor);
    });
  useEffect(() => void search(''), [householdId]);
  const fmt = (n: number) => Number(n.toFixed(2)).toLocaleString(language.value === 'en' ? 'en-GB' : 'nb-NO');
  const date = (d: string) => new Intl.DateTimeFormat(language.value === 'en' ? 'en-GB' : 'nb-NO', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));
  const sections = new Map<string, PantryRow[]>();
  for (const r of rows ?? []) sections.set(r.group, [...(sections.get(r.group) ?? []), r]);
  return (
    <Page title={m.pantry}>
      <SearchForm id="f-pantry-q" label={m.searchPantry} button={m.search} value={q} onInput={setQ} onSearch={(text) => void search(text)} />
      <Problem error={act.error} />
      {rows === null ? (
        !act.error && <p>{m.loading}</p>
      ) : rows.length === 0 ? (
        <p>{searched ? m.pantryNoMatch : m.pantryEmpty}</p>
      ) : (
        <>
          <p class="muted" role="status">
            {m.pantryCount(total)}
          </p>
          {[...sections].map(([group, items]) => (
            <section key={group} aria-labelledby={`group-${group}`}>
              <h2 id={`group-${group}`}>{m.pantryGroup[group] ?? group}</h2>
              <ul class="items">
                {items.map((r) => (
                  <li key={r.foodKey}>
                    <span>
                      {r.displayName}{' '}
                      <span class="muted">
                        {fmt(r.estimatedQuantity)} {m.units[r.unit] ?? r.unit}
                      </span>
                      <span class="reason">
                        {m.place[r.storageLocation] ?? r.storageLocation}
                        {r.bestBefore && ` · ${m.bestBefore(date(r.bestBefore))}`}
                      </span>
                    </span>
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
    </Page>
  );
}
