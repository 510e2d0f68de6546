import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem, httpSuite } from '../support/http-suite.js';

// Friday 20 November 2026: the week of 23 November is next week.
const NOW = new Date('2026-11-20T12:00:00.000Z');
const NEXT = '2026-11-23';

httpSuite('dinner rules', { now: NOW }, (server) => {
  async function household() {
    const h = await server.household();
    const recipe = async (title: string, tags: string[] = [], displayName = title) => {
      const res = await h.owner.post(`${h.base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes: 30, steps: [], ingredients: [{ displayName, quantity: 200, unit: 'g', optional: false, baseRecipeId: null, reference: null }], tags });
      expect(res.status, res.text).to.equal(201);
      return res.json.id as string;
    };
    const rules = `${h.base}/dinner-rules`;
    const add = async (body: unknown) => {
      const res = await h.owner.post(rules, body);
      expect(res.status, res.text).to.equal(201);
      return res.json;
    };
    return { ...h, recipe, rules, add };
  }

  it('adds, lists, changes and removes the three kinds of rule', async () => {
    const h = await household();
    const taco = await h.recipe('Taco');
    await h.recipe('Laks', ['Fisk']);
    const fixed = await h.add({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
    expect(fixed).to.deep.include({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco, recipeTitle: 'Taco', tag: null, timesPerWeek: null, days: null, createdAt: NOW.toISOString() });
    const fish = await h.add({ kind: 'TagPerWeek', tag: ' FISK', timesPerWeek: 2 });
    expect(fish).to.deep.include({ tag: 'fisk', timesPerWeek: 2, weekday: null, recipeId: null });
    const spacing = await h.add({ kind: 'Spacing', days: 10, recipeId: null });
    const list = await h.owner.get(h.rules);
    expect(list.status).to.equal(200);
    expect(list.json.max).to.equal(20);
    expect(list.json.rules.map((r: { id: string }) => r.id)).to.have.members([fixed.id, fish.id, spacing.id]);
    const changed = await h.owner.put(`${h.rules}/${spacing.id}`, { kind: 'Spacing', days: 7, recipeId: taco });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.json).to.deep.include({ id: spacing.id, days: 7, recipeId: taco, recipeTitle: 'Taco' });
    expect((await h.owner.delete(`${h.rules}/${fish.id}`)).status).to.equal(204);
    expectProblem(await h.owner.delete(`${h.rules}/${fish.id}`), 404, 'dinner_rule_not_found');
    expectProblem(await h.owner.put(`${h.rules}/${fish.id}`, { kind: 'Spacing', days: 7, recipeId: null }), 404, 'dinner_rule_not_found');
    expect((await h.owner.get(h.rules)).json.rules).to.have.length(2);
    // The recipe goes, and the rules naming it with it.
    expect((await h.owner.delete(`${h.base}/recipes/${taco}`)).status).to.equal(204);
    expect((await h.owner.get(h.rules)).json.rules).to.deep.equal([]);
  });

  it('refuses what is not a rule (400), a recipe or tag the household does not have (422), a second fixed dish on a weekday and a 21st rule (409); nothing is written', async () => {
    const h = await household();
    const taco = await h.recipe('Taco', ['hverdag']);
    const other = await household();
    const foreign = await other.recipe('Pizza');
    for (const bad of [
      {},
      { kind: 'Weekly' },
      { kind: 'FixedDish', weekday: 'Fredag', recipeId: taco },
      { kind: 'FixedDish', weekday: 'Friday' },
      { kind: 'FixedDish', weekday: 'Friday', recipeId: 'taco' },
      { kind: 'TagPerWeek', tag: 'hverdag', timesPerWeek: 0 },
      { kind: 'TagPerWeek', tag: 'hverdag', timesPerWeek: 8 },
      { kind: 'TagPerWeek', tag: 'hverdag', timesPerWeek: 1.5 },
      { kind: 'TagPerWeek', tag: '   ', timesPerWeek: 1 },
      { kind: 'Spacing', days: 1, recipeId: null },
      { kind: 'Spacing', days: 61, recipeId: null },
    ]) {
      expectProblem(await h.owner.post(h.rules, bad), 400, 'validation_failed');
    }
    expectProblem(await h.owner.post(h.rules, { kind: 'TagPerWeek', tag: 'x'.repeat(33), timesPerWeek: 1 }), 400, 'value_too_long');
    const unknown = await h.owner.post(h.rules, { kind: 'FixedDish', weekday: 'Friday', recipeId: foreign });
    expectProblem(unknown, 422, 'dinner_rule_recipe_unknown');
    expect(unknown.json.recipeId).to.equal(foreign);
    expectProblem(await h.owner.post(h.rules, { kind: 'Spacing', days: 7, recipeId: randomUUID() }), 422, 'dinner_rule_recipe_unknown');
    const tag = await h.owner.post(h.rules, { kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 1 });
    expectProblem(tag, 422, 'dinner_rule_tag_unknown');
    expect(tag.json.tag).to.equal('fisk');
    const friday = await h.add({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
    expectProblem(await h.owner.post(h.rules, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco }), 409, 'dinner_rule_weekday_taken');
    const saturday = await h.add({ kind: 'FixedDish', weekday: 'Saturday', recipeId: taco });
    expectProblem(await h.owner.put(`${h.rules}/${saturday.id}`, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco }), 409, 'dinner_rule_weekday_taken');
    expect((await h.owner.get(h.rules)).json.rules.map((r: { id: string; weekday: string }) => [r.id, r.weekday])).to.have.deep.members([
      [friday.id, 'Friday'],
      [saturday.id, 'Saturday'],
    ]);
    for (let days = 2; days < 20; days++) await h.add({ kind: 'Spacing', days, recipeId: null });
    const over = await h.owner.post(h.rules, { kind: 'Spacing', days: 30, recipeId: null });
    expectProblem(over, 409, 'dinner_rule_limit');
    expect(over.json.max).to.equal(20);
    expect((await h.owner.get(h.rules)).json.rules).to.have.length(20);
  });

  it('every member reads them, only adults change them; another household\'s are not found', async () => {
    const h = await household();
    const taco = await h.recipe('Taco');
    const rule = await h.add({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
    const junior = (await h.join('Junior')).client;
    expect((await junior.get(h.rules)).json.rules.map((r: { id: string }) => r.id)).to.deep.equal([rule.id]);
    expectProblem(await junior.post(h.rules, { kind: 'Spacing', days: 7, recipeId: null }), 403, 'adults_only');
    expectProblem(await junior.put(`${h.rules}/${rule.id}`, { kind: 'Spacing', days: 7, recipeId: null }), 403, 'adults_only');
    expectProblem(await junior.delete(`${h.rules}/${rule.id}`), 403, 'adults_only');
    const adult = (await h.join('Adult')).client;
    expect((await adult.put(`${h.rules}/${rule.id}`, { kind: 'FixedDish', weekday: 'Thursday', recipeId: taco })).status).to.equal(200);
    const other = await household();
    expectProblem(await other.owner.get(h.rules), 404, 'household_not_found');
    expectProblem(await other.owner.post(h.rules, { kind: 'Spacing', days: 7, recipeId: null }), 404, 'household_not_found');
    expectProblem(await other.owner.put(`${h.rules}/${rule.id}`, { kind: 'Spacing', days: 7, recipeId: null }), 404, 'household_not_found');
    expectProblem(await other.owner.delete(`${h.rules}/${rule.id}`), 404, 'household_not_found');
    // Its own household's path does not reach the rule either.
    expectProblem(await other.owner.delete(`${other.rules}/${rule.id}`), 404, 'dinner_rule_not_found');
    expect((await h.owner.get(h.rules)).json.rules).to.have.length(1);
  });

  it('a new week opens with the fixed dinner on its weekday; a week made before the rule is not changed', async () => {
    const h = await household();
    const taco = await h.recipe('Taco');
    const before = (await h.owner.put(`${h.base}/plans/week/${NEXT}`)).json;
    await h.add({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
    const same = await h.owner.put(`${h.base}/plans/week/${NEXT}`);
    expect(same.json.id).to.equal(before.id);
    expect(same.json.days.every((d: { recipeId: string | null }) => d.recipeId === null)).to.equal(true);
    // Two calls at once for the week after: one plan, with taco on Friday.
    const [a, b] = await Promise.all([h.owner.put(`${h.base}/plans/week/2026-11-30`), h.owner.put(`${h.base}/plans/week/2026-11-30`)]);
    expect(a.json.id).to.equal(b.json.id);
    const got = (await h.owner.get(`${h.base}/plans/${a.json.id}`)).json;
    expect(got.days.filter((d: { recipeId: string | null }) => d.recipeId !== null).map((d: { date: string; recipeTitle: string }) => [d.date, d.recipeTitle])).to.deep.equal([['2026-12-04', 'Taco']]);
  });

  it('the planner honours the rules, and says which one shaped a day or cannot be served', async () => {
    const h = await household();
    const taco = await h.recipe('Taco');
    const salmon = await h.recipe('Laks', ['fisk']);
    const cod = await h.recipe('Torsk', ['fisk']);
    for (const t of ['Pasta', 'Gryte', 'Risotto', 'Wok']) await h.recipe(t);
    const plan = (await h.owner.put(`${h.base}/plans/week/${NEXT}`)).json;
    const fixed = await h.add({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco });
    const fish = await h.add({ kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 3 });
    const res = await h.owner.post(`${h.base}/plans/${plan.id}/suggestions`, { seed: 7 });
    expect(res.status, res.text).to.equal(200);
    const friday = res.json.days.find((d: { date: string }) => d.date === '2026-11-27');
    expect(friday).to.deep.include({ recipeId: taco });
    expect(friday.reasons[0]).to.equal('Rule');
    expect(friday.rule).to.deep.include({ id: fixed.id, kind: 'FixedDish', weekday: 'Friday', recipeTitle: 'Taco', nth: null, of: null });
    const fishDays = res.json.days.filter((d: { recipeId: string }) => d.recipeId === salmon || d.recipeId === cod);
    expect(fishDays.map((d: { rule: { id: string; nth: number; of: number } }) => [d.rule.id, d.rule.nth, d.rule.of])).to.have.deep.members([
      [fish.id, 1, 3],
      [fish.id, 2, 3],
      [fish.id, 3, 3],
    ]);
    expect(res.json.rulesNotServed).to.deep.equal([]);
    // Friday out: the fixed dish cannot be served, and the answer says so.
    const out = await h.owner.post(`${h.base}/events`, { date: '2026-11-27', eventType: 'EatingOut', servingTime: null, availableCookingMinutes: null, notes: null, guests: [], memberAttendance: [] });
    expect(out.status, out.text).to.equal(201);
    const closed = (await h.owner.post(`${h.base}/plans/${plan.id}/suggestions`, { seed: 7 })).json;
    expect(closed.rulesNotServed).to.have.length(1);
    expect(closed.rulesNotServed[0]).to.deep.include({ why: 'DayClosed', date: '2026-11-27', served: 0, wanted: 1 });
    expect(closed.rulesNotServed[0].rule).to.deep.include({ id: fixed.id, recipeTitle: 'Taco' });
  });
});
