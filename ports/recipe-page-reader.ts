import type { ExtractedRecipe } from './recipe-page.js';

/**
 * Why a recipe page gave no recipe. Each is the page's doing (or its server's), never ours: the HTTP layer answers
 * every one with a 4xx of its own code.
 */
export type RecipePageFailure =
  | 'forbidden-address' // the outbound guard refused the address or a redirect hop (loopback, private, odd port...)
  | 'unreachable' // no answer: name unknown, connection refused, a non-2xx status, too many redirects
  | 'timeout' // no whole answer within the budget (a page that trickles counts)
  | 'too-large' // over the byte cap, declared, streamed or decoded
  | 'not-html' // the answer is not an HTML page
  | 'no-recipe'; // an HTML page with no recipe on it

export type RecipePageRead =
  | { readonly ok: true; readonly recipe: ExtractedRecipe; readonly url: string | null }
  | { readonly ok: false; readonly reason: RecipePageFailure };

/** Reads the recipe on a web page: fetched from its address, or from the HTML a person saved. */
export interface RecipePageReader {
  /** Fetches `url` through the outbound guard (every redirect hop vetted, checked again at connect). */
  fromUrl(url: string): Promise<RecipePageRead>;
  /** The recipe in HTML the person sent (a page saved from behind a login); `url` resolves relative addresses. */
  fromHtml(html: string, url: string | null): Promise<RecipePageRead>;
}
