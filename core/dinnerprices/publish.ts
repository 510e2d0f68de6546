import type { Clock } from '../../ports/clock.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';
import { dateIn } from '../kernel/dates.js';
import { DINNER_PRICE_TIME_ZONE } from './measure.js';
import { percentile, toOre, toShare } from './statistics.js';
import {
  DINNER_PRICE_SOURCE,
  DINNERS_PER_WEEK,
  HOUSEHOLD_TYPES,
  portionsOf,
  type DinnerPriceMeasurement,
  type DinnerPricePublication,
  type PublishedMonth,
} from './types.js';

const newest = (ms: readonly DinnerPriceMeasurement[]): DinnerPriceMeasurement =>
  ms.reduce((a, b) => (b.weekStart > a.weekStart || (b.weekStart === a.weekStart && b.measuredAt.getTime() > a.measuredAt.getTime()) ? b : a));

/**
 * The publication's rows, from the weekly measurements: one per household type and month that has ended before
 * `currentMonth` (`YYYY-MM`) and holds at least one measurement with a median. A measurement counts for the month
 * its week starts in. Per row: the median, p10 and p90 of the month's weekly medians (percentile()), the median
 * per portion (÷ 7 dinners ÷ the type's portions), coverage pooled over every measurement of the month
 * (Σ weeks priced ÷ Σ weeks drawn), chains the most any of them used, weeksMeasured the number of weekly medians.
 * Money is rounded to øre and shares to three decimals, after computing.
 */
export function publishedMonths(measurements: readonly DinnerPriceMeasurement[], currentMonth: string): PublishedMonth[] {
  const groups = new Map<string, DinnerPriceMeasurement[]>();
  for (const m of measurements) {
    const month = m.weekStart.slice(0, 7);
    if (month >= currentMonth) continue;
    const key = `${month}/${m.householdType}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const rows: PublishedMonth[] = [];
  for (const month of [...new Set([...groups.keys()].map((k) => k.slice(0, 7)))].sort()) {
    for (const { type } of HOUSEHOLD_TYPES) {
      const all = groups.get(`${month}/${type}`) ?? [];
      const medians = all.flatMap((m) => (m.medianWeekPrice === null ? [] : [m.medianWeekPrice]));
      if (medians.length === 0) continue;
      const mid = percentile(medians, 0.5)!;
      const drawn = all.reduce((n, m) => n + m.weeksDrawn, 0);
      const priced = all.reduce((n, m) => n + m.weeksPriced, 0);
      rows.push({
        month,
        householdType: type,
        medianWeekPrice: toOre(mid),
        p10WeekPrice: toOre(percentile(medians, 0.1)!),
        p90WeekPrice: toOre(percentile(medians, 0.9)!),
        pricePerPortion: toOre(mid / (DINNERS_PER_WEEK * portionsOf(type))),
        coverage: drawn === 0 ? 0 : toShare(priced / drawn),
        chains: Math.max(...all.map((m) => m.chains)),
        weeksMeasured: medians.length,
        recipeSetVersion: newest(all).recipeSetVersion,
      });
    }
  }
  return rows;
}

/** The DinnerPricesPublic document; recipeSetVersion is that of the newest published month (null with none). */
export function dinnerPricesJson(rows: readonly PublishedMonth[], generatedAt: Date | null): string {
  const last = rows.at(-1);
  return JSON.stringify({
    generatedAt: generatedAt === null ? null : generatedAt.toISOString(),
    currency: 'NOK',
    recipeSetVersion: last === undefined ? null : last.recipeSetVersion,
    months: rows.map(({ recipeSetVersion: _version, ...row }) => row),
  });
}

/** A published row as the JSON document carries it. */
export type PublicMonth = Omit<PublishedMonth, 'recipeSetVersion'>;

/** The rows of a stored JSON document (what dinnerPricesJson wrote): by month, then household type. */
export const publicMonthsOf = (json: string): PublicMonth[] => (JSON.parse(json) as { months: PublicMonth[] }).months;

export const CSV_HEADER = ['month', 'householdType', 'medianWeekPrice', 'p10WeekPrice', 'p90WeekPrice', 'pricePerPortion', 'coverage', 'chains', 'source', 'recipeSetVersion'] as const;

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled. */
const field = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The CSV file: header row, then one row per household type and month, CRLF after every record. */
export function dinnerPricesCsv(rows: readonly PublishedMonth[]): string {
  const money = (n: number) => n.toFixed(2);
  const records = [
    [...CSV_HEADER],
    ...rows.map((r) => [
      r.month,
      r.householdType,
      money(r.medianWeekPrice),
      money(r.p10WeekPrice),
      money(r.p90WeekPrice),
      money(r.pricePerPortion),
      String(r.coverage),
      String(r.chains),
      DINNER_PRICE_SOURCE,
      r.recipeSetVersion,
    ]),
  ];
  return records.map((r) => r.map(field).join(',') + '\r\n').join('');
}

export interface DinnerPricePublishDeps {
  readonly dinnerPrices: DinnerPriceStore;
  readonly clock: Clock;
}

/**
 * The publication (the scheduled job): builds both files from every month that has ended (Oslo calendar) and
 * stores them, but only when their figures changed, so generatedAt (and the files' ETag) moves only with them.
 * Idempotent: the job may run every day, and a month appears the first run after it ends.
 */
export async function publishDinnerPrices(deps: DinnerPricePublishDeps): Promise<{ changed: boolean; months: number }> {
  const now = deps.clock.now();
  const currentMonth = dateIn(DINNER_PRICE_TIME_ZONE, now).slice(0, 7);
  const rows = publishedMonths(await deps.dinnerPrices.measurementsBefore(`${currentMonth}-01`), currentMonth);
  const csv = dinnerPricesCsv(rows);
  const stored = await deps.dinnerPrices.publication();
  if (stored !== null && stored.csv === csv && stored.json === dinnerPricesJson(rows, stored.generatedAt)) return { changed: false, months: rows.length };
  await deps.dinnerPrices.savePublication({ generatedAt: now, json: dinnerPricesJson(rows, now), csv });
  return { changed: true, months: rows.length };
}

/** The files to serve: the stored ones, or before the first publication an empty document and the header row. */
export async function dinnerPriceFiles(deps: { readonly dinnerPrices: DinnerPriceStore }): Promise<DinnerPricePublication | { generatedAt: null; json: string; csv: string }> {
  return (await deps.dinnerPrices.publication()) ?? { generatedAt: null, json: dinnerPricesJson([], null), csv: dinnerPricesCsv([]) };
}
