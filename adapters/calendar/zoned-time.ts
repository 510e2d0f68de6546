/** Wall-clock fields as an iCalendar time carries them (month 1-12). */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(zone)) {
    let f: Intl.DateTimeFormat | null = null;
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    // Bounded by the feed's own TZIDs but a hostile feed may invent many: keep the cache small.
    if (formatters.size > 500) formatters.clear();
    formatters.set(zone, f);
  }
  return formatters.get(zone) ?? null;
}

const zoneOfTzid = new Map<string, string | null>();

/**
 * The IANA zone a TZID names, or null. Old exporters prefix the IANA name with a vendor path
 * ("/mozilla.org/20050126_1/Europe/Oslo", "/freeassociation.sourceforge.net/Tzfile/Europe/Oslo"), so the
 * trailing two and three segments are tried too.
 */
export function ianaZone(tzid: string): string | null {
  if (!zoneOfTzid.has(tzid)) {
    const segments = tzid.split('/').filter(Boolean);
    const candidates = [tzid, segments.slice(-3).join('/'), segments.slice(-2).join('/')];
    if (zoneOfTzid.size > 500) zoneOfTzid.clear();
    zoneOfTzid.set(tzid, candidates.find((c) => c !== '' && formatterFor(c) !== null) ?? null);
  }
  return zoneOfTzid.get(tzid) ?? null;
}

// formatToParts is slow and one occurrence asks for the same few instants several times: remember them.
const offsets = new Map<string, number>();

function offsetMs(zone: string, instant: number): number {
  const second = Math.floor(instant / 1000) * 1000;
  const key = `${zone} ${second}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const f = formatterFor(zone);
  if (!f) return 0;
  const p = Object.fromEntries(f.formatToParts(second).map((x) => [x.type, Number(x.value)]));
  const offset = wallClockAsUtc({ year: p.year ?? 0, month: p.month ?? 1, day: p.day ?? 1, hour: p.hour ?? 0, minute: p.minute ?? 0, second: p.second ?? 0 }) - second;
  if (offsets.size > 20_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

export function wallClockAsUtc(t: WallClock): number {
  const ms = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  // Date.UTC reads years 0-99 as 1900-1999.
  return t.year >= 0 && t.year < 100 ? new Date(ms).setUTCFullYear(t.year) : ms;
}

/**
 * The instant a wall-clock time in an IANA zone names. A time skipped by a DST jump is read with the offset from
 * before the jump (RFC 5545 3.3.5: 02:30 on the spring-forward night is 03:30 summer time); a repeated time gets
 * the first of its two offsets.
 */
export function zonedToInstant(t: WallClock, zone: string): number {
  const local = wallClockAsUtc(t);
  const before = offsetMs(zone, local - 86_400_000);
  const after = offsetMs(zone, local + 86_400_000);
  const byBefore = local - before;
  if (before === after || offsetMs(zone, byBefore) === before) return byBefore;
  const byAfter = local - after;
  return offsetMs(zone, byAfter) === after ? byAfter : byBefore;
}
