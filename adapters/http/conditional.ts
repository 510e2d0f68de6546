/**
 * If-None-Match holds `etag` (RFC 9110 13.1.2, weak comparison: a W/ prefix on either side is ignored) or is `*`.
 * An absent header matches nothing. Routes decide with this rather than Koa's ctx.fresh, which answers "stale" to
 * any request carrying Cache-Control: no-cache, as fetch() sends with every conditional request.
 */
export function ifNoneMatchHolds(header: string, etag: string): boolean {
  // The common case, a client sending back the one tag it was given, without splitting the header.
  if (header === etag) return true;
  if (header.trim() === '') return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}
