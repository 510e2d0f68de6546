import { expect } from 'chai';
import type { PantryMerge, PantryMergeRejection, UnitWeight } from '../../core/pantry/types.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

async function household(s: Stores): Promise<string> {
  const { id } = await ownedHousehold(s, { plan: 'Plus', at: at('2026-02-01T12:00:00.500Z') });
  return id;
}

const merge = (householdId: string, fromKey: string, toKey: string, mergedAt = at('2026-05-04T09:00:00.123Z')): PantryMerge => ({
  householdId,
  fromKey,
  toKey,
  fromDisplayName: `${fromKey} (name)`,
  toDisplayName: `${toKey} (name)`,
  mergedAt,
});

const rejection = (householdId: string, keyA: string, keyB: string, decidedAt = at('2026-05-04T09:00:00.123Z')): PantryMergeRejection => ({
  householdId,
  keyA,
  keyB,
  keyADisplayName: keyA.toUpperCase(),
  keyBDisplayName: keyB.toUpperCase(),
  decidedAt,
});

export function pantryMergeStoreContract(backend: Backend): void {
  storeSuite(backend, 'PantryMergeStore', (s) => {
    it('round-trips a merge with its names and date, scoped to the household', async () => {
      const h = await household(s);
      const other = await household(s);
      const m = merge(h, 'cherrytomat', 'tomat');
      expect(await s.pantryMerges.merge(m)).to.equal('merged');
      expect(await s.pantryMerges.activeMerges(h)).to.deep.equal([m]);
      expect(await s.pantryMerges.mergeOf(h, 'cherrytomat')).to.deep.equal(m);
      expect(await s.pantryMerges.mergeOf(h, 'tomat')).to.equal(null);
      expect(await s.pantryMerges.activeMerges(other)).to.deep.equal([]);
      expect(await s.pantryMerges.mergeOf(other, 'cherrytomat')).to.equal(null);
    });

    it('writes the same merge twice as one row, and a new target replaces the old', async () => {
      const h = await household(s);
      await s.pantryMerges.merge(merge(h, 'cherrytomat', 'tomat'));
      await s.pantryMerges.merge(merge(h, 'cherrytomat', 'tomat'));
      expect(await s.pantryMerges.countMerges(h)).to.equal(1);
      const moved = merge(h, 'cherrytomat', 'plommetomat', at('2026-05-05T09:00:00.000Z'));
      await s.pantryMerges.merge(moved);
      expect(await s.pantryMerges.activeMerges(h)).to.deep.equal([moved]);
    });

    it('keeps merges one step deep: merges into the source follow it to the new target', async () => {
      const h = await household(s);
      await s.pantryMerges.merge(merge(h, 'a', 'b'));
      await s.pantryMerges.merge(merge(h, 'b', 'c'));
      const all = await s.pantryMerges.activeMerges(h);
      expect(all.map((m) => [m.fromKey, m.toKey, m.toDisplayName])).to.have.deep.members([
        ['a', 'c', 'c (name)'],
        ['b', 'c', 'c (name)'],
      ]);
    });

    it('refuses a merge into a key that is merged itself, writing nothing', async () => {
      const h = await household(s);
      await s.pantryMerges.merge(merge(h, 'b', 'c'));
      expect(await s.pantryMerges.merge(merge(h, 'a', 'b'))).to.equal('target-merged');
      expect(await s.pantryMerges.merge(merge(h, 'c', 'b'))).to.equal('target-merged');
      expect((await s.pantryMerges.activeMerges(h)).map((m) => m.fromKey)).to.deep.equal(['b']);
    });

    it('lets one of two mutual merges asked at once through', async () => {
      const h = await household(s);
      const answers = await Promise.all([s.pantryMerges.merge(merge(h, 'a', 'b')), s.pantryMerges.merge(merge(h, 'b', 'a'))]);
      expect(answers.slice().sort()).to.deep.equal(['merged', 'target-merged']);
      expect(await s.pantryMerges.countMerges(h)).to.equal(1);
    });

    it('removes the rejection of the pair when merging it', async () => {
      const h = await household(s);
      await s.pantryMerges.reject(rejection(h, 'cherrytomat', 'tomat'));
      await s.pantryMerges.reject(rejection(h, 'agurk', 'tomat'));
      await s.pantryMerges.merge(merge(h, 'tomat', 'cherrytomat'));
      expect((await s.pantryMerges.rejections(h)).map((r) => [r.keyA, r.keyB])).to.deep.equal([['agurk', 'tomat']]);
    });

    it('splits a merge into a remembered rejection with the merge names, sorted', async () => {
      const h = await household(s);
      await s.pantryMerges.merge(merge(h, 'tomat', 'cherrytomat'));
      const split = await s.pantryMerges.split(h, 'tomat', at('2026-05-06T10:00:00.456Z'));
      expect(split).to.deep.equal(merge(h, 'tomat', 'cherrytomat'));
      expect(await s.pantryMerges.activeMerges(h)).to.deep.equal([]);
      expect(await s.pantryMerges.rejections(h)).to.deep.equal([
        { householdId: h, keyA: 'cherrytomat', keyB: 'tomat', keyADisplayName: 'cherrytomat (name)', keyBDisplayName: 'tomat (name)', decidedAt: at('2026-05-06T10:00:00.456Z') },
      ]);
      expect(await s.pantryMerges.split(h, 'tomat', at('2026-05-06T10:00:00.456Z'))).to.equal(null);
    });

    it('splits only within the household', async () => {
      const h = await household(s);
      const other = await household(s);
      await s.pantryMerges.merge(merge(h, 'a', 'b'));
      expect(await s.pantryMerges.split(other, 'a', at('2026-05-06T10:00:00.000Z'))).to.equal(null);
      expect(await s.pantryMerges.countMerges(h)).to.equal(1);
    });

    it('stores a rejection once (the first date stays) and splits a merge standing directly between the pair', async () => {
      const h = await household(s);
      await s.pantryMerges.merge(merge(h, 'tomat', 'cherrytomat'));
      await s.pantryMerges.merge(merge(h, 'agurk', 'cherrytomat'));
      const first = rejection(h, 'cherrytomat', 'tomat', at('2026-05-04T09:00:00.000Z'));
      await s.pantryMerges.reject(first);
      await s.pantryMerges.reject(rejection(h, 'cherrytomat', 'tomat', at('2026-05-07T09:00:00.000Z')));
      expect(await s.pantryMerges.rejections(h)).to.deep.equal([first]);
      expect((await s.pantryMerges.activeMerges(h)).map((m) => m.fromKey)).to.deep.equal(['agurk']);
    });

    it('removes a rejection once, within the household only', async () => {
      const h = await household(s);
      const other = await household(s);
      await s.pantryMerges.reject(rejection(h, 'a', 'b'));
      expect(await s.pantryMerges.removeRejection(other, 'a', 'b')).to.equal(false);
      expect(await s.pantryMerges.removeRejection(h, 'a', 'b')).to.equal(true);
      expect(await s.pantryMerges.removeRejection(h, 'a', 'b')).to.equal(false);
      expect(await s.pantryMerges.countRejections(h)).to.equal(0);
    });

    it('pages merges by toKey, then newest first, then fromKey, and counts them', async () => {
      const h = await household(s);
      const other = await household(s);
      const early = at('2026-05-01T00:00:00.000Z');
      const late = at('2026-05-02T00:00:00.000Z');
      // Keys with '-' and æøå: the order is code-point order on every backend.
      const written = [
        merge(h, 'x1', 'tomat', early),
        merge(h, 'x2', 'tomat', late),
        merge(h, 'x0', 'tomat', early),
        merge(h, 'y', 'tomat-hakket', late),
        merge(h, 'z', 'tomatø', late),
        merge(h, 'w', 'løk', early),
      ];
      for (const m of written) await s.pantryMerges.merge(m);
      await s.pantryMerges.merge(merge(other, 'q', 'a'));
      const expected = [['løk', 'w'], ['tomat', 'x2'], ['tomat', 'x0'], ['tomat', 'x1'], ['tomat-hakket', 'y'], ['tomatø', 'z']];
      const keys = (ms: PantryMerge[]) => ms.map((m) => [m.toKey, m.fromKey]);
      expect(keys(await s.pantryMerges.pageMerges(h, { after: null, limit: 100 }))).to.deep.equal(expected);
      const first = await s.pantryMerges.pageMerges(h, { after: null, limit: 2 });
      const second = await s.pantryMerges.pageMerges(h, { after: first[1]!, limit: 2 });
      const third = await s.pantryMerges.pageMerges(h, { after: second[1]!, limit: 2 });
      expect([...keys(first), ...keys(second), ...keys(third)]).to.deep.equal(expected);
      expect(await s.pantryMerges.pageMerges(h, { after: third[1]!, limit: 2 })).to.deep.equal([]);
      expect(await s.pantryMerges.countMerges(h)).to.equal(6);
      expect(keys(await s.pantryMerges.activeMerges(h))).to.deep.equal(expected);
    });

    it('pages rejections newest first, then keyA, then keyB, and counts them', async () => {
      const h = await household(s);
      const early = at('2026-05-01T00:00:00.000Z');
      const late = at('2026-05-02T00:00:00.000Z');
      for (const r of [rejection(h, 'a', 'c', early), rejection(h, 'a', 'b', late), rejection(h, 'b', 'c', late), rejection(h, 'a', 'b-c', late), rejection(h, 'æ', 'ø', early)]) {
        await s.pantryMerges.reject(r);
      }
      const expected = [['a', 'b'], ['a', 'b-c'], ['b', 'c'], ['a', 'c'], ['æ', 'ø']];
      const keys = (rs: PantryMergeRejection[]) => rs.map((r) => [r.keyA, r.keyB]);
      expect(keys(await s.pantryMerges.rejections(h))).to.deep.equal(expected);
      const pages: string[][] = [];
      let after = null;
      for (let i = 0; i < 3; i += 1) {
        const p: PantryMergeRejection[] = await s.pantryMerges.pageRejections(h, { after, limit: 2 });
        pages.push(...keys(p));
        after = p[p.length - 1] ?? null;
      }
      expect(pages).to.deep.equal(expected);
      expect(await s.pantryMerges.countRejections(h)).to.equal(5);
    });
  });
}

