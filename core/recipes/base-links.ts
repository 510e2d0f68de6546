import type { RecipeId } from './types.js';

/**
 * True when `recipeId`, with the base links `links` (recipe → the bases its lines point at), reaches itself:
 * A→A, A→B→A, A→B→C→A. Shared by every store, which runs it where its write is atomic.
 */
export function reachesItself(recipeId: RecipeId, links: ReadonlyMap<RecipeId, readonly RecipeId[]>): boolean {
  const seen = new Set<RecipeId>();
  const pending = [...(links.get(recipeId) ?? [])];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next === recipeId) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(links.get(next) ?? []));
  }
  return false;
}
