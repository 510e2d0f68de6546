import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

async function household(s: Stores) {
  const { id } = await ownedHousehold(s);
  return id;
}

const fresh = () => ({ planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-11-20T10:00:00.500Z') });

export function planStoreContract(backend: Backend): void {
  storeSuite(backend, 'PlanStore', (s) => {
    it('makes a week\'s plan with its seven days once, and round-trips it', async () => {
      const h = await household(s);
      const f = fresh();
      const plan = await s.plans.getOrCreate(h, '2026-11-23', f);
      expect(plan).to.deep.equal({
        id: f.planId,
        householdId: h,
        weekStart: '2026-11-23',
        createdAt: f.at,
        updatedAt: f.at,
        days: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'].map((date, i) => ({ id: f.dayIds[i], date, recipeId: null, portionsOverride: null, note: null, leftoversOf: null })),
      });
      expect(await s.plans.getOrCreate(h, '2026-11-23', fresh())).to.deep.equal(plan);
      expect(await s.plans.byId(h, f.planId)).to.deep.equal(plan);
      expect(await s.plans.byWeek(h, '2026-11-23')).to.deep.equal(plan);
    });

    it('gives concurrent get-or-create calls the same plan', async () => {
      const h = await household(s);
      const plans = await Promise.all(Array.from({ length: 4 }, () => s.plans.getOrCreate(h, '2026-11-30', fresh())));
      expect(new Set(plans.map((p) => p.id)).size).to.equal(1);
      expect(plans[0]!.days).to.have.length(7);
    });

    it('scopes plans by household', async () => {
      const h = await household(s);
      const other = await household(s);
      const plan = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      expect(await s.plans.byId(other, plan.id)).to.equal(null);
      expect(await s.plans.setDay(other, plan.id, '2026-11-24', { recipeId: null, portionsOverride: 4, note: null }, at('2026-11-21T00:00:00.000Z'))).to.equal(null);
      expect(await s.plans.weeksBetween(other, '2026-11-01', '2026-12-31')).to.deep.equal([]);
    });

    it('sets a day and lists weeks in a range, in week order', async () => {
      const h = await household(s);
      const later = await s.plans.getOrCreate(h, '2026-12-07', fresh());
      const first = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      await s.plans.getOrCreate(h, '2027-01-04', fresh());
      const day = await s.plans.setDay(h, first.id, '2026-11-25', { recipeId: null, portionsOverride: 6, note: 'Bursdag' }, at('2026-11-21T08:00:00.000Z'));
      expect(day).to.deep.equal({ id: first.days[2]!.id, date: '2026-11-25', recipeId: null, portionsOverride: 6, note: 'Bursdag', leftoversOf: null });
      expect(await s.plans.setDay(h, first.id, '2026-12-01', { recipeId: null, portionsOverride: null, note: null }, at('2026-11-21T08:00:00.000Z'))).to.equal(null);
      const weeks = await s.plans.weeksBetween(h, '2026-11-23', '2026-12-07');
      expect(weeks.map((w) => w.id)).to.deep.equal([first.id, later.id]);
      expect(weeks[0]!.days[2]).to.deep.equal(day);
      expect(weeks[0]!.updatedAt).to.deep.equal(at('2026-11-21T08:00:00.000Z'));
    });

    it('sets several dishes in one write with its push, keeping each day\'s portions and note', async () => {
      const { id: h, owner } = await ownedHousehold(s);
      const plan = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      const recipe = async (title: string) => {
        const id = randomUUID();
        await s.recipes.create(h, id, { title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null }, at('2026-11-20T00:00:00.000Z'));
        return id;
      };
      const [soup, fish] = [await recipe('Suppe'), await recipe('Fisk')];
      await s.plans.setDay(h, plan.id, '2026-11-24', { recipeId: null, portionsOverride: 6, note: 'Bursdag' }, at('2026-11-21T00:00:00.000Z'));
      const push = { id: randomUUID(), householdId: h, createdAt: at('2026-11-22T10:00:00.250Z'), event: { kind: 'week-planned' as const, planId: plan.id, weekStart: '2026-11-23', dinners: 2, actorAccountId: owner.id } };
      const written = await s.plans.setDishes(h, plan.id, [{ date: '2026-11-24', recipeId: soup }, { date: '2026-11-26', recipeId: fish }], at('2026-11-22T10:00:00.250Z'), push);
      expect(written).to.deep.equal(await s.plans.byId(h, plan.id));
      const days = (await s.plans.byId(h, plan.id))!.days;
      expect(days[1]).to.deep.equal({ id: plan.days[1]!.id, date: '2026-11-24', recipeId: soup, portionsOverride: 6, note: 'Bursdag', leftoversOf: null });
      expect(days[3]!.recipeId).to.equal(fish);
      expect(days.filter((d) => d.recipeId !== null)).to.have.length(2);
      expect((await s.plans.byId(h, plan.id))!.updatedAt).to.deep.equal(at('2026-11-22T10:00:00.250Z'));
      expect(await s.pushOutbox.pending(10)).to.deep.equal([push]);
    });

    it('takes a dish off a day when its recipeId is null, in the same write as the others (a move)', async () => {
      const { id: h } = await ownedHousehold(s);
      const plan = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      const soup = randomUUID();
      await s.recipes.create(h, soup, { title: 'Suppe', servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null }, at('2026-11-20T00:00:00.000Z'));
      await s.plans.setDay(h, plan.id, '2026-11-24', { recipeId: soup, portionsOverride: 6, note: 'Bursdag' }, at('2026-11-21T00:00:00.000Z'));
      await s.plans.setDishes(h, plan.id, [{ date: '2026-11-24', recipeId: null }, { date: '2026-11-27', recipeId: soup }], at('2026-11-22T10:00:00.000Z'), null);
      const days = (await s.plans.byId(h, plan.id))!.days;
      expect(days[1]).to.deep.equal({ id: plan.days[1]!.id, date: '2026-11-24', recipeId: null, portionsOverride: 6, note: 'Bursdag', leftoversOf: null });
      expect(days[4]!.recipeId).to.equal(soup);
      expect(days.filter((d) => d.recipeId !== null)).to.have.length(1);
    });

    it('writes nothing, and no push, for another household\'s plan, a date outside the week or a recipe not the household\'s', async () => {
      const { id: h, owner } = await ownedHousehold(s);
      const { id: other } = await ownedHousehold(s);
      const plan = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      const mine = randomUUID();
      const theirs = randomUUID();
      const empty = { servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null };
      await s.recipes.create(h, mine, { title: 'Min', ...empty }, at('2026-11-20T00:00:00.000Z'));
      await s.recipes.create(other, theirs, { title: 'Deres', ...empty }, at('2026-11-20T00:00:00.000Z'));
      const push = () => ({ id: randomUUID(), householdId: h, createdAt: at('2026-11-22T10:00:00.000Z'), event: { kind: 'week-planned' as const, planId: plan.id, weekStart: '2026-11-23', dinners: 1, actorAccountId: owner.id } });
      const when = at('2026-11-22T10:00:00.000Z');
      expect(await s.plans.setDishes(other, plan.id, [{ date: '2026-11-24', recipeId: mine }], when, push())).to.deep.equal({ refused: 'plan-not-found' });
      expect(await s.plans.setDishes(h, plan.id, [{ date: '2026-11-24', recipeId: mine }, { date: '2026-12-01', recipeId: mine }], when, push())).to.deep.equal({ refused: 'date-outside-week' });
      expect(await s.plans.setDishes(h, plan.id, [{ date: '2026-11-24', recipeId: mine }, { date: '2026-11-25', recipeId: theirs }], when, push())).to.deep.equal({ refused: 'recipe-not-found' });
      expect(await s.plans.setDishes(h, plan.id, [{ date: '2026-11-24', recipeId: randomUUID() }], when, push())).to.deep.equal({ refused: 'recipe-not-found' });
      expect(await s.plans.byId(h, plan.id)).to.deep.equal(plan);
      expect(await s.pushOutbox.pending(10)).to.deep.equal([]);
    });

    it('makes a day eat an earlier day\'s leftovers, its own dish taken off and its portions and note kept, and back', async () => {
      const { id: h } = await ownedHousehold(s);
      const plan = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      const [lasagne, soup] = [await recipe(s, h, 'Lasagne'), await recipe(s, h, 'Suppe')];
      await s.plans.setDay(h, plan.id, '2026-11-23', { recipeId: lasagne, portionsOverride: null, note: null }, at('2026-11-21T00:00:00.000Z'));
      await s.plans.setDay(h, plan.id, '2026-11-25', { recipeId: soup, portionsOverride: 2, note: 'Sent' }, at('2026-11-21T00:00:00.000Z'));
      const set = await s.plans.setLeftovers(h, plan.id, '2026-11-25', '2026-11-23', at('2026-11-22T00:00:00.000Z'));
      expect(set).to.deep.equal({ id: plan.days[2]!.id, date: '2026-11-25', recipeId: null, portionsOverride: 2, note: 'Sent', leftoversOf: '2026-11-23' });
      const read = (await s.plans.byId(h, plan.id))!;
      expect(read.days[2]).to.deep.equal(set);
      expect(read.updatedAt).to.deep.equal(at('2026-11-22T00:00:00.000Z'));
      expect(read.days[0]!.recipeId).to.equal(lasagne);
      const cleared = await s.plans.setLeftovers(h, plan.id, '2026-11-25', null, at('2026-11-22T01:00:00.000Z'));
      expect(cleared).to.deep.equal({ ...set, leftoversOf: null });
      expect(await s.plans.setLeftovers(h, plan.id, '2026-12-01', '2026-11-23', at('2026-11-22T01:00:00.000Z'))).to.equal(null);
      const { id: other } = await ownedHousehold(s);
      expect(await s.plans.setLeftovers(other, plan.id, '2026-11-25', '2026-11-23', at('2026-11-22T01:00:00.000Z'))).to.equal(null);
      expect((await s.plans.byId(h, plan.id))!.days[2]).to.deep.equal(cleared);
    });

    it('clears the leftovers of a day whose dish changes, in this week and the next, and keeps them while it stays', async () => {
      const { id: h } = await ownedHousehold(s);
      const week = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      const next = await s.plans.getOrCreate(h, '2026-11-30', fresh());
      const [lasagne, soup] = [await recipe(s, h, 'Lasagne'), await recipe(s, h, 'Suppe')];
      const when = at('2026-11-21T00:00:00.000Z');
      await s.plans.setDay(h, week.id, '2026-11-29', { recipeId: lasagne, portionsOverride: null, note: null }, when);
      await s.plans.setLeftovers(h, next.id, '2026-11-30', '2026-11-29', when);
      await s.plans.setLeftovers(h, week.id, '2026-11-28', '2026-11-27', when);
      // The same dish with another note: the leftovers stay.
      await s.plans.setDay(h, week.id, '2026-11-29', { recipeId: lasagne, portionsOverride: 6, note: 'Dobbelt' }, when);
      expect((await s.plans.byId(h, next.id))!.days[0]!.leftoversOf).to.equal('2026-11-29');
      await s.plans.setDay(h, week.id, '2026-11-29', { recipeId: soup, portionsOverride: 6, note: 'Dobbelt' }, when);
      expect((await s.plans.byId(h, next.id))!.days[0]!.leftoversOf).to.equal(null);
      // Another day's leftovers are not touched.
      expect((await s.plans.byId(h, week.id))!.days[5]!.leftoversOf).to.equal('2026-11-27');
      // A day given a dish is no longer leftovers.
      await s.plans.setDay(h, week.id, '2026-11-28', { recipeId: lasagne, portionsOverride: null, note: null }, when);
      expect((await s.plans.byId(h, week.id))!.days[5]).to.include({ recipeId: lasagne, leftoversOf: null });
    });

    it('moves dishes taking their leftovers with them, and plans a dish and the day of its leftovers in one write', async () => {
      const { id: h } = await ownedHousehold(s);
      const plan = await s.plans.getOrCreate(h, '2026-11-23', fresh());
      const [lasagne, soup] = [await recipe(s, h, 'Lasagne'), await recipe(s, h, 'Suppe')];
      const when = at('2026-11-21T00:00:00.000Z');
      const written = await s.plans.setDishes(h, plan.id, [{ date: '2026-11-23', recipeId: lasagne }, { date: '2026-11-24', recipeId: null, leftoversOf: '2026-11-23' }, { date: '2026-11-25', recipeId: soup }], when, null);
      expect('refused' in written).to.equal(false);
      const days = (await s.plans.byId(h, plan.id))!.days;
      expect(days[1]).to.include({ recipeId: null, leftoversOf: '2026-11-23' });
      expect(days[0]).to.include({ recipeId: lasagne, leftoversOf: null });
      // A swap of Monday's and Wednesday's dishes changes Monday's: Tuesday is no longer its leftovers.
      await s.plans.setDishes(h, plan.id, [{ date: '2026-11-25', recipeId: lasagne }, { date: '2026-11-23', recipeId: soup }], when, null);
      expect((await s.plans.byId(h, plan.id))!.days[1]).to.include({ recipeId: null, leftoversOf: null });
    });
  });
}

async function recipe(s: Stores, h: string, title: string): Promise<string> {
  const id = randomUUID();
  await s.recipes.create(h, id, { title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null }, at('2026-11-20T00:00:00.000Z'));
  return id;
}
