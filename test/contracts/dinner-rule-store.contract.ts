import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { DinnerRule, DinnerRuleSpec } from '../../core/plans/dinner-rules.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

export function dinnerRuleStoreContract(backend: Backend): void {
  storeSuite(backend, 'DinnerRuleStore', (s) => {
    const recipe = async (householdId: string, title: string) => {
      const id = randomUUID();
      await s.recipes.create(householdId, id, { title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null }, at('2026-11-20T00:00:00.000Z'));
      return id;
    };
    const rule = (householdId: string, spec: DinnerRuleSpec, when = '2026-11-21T10:00:00.123Z'): DinnerRule => ({ ...spec, id: randomUUID(), householdId, createdAt: at(when), updatedAt: at(when) });

    it('keeps each kind of rule as written, oldest first, and only for its household', async () => {
      const h = (await ownedHousehold(s)).id;
      const other = (await ownedHousehold(s)).id;
      const taco = await recipe(h, 'Taco');
      const rules = [
        rule(h, { kind: 'Spacing', days: 10, recipeId: null }, '2026-11-21T10:00:00.001Z'),
        rule(h, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco }, '2026-11-21T10:00:00.002Z'),
        rule(h, { kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 2 }, '2026-11-21T10:00:00.003Z'),
        rule(h, { kind: 'Spacing', days: 14, recipeId: taco }, '2026-11-21T10:00:00.004Z'),
      ];
      for (const r of [...rules].reverse()) expect(await s.dinnerRules.add(r, 20)).to.deep.equal(r);
      expect(await s.dinnerRules.list(h)).to.deep.equal(rules);
      expect(await s.dinnerRules.list(other)).to.deep.equal([]);
      // Another household can neither change nor remove them.
      expect(await s.dinnerRules.replace(other, rules[0]!.id, { kind: 'Spacing', days: 3, recipeId: null }, at('2026-11-22T00:00:00.000Z'))).to.equal(null);
      expect(await s.dinnerRules.remove(other, rules[0]!.id)).to.equal(false);
      expect(await s.dinnerRules.list(h)).to.deep.equal(rules);
    });

    it('holds one fixed dish per weekday and at most `max` rules', async () => {
      const h = (await ownedHousehold(s)).id;
      const taco = await recipe(h, 'Taco');
      const pizza = await recipe(h, 'Pizza');
      const friday = rule(h, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
      expect(await s.dinnerRules.add(friday, 3)).to.deep.equal(friday);
      expect(await s.dinnerRules.add(rule(h, { kind: 'FixedDish', weekday: 'Friday', recipeId: pizza }), 3)).to.deep.equal({ refused: 'dinner-rule-weekday-taken' });
      const saturday = rule(h, { kind: 'FixedDish', weekday: 'Saturday', recipeId: pizza }, '2026-11-21T10:00:01.000Z');
      expect(await s.dinnerRules.add(saturday, 3)).to.deep.equal(saturday);
      // Moving Saturday's dish onto Friday is refused as well, and changes nothing.
      expect(await s.dinnerRules.replace(h, saturday.id, { kind: 'FixedDish', weekday: 'Friday', recipeId: pizza }, at('2026-11-22T00:00:00.000Z'))).to.deep.equal({ refused: 'dinner-rule-weekday-taken' });
      expect(await s.dinnerRules.add(rule(h, { kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 1 }, '2026-11-21T10:00:02.000Z'), 3)).to.not.have.property('refused');
      expect(await s.dinnerRules.add(rule(h, { kind: 'TagPerWeek', tag: 'suppe', timesPerWeek: 1 }), 3)).to.deep.equal({ refused: 'dinner-rule-limit' });
      expect((await s.dinnerRules.list(h)).map((r) => r.kind)).to.deep.equal(['FixedDish', 'FixedDish', 'TagPerWeek']);
    });

    it('writes a rule anew, of another kind too, keeping its id and createdAt; removes it', async () => {
      const h = (await ownedHousehold(s)).id;
      const taco = await recipe(h, 'Taco');
      const first = rule(h, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
      await s.dinnerRules.add(first, 20);
      const later = at('2026-11-23T08:00:00.456Z');
      const changed = await s.dinnerRules.replace(h, first.id, { kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 3 }, later);
      expect(changed).to.deep.equal({ kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 3, id: first.id, householdId: h, createdAt: first.createdAt, updatedAt: later });
      // The weekday is free again.
      expect(await s.dinnerRules.add(rule(h, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco }, '2026-11-23T09:00:00.000Z'), 20)).to.not.have.property('refused');
      expect(await s.dinnerRules.replace(h, randomUUID(), { kind: 'Spacing', days: 3, recipeId: null }, later)).to.equal(null);
      expect(await s.dinnerRules.remove(h, first.id)).to.equal(true);
      expect(await s.dinnerRules.remove(h, first.id)).to.equal(false);
      expect((await s.dinnerRules.list(h)).map((r) => r.kind)).to.deep.equal(['FixedDish']);
    });

    it('a rule naming a recipe goes with the recipe; the others stay', async () => {
      const h = (await ownedHousehold(s)).id;
      const taco = await recipe(h, 'Taco');
      const keep = rule(h, { kind: 'Spacing', days: 7, recipeId: null });
      await s.dinnerRules.add(rule(h, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco }), 20);
      await s.dinnerRules.add(rule(h, { kind: 'Spacing', days: 7, recipeId: taco }), 20);
      await s.dinnerRules.add(keep, 20);
      expect(await s.recipes.delete(h, taco, at('2026-11-24T00:00:00.000Z'))).to.equal(true);
      expect(await s.dinnerRules.list(h)).to.deep.equal([keep]);
    });

    it('the rules go with the household', async () => {
      const h = await ownedHousehold(s);
      await s.dinnerRules.add(rule(h.id, { kind: 'Spacing', days: 7, recipeId: null }), 20);
      await s.households.delete(h.id);
      expect(await s.dinnerRules.list(h.id)).to.deep.equal([]);
    });
  });
}
