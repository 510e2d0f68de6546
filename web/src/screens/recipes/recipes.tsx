import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type RecipeSummary } from '../../api';
import { t } from '../../i18n';
import { Page, Problem, SearchForm, useAction } from '../../ui';
import { photoSrc } from '../recipe/photo-upload';
import { ImportFromAddress, ImportFromPicture, ImportFromText, useImportChoices } from './import-recipe';

type TagCount = { readonly tag: string; readonly count: number };

/**
 * The household's recipes with search (title, ingredient or tag) and its tags as filter chips; each recipe opens to
 * be read or edited, and adults start a new one.
 */
export function Recipes({ householdId, role }: { householdId: string; role: string }) {
  const m = t.value;
  const [items, setItems] = useState<RecipeSummary[] | null>(null);
  // A household of years has thousands: a page at a time, the next when asked for.
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [q, setQ] = useState('');
  const [searched, setSearched] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [tags, setTags] = useState<readonly TagCount[]>([]);
  const load = useAction();
  const read = (search: string, withTag: string | null, cursor: string | null) => {
    const query = { limit: '100', ...(search ? { q: search } : {}), ...(withTag ? { tag: withTag } : {}), ...(cursor ? { cursor } : {}) };
    return dataOf(api.GET('/api/v1/households/{householdId}/recipe-summaries', { params: { path: { householdId }, query } }));
  };
  const refresh = (search: string, withTag: string | null) =>
    load.run(async () => {
      const page = await read(search.trim(), withTag, null);
      setItems(page.items);
      setNext(page.nextCursor);
      setTotal(page.total);
      setSearched(search.trim());
      setTag(withTag);
    });
  const more = () =>
    load.run(async () => {
      if (next === null) return;
      const page = await read(searched, tag, next);
      setItems((shown) => [...(shown ?? []), ...page.items]);
      setNext(page.nextCursor);
      setTotal(page.total);
    });
  useEffect(() => {
    void refresh('', null);
    // The chips are a help, not the list: without them (offline, say) the list and search still work.
    api
      .GET('/api/v1/households/{householdId}/recipe-tags', { params: { path: { householdId }, query: { limit: '30' } } })
      .then((res) => setTags(res.data?.items ?? []))
      .catch(() => setTags([]));
  }, [householdId]);
  const choices = useImportChoices(householdId);
  const pictured = items?.some((r) => r.image !== null) ?? false;
  return (
    <Page title={m.recipes}>
      {role !== 'Junior' && (
        <>
          <p>
            <a class="button" href="/recipes/new">
              {m.newRecipe}
            </a>
          </p>
          <ImportFromAddress householdId={householdId} />
          <ImportFromText householdId={householdId} />
          {choices?.picture && <ImportFromPicture householdId={householdId} picture={choices.picture} />}
        </>
      )}
      <SearchForm id="f-q" label={m.searchRecipes} button={m.search} value={q} onInput={setQ} onSearch={(text) => void refresh(text, tag)} />
      {tags.length > 0 && (
        <div class="tag-filter" role="group" aria-label={m.filterByTag}>
          {tags.map((x) => (
            <button key={x.tag} type="button" class="tag-chip" aria-pressed={tag === x.tag} onClick={() => void refresh(q, tag === x.tag ? null : x.tag)}>
              {x.tag} <span class="tag-count">{x.count}</span>
            </button>
          ))}
        </div>
      )}
      <Problem error={load.error} />
      {items === null ? (
        !load.error && <p>{m.loading}</p>
      ) : items.length === 0 ? (
        <p>{searched || tag ? m.noMatch : m.noRecipes}</p>
      ) : (
        <>
          <p class="muted" role="status">
            {m.recipeCount(total)}
          </p>
          <ul class="cards">
            {items.map((r) => (
              <li key={r.id} class={pictured ? 'recipe-card' : undefined}>
                {/* The title beside it says what it shows: alt is empty. Where no recipe shown has one, none is left room for. */}
                {r.image ? <img src={photoSrc(r.image)} alt="" width={64} height={64} loading="lazy" decoding="async" /> : pictured && <span class="thumb-none" aria-hidden="true" />}
                <div>
                  <a href={`/recipes/${r.id}`} class="card-link">
                    <strong>{r.title}</strong>
                  </a>{' '}
                  <span class="muted">
                    {m.portions(r.servings)}
                    {r.totalMinutes !== null && ` · ${m.minutes(r.totalMinutes)}`}
                  </span>
                  <div class="muted">{r.ingredientNames.join(', ')}</div>
                  {r.tags.length > 0 && <div class="card-tags">{r.tags.map((x) => `#${x}`).join(' ')}</div>}
                </div>
              </li>
            ))}
          </ul>
          {next && (
            <button type="button" class="secondary" disabled={load.busy} onClick={() => void more()}>
              {m.showMore}
            </button>
          )}
        </>
      )}
    </Page>
  );
}
