import { instantOfWallTime, wallFieldsAsUtc } from '../../core/calendar/wall-clock.js';

/** Wall-clock fields as an iCalendar time carries them (month 1-12). */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const zones = new Map<string, boolean>();

/** Whether Intl knows `zone` as a time zone. Bounded: a feed's TZIDs are few, but a hostile feed may invent many. */
function isZone(zone: string): boolean {
  let known = zones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (zones.size > 500) zones.clear();
    zones.set(zone, known);
  }
  return known;
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
    zoneOfTzid.set(tzid, candidates.find((c) => c !== '' && isZone(c)) ?? null);
  }
  return zoneOfTzid.get(tzid) ?? null;
}

export const wallClockAsUtc = (t: WallClock): number => wallFieldsAsUtc(t.year, t.month, t.day, t.hour, t.minute, t.second);

/** The instant a wall-clock time in an IANA zone names (core/calendar/wall-clock.ts: gaps and overlaps as there). */
export const zonedToInstant = (t: WallClock, zone: string): number => instantOfWallTime(zone, wallClockAsUtc(t));
