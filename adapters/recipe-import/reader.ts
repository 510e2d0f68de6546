import type { RecipeImageFailure } from '../../ports/recipe-image.js';
import type { RecipePageFailure, RecipePageRead, RecipePageReader } from '../../ports/recipe-page-reader.js';
import { createOutboundGuard, type HostLookup } from '../outbound/guard.js';
import { OutboundFetchFailed, outboundFetch, type OutboundFailure } from '../outbound/http-get.js';
import { atFirstUse } from '../first-use.js';

export interface RecipePageReaderOptions {
  /** host:port pairs let through although loopback or private: tests only (OUTBOUND_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** The whole fetch, redirects included, first connect to last byte: a page that trickles stops here. */
  timeoutMs: number;
  /** Bytes of the page, counted after any gzip or brotli is undone. */
  maxBytes: number;
  /** Sent as User-Agent: sites refuse a fetch that does not say who it is. */
  userAgent: string;
  lookup?: HostLookup;
}

/** Who fetches: sites refuse a fetch that does not say, and an operator reading their logs finds the service. */
export const recipeFetchUserAgent = (publicBaseUrl: string, version: string): string => `Mozilla/5.0 (compatible; DinnerPlanner/${version}; +${publicBaseUrl})`;

/** A failed fetch of a page or a picture, as the ports name it: the guard's refusal apart, every answerless case is one. */
export const FETCH_FAILURES: Record<OutboundFailure, RecipePageFailure & RecipeImageFailure> = {
  'forbidden-address': 'forbidden-address',
  unresolvable: 'unreachable',
  'http-status': 'unreachable',
  network: 'unreachable',
  timeout: 'timeout',
  'too-large': 'too-large',
};

/** An HTML page by its declared type; with none declared, by how its text begins. */
function isHtml(contentType: string | null, body: Buffer): boolean {
  if (contentType !== null && contentType.trim() !== '') {
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    return type === 'text/html' || type === 'application/xhtml+xml';
  }
  const head = body.subarray(0, 512).toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<head') || head.startsWith('<!--');
}

/**
 * The page reader proper (parse5 and the readers of structured data and layout: some megabytes of an idle
 * server's memory, docs/performance.md), loaded at the first page read, not at start.
 */
const pageReading = atFirstUse(async () => {
  const [{ decodeHtml }, { extractRecipe }] = await Promise.all([import('./decode.js'), import('./extract.js')]);
  return { decodeHtml, extractRecipe };
});

async function read(html: string, url: string | null): Promise<RecipePageRead> {
  const recipe = (await pageReading()).extractRecipe(html, url);
  return recipe ? { ok: true, recipe, url } : { ok: false, reason: 'no-recipe' };
}

/** Fetches recipe pages through the same outbound guard as calendar feeds, and reads their recipe. */
export function createRecipePageReader(o: RecipePageReaderOptions): RecipePageReader {
  const guard = createOutboundGuard({ allowHosts: o.allowHosts, lookup: o.lookup, dnsTimeoutMs: o.timeoutMs });
  const fetchOptions = {
    timeoutMs: o.timeoutMs,
    maxBytes: o.maxBytes,
    maxRedirects: 5,
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
    userAgent: o.userAgent,
    decompress: true,
  };
  return {
    async fromUrl(url) {
      try {
        const answer = await outboundFetch(guard, url, fetchOptions);
        if (!isHtml(answer.contentType, answer.body)) return { ok: false, reason: 'not-html' };
        return await read((await pageReading()).decodeHtml(answer.body, answer.contentType), answer.url.href);
      } catch (e) {
        if (e instanceof OutboundFetchFailed) return { ok: false, reason: FETCH_FAILURES[e.reason] };
        throw e;
      }
    },
    fromHtml: read,
  };
}
