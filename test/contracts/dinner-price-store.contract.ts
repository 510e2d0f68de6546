import { expect } from 'chai';
import type { DinnerPriceMeasurement } from '../../core/dinnerprices/types.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at } from './fixtures.js';

export const measurement = (over: Partial<DinnerPriceMeasurement> = {}): DinnerPriceMeasurement => ({
  householdType: 'couple',
  week: '2026-W10',
  weekStart: '2026-03-02',
  seed: 4_294_967_295,
  recipeSetVersion: 'library-2026-03-01+sha256:ab12',
  pricesSyncedAt: at('2026-03-02T03:41:00.123Z'),
  recipesDrawn: 1000,
  weeksDrawn: 142,
  weeksPriced: 131,
  medianWeekPrice: 1234.56,
  coverage: 131 / 142,
  chains: 3,
  measuredAt: at('2026-03-02T04:00:00.456Z'),
  ...over,
});

export function dinnerPriceStoreContract(backend: Backend): void {
  storeSuite(backend, 'DinnerPriceStore', (s) => {
    it('round-trips a measurement: a uint32 seed, fractions, dates with milliseconds, and nulls', async () => {
      const m = measurement();
      expect(await s.dinnerPrices.recordMeasurement(m)).to.equal(true);
      expect(await s.dinnerPrices.measurementOf('couple', '2026-W10')).to.deep.equal(m);
      const empty = measurement({ householdType: 'single', seed: 0, pricesSyncedAt: null, weeksPriced: 0, medianWeekPrice: null, coverage: 0, chains: 0 });
      expect(await s.dinnerPrices.recordMeasurement(empty)).to.equal(true);
      expect(await s.dinnerPrices.measurementOf('single', '2026-W10')).to.deep.equal(empty);
      expect(await s.dinnerPrices.measurementOf('family', '2026-W10')).to.equal(null);
      expect(await s.dinnerPrices.measurementOf('couple', '2026-W11')).to.equal(null);
    });

    it('keeps the first measurement of a household type and week, also under concurrent writers', async () => {
      const first = measurement();
      expect(await s.dinnerPrices.recordMeasurement(first)).to.equal(true);
      expect(await s.dinnerPrices.recordMeasurement(measurement({ medianWeekPrice: 999, measuredAt: at('2026-03-03T04:00:00.000Z') }))).to.equal(false);
      expect(await s.dinnerPrices.measurementOf('couple', '2026-W10')).to.deep.equal(first);
      const racing = await Promise.all([1, 2, 3, 4].map((n) => s.dinnerPrices.recordMeasurement(measurement({ week: '2026-W11', weekStart: '2026-03-09', medianWeekPrice: n }))));
      expect(racing.filter(Boolean)).to.have.length(1);
      const kept = await s.dinnerPrices.measurementOf('couple', '2026-W11');
      expect(kept!.medianWeekPrice).to.equal(racing.indexOf(true) + 1);
    });

    it('lists the measurements of weeks starting before a day, by week start then household type', async () => {
      const rows = [
        measurement({ householdType: 'single', week: '2026-W14', weekStart: '2026-03-30' }),
        measurement({ householdType: 'family', week: '2026-W10', weekStart: '2026-03-02' }),
        measurement({ householdType: 'single', week: '2026-W10', weekStart: '2026-03-02' }),
        measurement({ householdType: 'couple', week: '2026-W14', weekStart: '2026-03-30' }),
        measurement({ householdType: 'couple', week: '2026-W15', weekStart: '2026-04-06' }),
      ];
      for (const r of rows) await s.dinnerPrices.recordMeasurement(r);
      const before = await s.dinnerPrices.measurementsBefore('2026-04-01');
      expect(before.map((m) => `${m.weekStart} ${m.householdType}`)).to.deep.equal([
        '2026-03-02 family',
        '2026-03-02 single',
        '2026-03-30 couple',
        '2026-03-30 single',
      ]);
      expect(before[0]).to.deep.equal(rows[1]);
      expect(await s.dinnerPrices.measurementsBefore('2026-03-02')).to.deep.equal([]);
    });

    it('stores the public files, replacing them whole', async () => {
      expect(await s.dinnerPrices.publication()).to.equal(null);
      const first = { generatedAt: at('2026-04-01T04:00:00.789Z'), json: '{"months":[]}', csv: 'month,householdType\r\n' };
      await s.dinnerPrices.savePublication(first);
      expect(await s.dinnerPrices.publication()).to.deep.equal(first);
      const second = { generatedAt: at('2026-05-01T04:00:00.001Z'), json: '{"months":[{"month":"2026-04","note":"æøå \\"q\\""}]}', csv: 'a,"b,""c"""\r\n1,2\r\n' };
      await s.dinnerPrices.savePublication(second);
      expect(await s.dinnerPrices.publication()).to.deep.equal(second);
    });
  });
}
