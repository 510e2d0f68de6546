import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { PantryObservation } from '../../core/pantry/types.js';
import type { Backend, Stores } from './backends.js';
import { milkBought } from '../support/pantry.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

async function household(s: Stores): Promise<string> {
  const { id } = await ownedHousehold(s);
  return id;
}

const observation = (householdId: string, over: Partial<PantryObservation> = {}): PantryObservation =>
  milkBought(randomUUID(), householdId, at('2026-05-04T09:00:00.123Z'), over);

export function pantryObservationStoreContract(backend: Backend): void {
  storeSuite(backend, 'PantryObservationStore', (s) => {
    it('round-trips observations with every field set and every field null', async () => {
      const h = await household(s);
      const full = observation(h, {
        foodKey: 'hvitløk',
        displayName: 'Hvitløk (økologisk)',
        observationType: 'Estimated',
        quantity: 2.375,
        unit: 'fedd',
        storageLocation: 'Pantry',
        confidence: 0.625,
        bestBefore: '2026-05-12',
        observedAt: at('2026-05-04T09:00:00.001Z'),
      });
      const bare = observation(h, { observationType: 'Gone', observedAt: at('2026-05-04T09:00:00.002Z') });
      await s.pantry.add(full);
      await s.pantry.add(bare);
      expect(await s.pantry.ofHousehold(h)).to.deep.equal([full, bare]);
    });

    it('reads in log order: observedAt, then the order written within the same millisecond', async () => {
      const h = await household(s);
      const late = observation(h, { observedAt: at('2026-05-05T00:00:00.000Z') });
      const same = Array.from({ length: 5 }, (_, i) => observation(h, { foodKey: `k${i}` }));
      const early = observation(h, { observedAt: at('2026-05-01T00:00:00.000Z') });
      for (const o of [late, ...same, early]) await s.pantry.add(o);
      expect((await s.pantry.ofHousehold(h)).map((o) => o.id)).to.deep.equal([early, ...same, late].map((o) => o.id));
      expect((await s.pantry.ofFoods(h, ['k3', 'k1', 'none'])).map((o) => o.id)).to.deep.equal([same[1]!.id, same[3]!.id]);
      expect(await s.pantry.ofFoods(h, [])).to.deep.equal([]);
    });

    it('adds many at once as one after the other: the order given is the log order within a millisecond', async () => {
      const h = await household(s);
      const other = await household(s);
      // More than one INSERT's worth, half of them in one millisecond, the rest spread before and after it, across two households.
      const same = Array.from({ length: 150 }, (_, i) => observation(i % 3 === 0 ? other : h, { foodKey: `k${i}` }));
      const spread = Array.from({ length: 150 }, (_, i) => observation(h, { foodKey: `s${i}`, observedAt: at(`2026-05-0${1 + (i % 7)}T08:00:00.000Z`) }));
      const all = spread.flatMap((o, i) => [o, same[i]!]);
      await s.pantry.addAll(all);
      await s.pantry.addAll([]);
      const mine = all.filter((o) => o.householdId === h);
      const byTime = [...mine].sort((a, b) => a.observedAt.getTime() - b.observedAt.getTime());
      expect(await s.pantry.ofHousehold(h)).to.deep.equal(byTime);
      expect((await s.pantry.ofHousehold(other)).map((o) => o.id)).to.deep.equal(same.filter((o) => o.householdId === other).map((o) => o.id));
    });

    it('adds an observation and answers the listed foods\' observations with it, in log order', async () => {
      const h = await household(s);
      const other = await household(s);
      const early = observation(h, { foodKey: 'melk', observedAt: at('2026-05-04T08:00:00.000Z') });
      const merged = observation(h, { foodKey: 'lettmelk', observedAt: at('2026-05-04T10:00:00.000Z') });
      const unlisted = observation(h, { foodKey: 'brød' });
      for (const o of [early, merged, unlisted, observation(other, { foodKey: 'melk' })]) await s.pantry.add(o);
      // Written last but observed between the two: log order puts it in the middle.
      const added = observation(h, { foodKey: 'melk', quantity: 2, unit: 'l', observedAt: at('2026-05-04T09:00:00.000Z') });
      expect(await s.pantry.addToFoodLog(added, ['melk', 'lettmelk'])).to.deep.equal([early, added, merged]);
      // Added but not answered when its key is not listed, and added when none is.
      const bread = observation(h, { foodKey: 'brød', observedAt: at('2026-05-04T11:00:00.000Z') });
      expect(await s.pantry.addToFoodLog(bread, ['melk'])).to.deep.equal([early, added]);
      const egg = observation(h, { foodKey: 'egg' });
      expect(await s.pantry.addToFoodLog(egg, [])).to.deep.equal([]);
      expect((await s.pantry.ofHousehold(h)).map((o) => o.id)).to.include.members([added.id, bread.id, egg.id]);
      expect(await s.pantry.ofFoods(other, ['melk'])).to.have.length(1);
    });

    it('keeps households apart in every read and removal', async () => {
      const a = await household(s);
      const b = await household(s);
      const ofA = observation(a);
      const ofB = observation(b);
      await s.pantry.add(ofA);
      await s.pantry.add(ofB);
      expect(await s.pantry.ofHousehold(a)).to.deep.equal([ofA]);
      expect(await s.pantry.ofFoods(b, ['melk'])).to.deep.equal([ofB]);
      expect(await s.pantry.remove(a, ofB.id)).to.equal(false);
      expect(await s.pantry.removeOfFoods(a, null)).to.equal(1);
      expect(await s.pantry.ofHousehold(a)).to.deep.equal([]);
      expect(await s.pantry.ofHousehold(b)).to.deep.equal([ofB]);
    });

    it('removes one observation once; removes by food keys and counts what went', async () => {
      const h = await household(s);
      const log = ['melk', 'melk', 'ost', 'ris', 'egg'].map((foodKey) => observation(h, { foodKey }));
      for (const o of log) await s.pantry.add(o);
      expect(await s.pantry.remove(h, log[0]!.id)).to.equal(true);
      expect(await s.pantry.remove(h, log[0]!.id)).to.equal(false);
      expect(await s.pantry.remove(h, randomUUID())).to.equal(false);
      expect(await s.pantry.removeOfFoods(h, ['melk', 'ost', 'none'])).to.equal(2);
      expect(await s.pantry.removeOfFoods(h, [])).to.equal(0);
      expect((await s.pantry.ofHousehold(h)).map((o) => o.foodKey)).to.deep.equal(['ris', 'egg']);
      expect(await s.pantry.removeOfFoods(h, null)).to.equal(2);
      expect(await s.pantry.ofHousehold(h)).to.deep.equal([]);
    });

    it('removes by more food keys than one statement binds', async () => {
      const h = await household(s);
      const keys = Array.from({ length: 1100 }, (_, i) => `food-${i}`);
      for (const foodKey of keys.slice(0, 3)) await s.pantry.add(observation(h, { foodKey }));
      await s.pantry.add(observation(h, { foodKey: 'food-1099' }));
      expect((await s.pantry.ofFoods(h, keys)).length).to.equal(4);
      expect(await s.pantry.removeOfFoods(h, keys)).to.equal(4);
    });

    it("a household that goes takes its observations along", async () => {
      const h = await household(s);
      await s.pantry.add(observation(h));
      await s.households.delete(h);
      expect(await s.pantry.ofHousehold(h)).to.deep.equal([]);
    });
  });
}
