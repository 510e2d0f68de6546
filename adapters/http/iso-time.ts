/**
 * `date.toISOString()`, made once for each millisecond: on Node 26 toISOString costs about half a microsecond, and
 * a busy server answers many GET /me (`serverNow`) in the same millisecond (W1). The text is toISOString's own, a
 * flat string: a text pieced together (the second's text with the milliseconds appended, as this did before) made
 * V8 leave JSON.stringify's fast path and serialize the whole answer again on its slow one, which cost more than
 * toISOString itself (docs/performance.md, "Issue 32, third part").
 */
let keptMs = Number.NaN;
let keptText = '';

export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (ms !== keptMs) {
    keptText = date.toISOString();
    keptMs = ms;
  }
  return keptText;
}
