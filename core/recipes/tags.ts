import { recipeTitleKey, type RecipeContent } from './types.js';

/**
 * A tag as a recipe keeps it and as it is matched: NFKC, trimmed, every run of white space one space, lower case
 * (locale-independent). Tags are kept in this one form rather than as typed, so "Fisk" and "fisk" are one tag with
 * one count in the household's filter chips, and an exact filter is a plain equality on both databases.
 */
export const recipeTag = (typed: string): string => typed.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();

/** The tags a recipe keeps of those written: each in tag form, blanks dropped, each once (its first place kept). */
export function recipeTagsOf(typed: readonly string[] | undefined): string[] {
  const kept: string[] = [];
  for (const t of typed ?? []) {
    const tag = recipeTag(t);
    if (tag !== '' && !kept.includes(tag)) kept.push(tag);
  }
  return kept;
}

/**
 * Text in the form search compares it: the title key (NFKC, lower case), every run of white space one space. Both
 * the stored search text and `q` are lower-cased here, in code, so matching needs no case folding by the database
 * (SQLite's LIKE folds ASCII only: "Ørret" would not be found by "ørret"; Postgres's LIKE folds nothing).
 */
export const recipeSearchKey = (text: string): string => recipeTitleKey(text).trim().replace(/\s+/gu, ' ');

/**
 * What `q` is looked for in: the title, every line's displayName and every tag, each in search form, one per line.
 * A key holds no line break, so a match never spans two of them.
 */
export const recipeSearchText = (c: Pick<RecipeContent, 'title' | 'ingredients' | 'tags'>): string =>
  [c.title, ...c.ingredients.map((i) => i.displayName), ...(c.tags ?? [])].map(recipeSearchKey).join('\n');
