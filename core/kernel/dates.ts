/** Calendar dates as `YYYY-MM-DD` strings; arithmetic in UTC so that no time zone or DST shift can move a day. */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A real calendar date in `YYYY-MM-DD` form (2026-02-30 is not). */
export function isIsoDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

const toUtc = (date: IsoDate) => Date.parse(`${date}T00:00:00Z`);
const fromUtc = (ms: number): IsoDate => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: IsoDate, days: number): IsoDate => fromUtc(toUtc(date) + days * DAY_MS);

/** Whole days from `a` to `b` (negative when b is earlier). */
export const daysBetween = (a: IsoDate, b: IsoDate): number => Math.round((toUtc(b) - toUtc(a)) / DAY_MS);

/** The Monday of the week holding `date` (weeks start on Monday). */
export function weekStartOf(date: IsoDate): IsoDate {
  const weekday = new Date(toUtc(date)).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

/** The calendar date at `instant` in `timeZone` (an IANA id). */
export function dateIn(timeZone: string, instant: Date): IsoDate {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The seven dates of the week starting at `weekStart`. */
export const weekDates = (weekStart: IsoDate): IsoDate[] => Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
