import type { Pageable } from '../../../core/recipes/page-order.js';
import type { RecipeSummary } from '../../../core/recipes/types.js';

/** How many recipes (all households together) a process keeps as summaries between reads. */
const KEPT_RECIPES = 20_000;

/** A recipe as kept for lists: what its page is chosen by, and its summary. */
export interface KeptRecipe extends Pageable {
  readonly summary: RecipeSummary;
}

/**
 * A household's recipes as lists show them, kept in the process under the household's revision as they were read
 * with, in page order (core/recipes/page-order.ts). Every write to a recipe, its lines, tags or picture moves the
 * revision (migration 0016's triggers; the picture store moves it itself), so a read that finds the revision unchanged
 * answers from here: a search of a household of thousands of recipes then reads one row (W10, docs/performance.md).
 * At most KEPT_RECIPES recipes in all; the household read longest ago goes first.
 */
export interface RecipeSummaries {
  held(household: string, version: string): readonly KeptRecipe[] | undefined;
  /** Keeps `recipes` (in page order) as read at `version` (null: no such household, nothing kept) and answers them frozen. */
  keep(household: string, version: string | null, recipes: KeptRecipe[]): readonly KeptRecipe[];
}

export function recipeSummaries(): RecipeSummaries {
  const kept = new Map<string, { version: string; recipes: readonly KeptRecipe[] }>();
  let count = 0;
  const forget = (household: string) => {
    const old = kept.get(household);
    if (!old) return;
    kept.delete(household);
    count -= old.recipes.length;
  };
  return {
    held(household, version) {
      const entry = kept.get(household);
      if (entry?.version !== version) return undefined;
      // Used now: it goes last in the order of forgetting.
      kept.delete(household);
      kept.set(household, entry);
      return entry.recipes;
    },
    keep(household, version, recipes) {
      const frozen = Object.freeze(recipes.map((r) => Object.freeze(r)));
      forget(household);
      if (version === null || frozen.length > KEPT_RECIPES) return frozen;
      kept.set(household, { version, recipes: frozen });
      count += frozen.length;
      while (count > KEPT_RECIPES) forget(kept.keys().next().value!);
      return frozen;
    },
  };
}

/** With the speed layer off: nothing kept. */
export const noRecipeSummaries: RecipeSummaries = {
  held: () => undefined,
  keep: (_household, _version, recipes) => Object.freeze(recipes.map((r) => Object.freeze(r))),
};
