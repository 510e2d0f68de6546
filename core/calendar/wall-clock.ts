import type { IsoDate } from '../kernel/dates.js';

const formats = new Map<string, Intl.DateTimeFormat>();
// A formatter per zone, made once: building one costs more than formatting with it.
const formatOf = (timeZone: string): Intl.DateTimeFormat => {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, f);
  }
  return f;
};

/** Date and "HH:MM" the wall clock of `timeZone` shows at `instant` (seconds dropped). */
export function wallClockAt(timeZone: string, instant: Date): { date: IsoDate; time: string } {
  const parts = formatOf(timeZone).formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

/** Wall-clock fields (month 1-12) read as if they were UTC, in ms; years 0-99 as written (Date.UTC reads them as 19xx). */
export function wallFieldsAsUtc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return year >= 0 && year < 100 ? new Date(ms).setUTCFullYear(year) : ms;
}

const secondFormats = new Map<string, Intl.DateTimeFormat>();
// formatToParts is slow and one time asks for the same few instants several times (an iCalendar feed's
// occurrences, the days of a calendar): remember them, within bounds.
const offsets = new Map<string, number>();

/** How far `timeZone` (an IANA name; RangeError otherwise) is ahead of UTC at `ms`, in milliseconds, to the second. */
function offsetAt(timeZone: string, ms: number): number {
  const second = Math.floor(ms / 1000) * 1000;
  const key = `${timeZone} ${second}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  let f = secondFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    secondFormats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(second).map((x) => [x.type, Number(x.value)]));
  const offset = wallFieldsAsUtc(p['year'] ?? 0, p['month'] ?? 1, p['day'] ?? 1, p['hour'] ?? 0, p['minute'] ?? 0, p['second'] ?? 0) - second;
  if (offsets.size > 20_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/**
 * The instant (ms) at which the wall clock of `timeZone` shows `local` (the wall time read as if UTC, ms): the
 * earlier one in an autumn overlap; in a spring-forward gap, as far past the gap as the time was into it, that is
 * read with the offset from before the jump (as RFC 5545 3.3.5 has it: 02:30 on the spring-forward night is 03:30
 * summer time).
 */
export function instantOfWallTime(timeZone: string, local: number): number {
  const before = offsetAt(timeZone, local - 86_400_000);
  const after = offsetAt(timeZone, local + 86_400_000);
  const byBefore = local - before;
  if (before === after || offsetAt(timeZone, byBefore) === before) return byBefore;
  const byAfter = local - after;
  return offsetAt(timeZone, byAfter) === after ? byAfter : byBefore;
}

/** The instant at which the wall clock of `timeZone` shows `time` ("HH:MM") on `date` (rules of instantOfWallTime). */
export function instantAt(timeZone: string, date: IsoDate, time: string): Date {
  return new Date(instantOfWallTime(timeZone, Date.parse(`${date}T${time}:00Z`)));
}

/** Minutes since midnight of "HH:MM". */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
