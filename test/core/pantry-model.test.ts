import { expect } from 'chai';
import { aisleOf, bestBeforeEnds, compareRows, countsUntil, decayedConfidence, mergeTargets, pantryRowsOf } from '../../core/pantry/model.js';
import { mulberry32 } from '../../core/kernel/seeded.js';
import { LIVE_GROUPS, matchingRows, rowFilter, summaryOf } from '../../core/pantry/inventory.js';
import { INVENTORY_GROUPS, OBSERVATION_TYPES, STORAGE_LOCATIONS, type PantryObservation, type PantryRow } from '../../core/pantry/types.js';
import { milkBought } from '../support/pantry.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(NOW.getTime() - d * DAY);

let n = 0;
const obs = (over: Partial<PantryObservation> = {}): PantryObservation => milkBought(`obs-${++n}`, 'h', NOW, over);
const rowsOf = (log: PantryObservation[], merges: { fromKey: string; toKey: string }[] = [], now = NOW) => pantryRowsOf(log, merges, now);
const only = (log: PantryObservation[], now = NOW): PantryRow => {
  const rows = rowsOf(log, [], now);
  expect(rows).to.have.length(1);
  return rows[0]!;
};

describe('pantry model', () => {
  describe('quantity and unit', () => {
    it('a purchase without quantity counts one piece; purchases add up; a use subtracts', () => {
      expect(only([obs()])).to.deep.include({ estimatedQuantity: 1, unit: 'pcs', storageLocation: 'Unknown', lastEvidenceKind: 'Purchased', confidence: 1 });
      const log = [obs({ quantity: 2, unit: 'l', storageLocation: 'Fridge' }), obs({ quantity: 1.5, unit: 'L' }), obs({ observationType: 'Used', quantity: 0.5 })];
      // Units compare in any case; the latest unit sent is the row's.
      expect(only(log)).to.deep.include({ estimatedQuantity: 3, unit: 'L', storageLocation: 'Fridge', lastEvidenceKind: 'Used', confidence: 0.8 });
    });

    it('Seen and Estimated set the amount; without one they keep it (or say one)', () => {
      expect(only([obs({ quantity: 4 }), obs({ observationType: 'Seen', quantity: 2 })])).to.deep.include({ estimatedQuantity: 2, confidence: 0.9 });
      expect(only([obs({ quantity: 4 }), obs({ observationType: 'Estimated' })])).to.deep.include({ estimatedQuantity: 4, confidence: 0.6 });
      expect(only([obs({ observationType: 'Seen' })])).to.deep.include({ estimatedQuantity: 1 });
    });

    it('a purchase in another unit restarts the amount; a use in another unit keeps amount and unit at confidence 0.5', () => {
      expect(only([obs({ quantity: 500, unit: 'g' }), obs({ quantity: 2, unit: 'pcs' })])).to.deep.include({ estimatedQuantity: 2, unit: 'pcs' });
      expect(only([obs({ quantity: 500, unit: 'g' }), obs({ observationType: 'Used', quantity: 1, unit: 'pcs' })])).to.deep.include({
        estimatedQuantity: 500,
        unit: 'g',
        confidence: 0.5,
      });
    });

    it('Gone, or a use of everything, gives the empty row: 0, Low, Aged, no date asked', () => {
      const gone = only([obs({ quantity: 2, storageLocation: 'Fridge', displayName: 'Melk' }), obs({ observationType: 'Gone' })]);
      expect(gone).to.deep.equal({
        foodKey: 'melk',
        displayName: 'Melk',
        estimatedQuantity: 0,
        unit: 'pcs',
        confidence: 1,
        storageLocation: 'Fridge',
        usePriority: 'Low',
        lastEvidenceAt: NOW,
        aisle: 'Dairy',
        asksForDate: false,
        lastEvidenceKind: 'Gone',
        group: 'Aged',
        bestBefore: null,
      });
      expect(only([obs({ quantity: 1 }), obs({ observationType: 'Used', quantity: 3 })])).to.deep.include({ estimatedQuantity: 0, group: 'Aged', usePriority: 'Low' });
      // A purchase after Gone starts from nothing.
      expect(only([obs({ quantity: 5 }), obs({ observationType: 'Gone' }), obs({ quantity: 2 })])).to.deep.include({ estimatedQuantity: 2, group: 'LikelyAvailable' });
    });

    it('folds in log order as given: the same millisecond keeps the order written', () => {
      expect(only([obs({ quantity: 3 }), obs({ observationType: 'Gone' })]).estimatedQuantity).to.equal(0);
      expect(only([obs({ observationType: 'Gone' }), obs({ quantity: 3 })]).estimatedQuantity).to.equal(3);
    });
  });

  describe('confidence decay, priority and section', () => {
    it('halves per half-life of the place: Fridge 4 days, Unknown 10, Pantry 30, Freezer 90', () => {
      expect(decayedConfidence(1, 'Fridge', daysAgo(4), NOW)).to.equal(0.5);
      expect(decayedConfidence(1, 'Unknown', daysAgo(10), NOW)).to.equal(0.5);
      expect(decayedConfidence(1, 'Pantry', daysAgo(30), NOW)).to.equal(0.5);
      expect(decayedConfidence(1, 'Freezer', daysAgo(90), NOW)).to.equal(0.5);
      expect(decayedConfidence(0.8, 'Fridge', daysAgo(8), NOW)).to.equal(0.2);
      // Evidence from the future (clock skew) does not raise confidence above its own.
      expect(decayedConfidence(0.9, 'Fridge', new Date(NOW.getTime() + DAY), NOW)).to.equal(0.9);
    });

    it('moves a Fridge row LikelyAvailable → UseSoon (day 2) → Uncertain (after day 4) → Aged (after ~9.3 days)', () => {
      const log = [obs({ foodKey: 'kyllingfilet', storageLocation: 'Fridge', quantity: 400, unit: 'g', observedAt: NOW })];
      const at = (d: number) => only(log, new Date(NOW.getTime() + d * DAY));
      expect(at(1)).to.deep.include({ group: 'LikelyAvailable', usePriority: 'Normal', confidence: 0.841, aisle: 'Meat', asksForDate: true });
      expect(at(2)).to.deep.include({ group: 'UseSoon', usePriority: 'High', confidence: 0.707 });
      expect(at(4)).to.deep.include({ group: 'UseSoon', confidence: 0.5 });
      expect(at(5)).to.deep.include({ group: 'Uncertain', usePriority: 'High', confidence: 0.42, asksForDate: true });
      expect(at(9)).to.deep.include({ group: 'Uncertain', confidence: 0.21 });
      expect(at(10)).to.deep.include({ group: 'Aged', confidence: 0.177, asksForDate: false, estimatedQuantity: 400 });
    });

    it('the same age leaves a Freezer row LikelyAvailable at Low priority and a Pantry row Normal', () => {
      const freezer = only([obs({ foodKey: 'erter', storageLocation: 'Freezer', observedAt: daysAgo(30) })]);
      expect(freezer).to.deep.include({ group: 'LikelyAvailable', usePriority: 'Low', confidence: 0.794 });
      const pantry = only([obs({ foodKey: 'ris', storageLocation: 'Pantry', observedAt: daysAgo(10) })]);
      expect(pantry).to.deep.include({ group: 'LikelyAvailable', usePriority: 'Normal', confidence: 0.794, aisle: 'Dry', asksForDate: false });
      expect(only([obs({ foodKey: 'ris', storageLocation: 'Pantry', observedAt: daysAgo(31) })]).group).to.equal('Uncertain');
      expect(only([obs({ foodKey: 'ris', storageLocation: 'Pantry', observedAt: daysAgo(70) })]).group).to.equal('Aged');
    });

    it('new evidence restores confidence; a low-confidence estimate is Uncertain at once', () => {
      const old = obs({ storageLocation: 'Fridge', observedAt: daysAgo(12) });
      expect(only([old]).group).to.equal('Aged');
      expect(only([old, obs({ observationType: 'Seen', observedAt: daysAgo(1) })])).to.deep.include({ group: 'LikelyAvailable', lastEvidenceAt: daysAgo(1) });
      expect(only([obs({ observationType: 'Estimated', confidence: 0.3 })]).group).to.equal('Uncertain');
    });
  });

  describe('best-before dates', () => {
    // NOW is 2026-05-04T09:00Z: a date's day ends at midnight UTC after it.
    it('a perishable asks for a date until an observation gives one; the latest given stands until the row is emptied', () => {
      const meat = (over: Partial<PantryObservation> = {}) => obs({ foodKey: 'kjøttdeig', storageLocation: 'Fridge', ...over });
      expect(only([meat()])).to.deep.include({ asksForDate: true, bestBefore: null });
      expect(only([meat(), meat({ observationType: 'Seen', bestBefore: '2026-05-09' })])).to.deep.include({ asksForDate: false, bestBefore: '2026-05-09' });
      // A later observation without a date keeps it; one with a date replaces it.
      expect(only([meat({ bestBefore: '2026-05-09' }), meat({ observationType: 'Used', quantity: 0.5 })])).to.deep.include({ bestBefore: '2026-05-09', asksForDate: false });
      expect(only([meat({ bestBefore: '2026-05-09' }), meat({ bestBefore: '2026-05-12' })]).bestBefore).to.equal('2026-05-12');
      // Emptied, the row forgets it: the next purchase asks again.
      expect(only([meat({ bestBefore: '2026-05-09' }), meat({ observationType: 'Gone' })])).to.deep.include({ bestBefore: null, asksForDate: false, group: 'Aged' });
      expect(only([meat({ bestBefore: '2026-05-09' }), meat({ observationType: 'Gone' }), meat()])).to.deep.include({ bestBefore: null, asksForDate: true });
      // Dry goods never ask, but keep a date given.
      expect(only([obs({ foodKey: 'ris', storageLocation: 'Pantry', bestBefore: '2027-01-01' })])).to.deep.include({ asksForDate: false, bestBefore: '2027-01-01' });
    });

    it('is UseSoon from two days before the date, wherever it is kept; Normal before that', () => {
      const at = (bestBefore: string, storageLocation: PantryObservation['storageLocation'] = 'Pantry') => only([obs({ foodKey: 'yoghurt', storageLocation, bestBefore })]);
      expect(at('2026-05-08')).to.deep.include({ usePriority: 'Normal', group: 'LikelyAvailable' });
      // The 5th ends at 2026-05-06T00:00Z, 1.625 days from NOW; the 6th 2.625 days.
      expect(at('2026-05-06')).to.deep.include({ usePriority: 'Normal', group: 'LikelyAvailable' });
      expect(at('2026-05-05')).to.deep.include({ usePriority: 'High', group: 'UseSoon' });
      expect(at('2026-05-05', 'Freezer')).to.deep.include({ usePriority: 'High', group: 'UseSoon' });
      expect(at('2026-05-04')).to.deep.include({ usePriority: 'High', group: 'UseSoon', confidence: 1 });
    });

    it('past the date, confidence also halves every day: Uncertain after a day, Aged after a few', () => {
      // The 2nd ended at 2026-05-03T00:00Z, 1.375 days before NOW; bought NOW - 3 days in the Pantry (half-life 30).
      const row = only([obs({ foodKey: 'melk', storageLocation: 'Pantry', bestBefore: '2026-05-02', observedAt: daysAgo(3) })]);
      expect(row.confidence).to.equal(Math.round(0.5 ** (3 / 30) * 0.5 ** 1.375 * 1000) / 1000);
      expect(row.group).to.equal('Uncertain');
      expect(decayedConfidence(1, 'Pantry', daysAgo(3), NOW, '2026-04-29')).to.be.below(0.2);
      expect(only([obs({ foodKey: 'melk', storageLocation: 'Pantry', bestBefore: '2026-04-29', observedAt: daysAgo(10) })]).group).to.equal('Aged');
      expect(decayedConfidence(1, 'Pantry', daysAgo(3), NOW, null)).to.equal(decayedConfidence(1, 'Pantry', daysAgo(3), NOW));
    });

    it('countsUntil is never later than the moment the row stops counting: at most the date before it, the two decays after it', () => {
      for (const [bestBefore, location, boughtDaysAgo] of [
        ['2026-05-10', 'Pantry', 0],
        ['2026-05-10', 'Fridge', 1],
        ['2026-05-03', 'Pantry', 2],
        ['2026-05-04', 'Freezer', 5],
        [null, 'Pantry', 0],
      ] as const) {
        const log = [obs({ foodKey: 'kesam', storageLocation: location, bestBefore, observedAt: daysAgo(boughtDaysAgo) })];
        const row = only(log);
        const until = countsUntil(row, NOW)!;
        const label = `${bestBefore} ${location} ${boughtDaysAgo}`;
        expect(until.getTime(), label).to.be.at.least(NOW.getTime());
        if (bestBefore !== null && NOW.getTime() < bestBeforeEnds(bestBefore).getTime()) expect(until.getTime(), label).to.be.at.most(bestBeforeEnds(bestBefore).getTime());
        // The first moment (10-minute steps) at which the row no longer counts as likely there: until is not after it.
        let stops = NOW.getTime();
        while (['UseSoon', 'LikelyAvailable'].includes(only(log, new Date(stops)).group)) stops += 600_000;
        expect(until.getTime(), label).to.be.at.most(stops);
        // Early only by the rounding's margin, or by the date itself while it has not passed.
        if (bestBefore === null || NOW.getTime() >= bestBeforeEnds(bestBefore).getTime()) expect(stops - until.getTime(), label).to.be.below(DAY / 4);
      }
    });
  });

  describe('aisle and names', () => {
    it('reads the aisle from the food key by keywords, compounds included', () => {
      const cases: Record<string, string> = {
        kyllingfilet: 'Meat',
        lettmelk: 'Dairy',
        'norvegia-ost': 'Dairy',
        egg: 'Dairy',
        eggplant: 'Other',
        cherrytomat: 'Produce',
        grovbrød: 'Bakery',
        'frossen-pizza': 'Frozen',
        basmatiris: 'Dry',
        'ris': 'Dry',
        oppvaskmiddel: 'Other',
      };
      for (const [key, aisle] of Object.entries(cases)) expect(aisleOf(key), key).to.equal(aisle);
    });

    it('names the row by the latest name under its own key, then under merged keys, then by the key', () => {
      expect(only([obs({ displayName: 'Melk' }), obs({ displayName: null })]).displayName).to.equal('Melk');
      expect(only([obs({ foodKey: 'hel-melk' })]).displayName).to.equal('hel melk');
      const merged = rowsOf([obs({ foodKey: 'melk', displayName: 'Melk' }), obs({ foodKey: 'lettmelk', displayName: 'Lettmelk' })], [{ fromKey: 'lettmelk', toKey: 'melk' }]);
      expect(merged.map((r) => [r.foodKey, r.displayName, r.estimatedQuantity])).to.deep.equal([['melk', 'Melk', 2]]);
      const onlyMerged = rowsOf([obs({ foodKey: 'lettmelk', displayName: 'Lettmelk' })], [{ fromKey: 'lettmelk', toKey: 'melk' }]);
      expect(onlyMerged.map((r) => [r.foodKey, r.displayName])).to.deep.equal([['melk', 'Lettmelk']]);
    });
  });

  describe('merges', () => {
    it('folds a fromKey into its toKey in log order, follows chains and stops at a cycle', () => {
      const log = [obs({ foodKey: 'lettmelk', quantity: 2 }), obs({ foodKey: 'melk', observationType: 'Used', quantity: 1 }), obs({ foodKey: 'skummet-melk', quantity: 1 })];
      const rows = rowsOf(log, [
        { fromKey: 'lettmelk', toKey: 'melk' },
        { fromKey: 'skummet-melk', toKey: 'lettmelk' },
      ]);
      expect(rows.map((r) => [r.foodKey, r.estimatedQuantity, r.lastEvidenceKind])).to.deep.equal([['melk', 2, 'Purchased']]);
      const target = mergeTargets([
        { fromKey: 'a', toKey: 'b' },
        { fromKey: 'b', toKey: 'a' },
      ]);
      expect([target('a'), target('b'), target('c')]).to.deep.equal(['b', 'a', 'c']);
    });
  });

  describe('order and counts', () => {
    it('orders by section, then priority, then name in lower case, then key', () => {
      const log = [
        obs({ foodKey: 'b', displayName: 'b', storageLocation: 'Pantry' }),
        obs({ foodKey: 'a2', displayName: 'A', storageLocation: 'Pantry' }),
        obs({ foodKey: 'a1', displayName: 'a', storageLocation: 'Pantry' }),
        obs({ foodKey: 'frys', displayName: 'Aaa', storageLocation: 'Freezer' }),
        obs({ foodKey: 'ost', displayName: 'Zost', storageLocation: 'Fridge', observedAt: daysAgo(3) }),
        obs({ foodKey: 'tvil', displayName: 'Aa', observationType: 'Estimated', confidence: 0.3 }),
        obs({ foodKey: 'borte', displayName: 'A', observationType: 'Gone' }),
      ];
      expect(rowsOf(log).map((r) => r.foodKey)).to.deep.equal(['ost', 'a1', 'a2', 'b', 'frys', 'tvil', 'borte']);
    });

    it('q matches name or key in any case, or the key of q itself; place the location', () => {
      const [row] = rowsOf([obs({ foodKey: 'rødløk', displayName: 'Rødløk', storageLocation: 'Pantry' })]);
      const matches = (q: string | null, place: 'Pantry' | 'Fridge' | null = null) => rowFilter({ q, place })(row!);
      expect([matches('RØD'), matches('dløk'), matches('Løker'), matches('  '), matches(null, 'Pantry')]).to.deep.equal([true, true, true, true, true]);
      expect([matches('løkene'), matches('hvit'), matches(null, 'Fridge'), matches('rød', 'Fridge')]).to.deep.equal([false, false, false, false]);
    });

    describe('properties over seeded random logs', () => {
      const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const KEYS = ['melk', 'lettmelk', 'ost', 'ris', 'kyllingfilet', 'tomat', 'brød', 'erter', 'is', 'salt', 'eple', 'kaffe'];
      function randomLog(r: () => number): { log: PantryObservation[]; merges: { fromKey: string; toKey: string }[] } {
        const log = Array.from({ length: 1 + Math.floor(r() * 60) }, () =>
          obs({
            foodKey: pick(r, KEYS),
            displayName: r() < 0.5 ? null : pick(r, ['Melk', 'ost', 'Ris', 'Æble', 'tomat', 'ZZ']),
            observationType: pick(r, OBSERVATION_TYPES),
            quantity: r() < 0.3 ? null : Math.round(r() * 1000) / 10,
            unit: r() < 0.7 ? null : pick(r, ['g', 'pcs', 'l']),
            storageLocation: r() < 0.3 ? null : pick(r, STORAGE_LOCATIONS),
            confidence: r() < 0.5 ? null : r(),
            observedAt: daysAgo(Math.floor(r() * 400) / 4),
          }),
        ).sort((a, b) => a.observedAt.getTime() - b.observedAt.getTime());
        const merges = r() < 0.5 ? [{ fromKey: 'lettmelk', toKey: 'melk' }] : [];
        return { log, merges };
      }

      for (let seed = 1; seed <= 40; seed++) {
        it(`seed ${seed}: sorted unique rows; summary totals add up; pages partition the list`, () => {
          // A deterministic generator: the same seed, the same logs.
          const r = mulberry32(seed);
          const { log, merges } = randomLog(r);
          const rows = rowsOf(log, merges);
          expect(new Set(rows.map((x) => x.foodKey)).size).to.equal(rows.length);
          for (let i = 1; i < rows.length; i++) expect(compareRows(rows[i - 1]!, rows[i]!)).to.be.lessThan(0);
          for (const row of rows) {
            expect(row.confidence).to.be.within(0, 1);
            expect(row.estimatedQuantity).to.be.at.least(0);
            if (row.estimatedQuantity === 0) expect(row.group).to.equal('Aged');
          }
          // Determinism: the same log again gives the same rows.
          expect(rowsOf(log, merges)).to.deep.equal(rows);
          // Taking back one observation touches only its own row: every other row stays as it was.
          const cut = Math.floor(r() * log.length);
          const touched = mergeTargets(merges)(log[cut]!.foodKey);
          const others = (xs: PantryRow[]) => xs.filter((x) => x.foodKey !== touched);
          expect(others(rowsOf([...log.slice(0, cut), ...log.slice(cut + 1)], merges))).to.deep.equal(others(rows));

          const filter = { q: r() < 0.5 ? null : pick(r, ['m', 'OST', 'tomater', 'x']), place: r() < 0.5 ? null : pick(r, STORAGE_LOCATIONS) };
          const s = summaryOf(rows, filter);
          const sum = (c: object) => (Object.values(c) as number[]).reduce((a, b) => a + b, 0);
          expect(s.total).to.equal(sum(s.byGroup));
          const all = summaryOf(rows, { q: null, place: null });
          expect(s.byPlace).to.deep.equal(all.byPlace);
          expect(s.triage).to.equal(all.triage);
          expect(sum(all.byPlace)).to.equal(rows.filter((x) => x.group !== 'Aged').length);
          expect(sum(s.matchesByPlace)).to.equal(s.total - s.byGroup.aged);
          const listed = matchingRows(rows, { ...filter, group: null });
          expect(listed.length).to.equal(s.byGroup.useSoon + s.byGroup.likelyAvailable + s.byGroup.uncertain);
          expect(listed.every((x) => LIVE_GROUPS.includes(x.group))).to.equal(true);
          for (const g of INVENTORY_GROUPS) {
            const field = { UseSoon: 'useSoon', LikelyAvailable: 'likelyAvailable', Uncertain: 'uncertain', Aged: 'aged' } as const;
            expect(matchingRows(rows, { ...filter, group: g }).length).to.equal(s.byGroup[field[g]]);
          }
        });
      }
    });
  });
});
