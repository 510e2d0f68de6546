import type { IsoDate } from '../shared/dates.js';

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

/** How far `timeZone` is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(timeZone: string, ms: number): number {
  const { date, time } = wallClockAt(timeZone, new Date(ms));
  const wall = Date.parse(`${date}T${time}:00Z`);
  const whole = ms - (((ms % 60_000) + 60_000) % 60_000);
  return wall - whole;
}

/**
 * The instant at which the wall clock of `timeZone` shows `time` on `date`: the earlier one in an autumn overlap;
 * in a spring-forward gap, as far past the gap as the time was into it.
 */
export function instantAt(timeZone: string, date: IsoDate, time: string): Date {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const before = offsetAt(timeZone, wall - 86_400_000);
  const after = offsetAt(timeZone, wall + 86_400_000);
  const fits = [wall - before, wall - after].filter((t) => t + offsetAt(timeZone, t) === wall);
  return new Date(fits.length > 0 ? Math.min(...fits) : wall - before);
}

/** Minutes since midnight of "HH:MM". */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