export function unitWeightStoreContract(backend: Backend): void {
  storeSuite(backend, 'UnitWeightStore', (s) => {
    const weight = (householdId: string, foodKey: string, unit: string, grams: number, updatedAt = at('2026-05-04T09:00:00.123Z')): UnitWeight => ({
      householdId,
      foodKey,
      unit,
      displayName: `${foodKey}!`,
      grams,
      updatedAt,
    });

    it('round-trips a weight with fractional grams and its date, scoped to the household', async () => {
      const h = await household(s);
      const other = await household(s);
      const w = weight(h, 'løk', 'stk', 112.5);
      expect(await s.unitWeights.put(w)).to.deep.equal(w);
      expect(await s.unitWeights.get(h, 'løk', 'stk')).to.deep.equal(w);
      expect(await s.unitWeights.list(h, null)).to.deep.equal([w]);
      expect(await s.unitWeights.get(other, 'løk', 'stk')).to.equal(null);
      expect(await s.unitWeights.list(other, null)).to.deep.equal([]);
    });

    it('replaces the weight of a food and unit on a second put', async () => {
      const h = await household(s);
      await s.unitWeights.put(weight(h, 'løk', 'stk', 100));
      const later = weight(h, 'løk', 'stk', 120, at('2026-05-05T09:00:00.000Z'));
      await s.unitWeights.put(later);
      expect(await s.unitWeights.list(h, null)).to.deep.equal([later]);
    });

    it('leaves one row when several put one food and unit at once', async () => {
      const h = await household(s);
      await Promise.all([100, 110, 120, 130].map((g) => s.unitWeights.put(weight(h, 'løk', 'stk', g))));
      const listed = await s.unitWeights.list(h, null);
      expect(listed).to.have.length(1);
      expect([100, 110, 120, 130]).to.include(listed[0]!.grams);
    });

    it('lists by foodKey then unit, narrowed to one food when asked', async () => {
      const h = await household(s);
      for (const w of [weight(h, 'tomat', 'stk', 90), weight(h, 'løk', 'stk', 110), weight(h, 'tomat', 'boks', 400), weight(h, 'løk-rød', 'stk', 100)]) {
        await s.unitWeights.put(w);
      }
      expect((await s.unitWeights.list(h, null)).map((w) => [w.foodKey, w.unit])).to.deep.equal([
        ['løk', 'stk'],
        ['løk-rød', 'stk'],
        ['tomat', 'boks'],
        ['tomat', 'stk'],
      ]);
      expect((await s.unitWeights.list(h, 'tomat')).map((w) => w.unit)).to.deep.equal(['boks', 'stk']);
    });

    it('removes a weight once, within the household only', async () => {
      const h = await household(s);
      const other = await household(s);
      await s.unitWeights.put(weight(h, 'løk', 'stk', 110));
      expect(await s.unitWeights.remove(other, 'løk', 'stk')).to.equal(false);
      expect(await s.unitWeights.remove(h, 'løk', 'stk')).to.equal(true);
      expect(await s.unitWeights.remove(h, 'løk', 'stk')).to.equal(false);
      expect(await s.unitWeights.get(h, 'løk', 'stk')).to.equal(null);
    });
  });
}
