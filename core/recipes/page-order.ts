import type { RecipePageQuery } from '../../ports/recipe-store.js';
import type { RecipeId } from './types.js';

/** Code point order, as SQLite (BINARY) and Postgres (COLLATE "C") compare the title key. */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** What a recipe page is chosen by: its order (title key, then id) and what the query's filters look at. */
export interface Pageable {
  readonly id: RecipeId;
  /** recipeTitleKey(title). */
  readonly titleKey: string;
  /** recipeSearchText of the recipe (title, lines' names, tags). */
  readonly searchText: string;
  readonly tags: readonly string[];
}

/** (title key, id) order: the order of every recipe page. */
export const pageOrder = (a: Pageable, b: Pageable): number => compareCodePoints(a.titleKey, b.titleKey) || compareCodePoints(a.id, b.id);

/**
 * The page RecipeStore.page answers for `query`, chosen from recipes already in pageOrder: those every filter holds
 * for, after the query's position, at most `limit`, with the number of every match and whether more follow.
 */
export function pageOfSorted<T extends Pageable>(sorted: readonly T[], query: RecipePageQuery): { items: T[]; total: number; more: boolean } {
  const { titleKeyContains, textContains = null, tag = null, after, limit } = query;
  const items: T[] = [];
  let total = 0;
  let more = false;
  for (const r of sorted) {
    if (titleKeyContains !== null && !r.titleKey.includes(titleKeyContains)) continue;
    if (textContains !== null && !r.searchText.includes(textContains)) continue;
    if (tag !== null && !r.tags.includes(tag)) continue;
    total++;
    if (after !== null) {
      const c = compareCodePoints(r.titleKey, after.titleKey);
      if (c < 0 || (c === 0 && compareCodePoints(r.id, after.id) <= 0)) continue;
    }
    if (items.length < limit) items.push(r);
    else more = true;
  }
  return { items, total, more };
}
