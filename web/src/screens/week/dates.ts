// Dates of the week (YYYY-MM-DD, no time zone: counted in UTC so that no clock change moves a day).
const iso = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (date: string, n: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000));
/** The Monday of the week holding a date (weeks start on Monday). */
export const mondayOf = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
/** Whole weeks from one date to a later one (15 days are 2 weeks): the week's own dates, no clock. */
export const weeksBetween = (from: string, to: string) => Math.floor((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (7 * 86_400_000));
