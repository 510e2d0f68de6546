import { expect } from 'chai';
import { createEvent } from '../../core/events/events.js';
import type { MealEventInput } from '../../core/events/types.js';
import { acceptInvite, createInvite } from '../../core/households/invites.js';
import { createHousehold } from '../../core/households/households.js';
import { addDays } from '../../core/kernel/dates.js';
import type { Result } from '../../core/kernel/result.js';
import { addDinnerRule, DINNER_RULE_LIMITS, listDinnerRules, removeDinnerRule, replaceDinnerRule, weekdayOf, type DinnerRuleSpec } from '../../core/plans/dinner-rules.js';
import { ensureWeekPlan, setPlanDay } from '../../core/plans/plans.js';
import { suggestWeek } from '../../core/plans/suggestions.js';
import { createRecipe } from '../../core/recipes/recipes.js';
import { addRecipeToWeekList } from '../../core/shopping/add-recipe.js';
import { householdAt, person } from './support.js';

const value = <T, E>(r: Result<T, E>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
};
const failure = <T, E extends { type: string }>(r: Result<T, E>): string => (r.ok ? 'ok' : r.error.type);

const MONDAY = '2026-11-23';
const FRIDAY = '2026-11-27';
const week = Array.from({ length: 7 }, (_, i) => addDays(MONDAY, i));
const event = (date: string, over: Partial<MealEventInput>): MealEventInput => ({ date, eventType: 'EatingOut', servingTime: null, availableCookingMinutes: null, notes: null, guests: [], memberAttendance: [], ...over });
const guestsAvoiding = (date: string, avoids: string[]) => event(date, { eventType: 'Guests', guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids }] });

async function household() {
  const { deps, clock, owner, h } = await householdAt('2026-11-20T12:00:00.000Z');
  const recipe = async (title: string, foods: string[], o: { tags?: string[]; minutes?: number } = {}) =>
    value(
      await createRecipe(deps, owner, h.id, {
        title,
        servings: 4,
        activeMinutes: null,
        totalMinutes: o.minutes ?? 30,
        steps: [],
        ingredients: foods.map((f) => ({ displayName: f, quantity: 200, unit: 'g', optional: false, baseRecipeId: null, reference: null })),
        sourceUrl: null,
        imageUrl: null,
        tags: o.tags ?? [],
      }),
    );
  const rule = async (spec: DinnerRuleSpec) => value(await addDinnerRule(deps, owner, h.id, spec));
  const dishesOf = async (date: string) => {
    const plan = value(await ensureWeekPlan(deps, owner, h.id, date));
    return Object.fromEntries(plan.days.filter((d) => d.recipeTitle !== null).map((d) => [d.date, d.recipeTitle]));
  };
  return { deps, clock, owner, h, recipe, rule, dishesOf };
}

describe('dinner rules (domain)', () => {
  it('keeps the three kinds, checks each against the household, and lets every member read them', async () => {
    const { deps, owner, h, recipe, rule } = await household();
    const taco = await recipe('Taco', ['Kjøttdeig']);
    await recipe('Laks', ['Laks'], { tags: ['Fisk'] });
    const fixed = await rule({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco.id });
    expect(fixed).to.deep.include({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco.id, recipeTitle: 'Taco', tag: null, timesPerWeek: null, days: null });
    // The tag is kept in tag form, as recipes keep theirs.
    expect(await rule({ kind: 'TagPerWeek', tag: '  FISK ', timesPerWeek: 2 })).to.deep.include({ kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 2, recipeId: null, weekday: null });
    expect(await rule({ kind: 'Spacing', days: 10, recipeId: null })).to.deep.include({ kind: 'Spacing', days: 10, recipeId: null, recipeTitle: null });
    expect(failure(await addDinnerRule(deps, owner, h.id, { kind: 'FixedDish', weekday: 'Friday', recipeId: taco.id }))).to.equal('dinner-rule-weekday-taken');
    expect(failure(await addDinnerRule(deps, owner, h.id, { kind: 'TagPerWeek', tag: 'suppe', timesPerWeek: 1 }))).to.equal('dinner-rule-tag-unknown');

    // Another household's recipe is unknown here; its rules are not to be reached.
    const other = person('annen');
    await deps.accounts.create(other);
    const theirs = value(await createHousehold(deps, other, { name: 'Borte', timeZoneId: 'Europe/Oslo' }));
    const foreign = value(await createRecipe(deps, other, theirs.id, { title: 'Pizza', servings: 2, activeMinutes: null, totalMinutes: 20, steps: [], ingredients: [], sourceUrl: null, imageUrl: null }));
    const unknown = await addDinnerRule(deps, owner, h.id, { kind: 'Spacing', days: 7, recipeId: foreign.id });
    expect(unknown.ok ? null : unknown.error).to.deep.equal({ type: 'dinner-rule-recipe-unknown', recipeId: foreign.id });
    expect(failure(await listDinnerRules(deps, other, h.id))).to.equal('household-not-found');
    expect(failure(await removeDinnerRule(deps, other, h.id, fixed.id))).to.equal('household-not-found');

    // A Junior reads them and changes nothing.
    const junior = person('junior');
    await deps.accounts.create(junior);
    value(await acceptInvite(deps, junior, { code: value(await createInvite(deps, owner, h.id, { role: 'Junior' })).code }));
    expect(value(await listDinnerRules(deps, junior, h.id)).rules.map((r) => r.kind)).to.have.members(['FixedDish', 'TagPerWeek', 'Spacing']);
    expect(failure(await addDinnerRule(deps, junior, h.id, { kind: 'Spacing', days: 3, recipeId: null }))).to.equal('adults-only');
    expect(failure(await replaceDinnerRule(deps, junior, h.id, fixed.id, { kind: 'Spacing', days: 3, recipeId: null }))).to.equal('adults-only');
    expect(failure(await removeDinnerRule(deps, junior, h.id, fixed.id))).to.equal('adults-only');

    // Changed and removed by an adult; a removed rule is not found.
    expect(value(await replaceDinnerRule(deps, owner, h.id, fixed.id, { kind: 'FixedDish', weekday: 'Saturday', recipeId: taco.id }))).to.include({ weekday: 'Saturday', id: fixed.id });
    value(await removeDinnerRule(deps, owner, h.id, fixed.id));
    expect(failure(await removeDinnerRule(deps, owner, h.id, fixed.id))).to.equal('dinner-rule-not-found');
    expect(failure(await replaceDinnerRule(deps, owner, h.id, fixed.id, { kind: 'Spacing', days: 3, recipeId: null }))).to.equal('dinner-rule-not-found');
  });

  it(`keeps at most ${DINNER_RULE_LIMITS.rules} rules`, async () => {
    const { deps, owner, h, rule } = await household();
    for (let i = 0; i < DINNER_RULE_LIMITS.rules; i++) await rule({ kind: 'Spacing', days: 2 + i, recipeId: null });
    const over = await addDinnerRule(deps, owner, h.id, { kind: 'Spacing', days: 60, recipeId: null });
    expect(over.ok ? null : over.error).to.deep.equal({ type: 'dinner-rule-limit', max: DINNER_RULE_LIMITS.rules });
    expect(value(await listDinnerRules(deps, owner, h.id)).rules).to.have.length(DINNER_RULE_LIMITS.rules);
  });

  it('a new week opens with its fixed dinners, unless the day is closed or the dish breaks its guests\' avoids; a week made already is not changed', async () => {
    const { deps, owner, h, recipe, rule, dishesOf } = await household();
    const taco = await recipe('Taco', ['Kjøttdeig', 'Tortilla']);
    const fish = await recipe('Fiskegrateng', ['Torsk', 'Melk']);
    expect(await dishesOf(MONDAY)).to.deep.equal({});
    await rule({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco.id });
    await rule({ kind: 'FixedDish', weekday: 'Wednesday', recipeId: fish.id });
    // The week made before the rules keeps its empty days.
    expect(await dishesOf(MONDAY)).to.deep.equal({});
    expect(await dishesOf(addDays(MONDAY, 7))).to.deep.equal({ '2026-12-02': 'Fiskegrateng', '2026-12-04': 'Taco' });
    // Friday out, Wednesday's guests avoid fish: neither dish goes in.
    value(await createEvent(deps, owner, h.id, event('2026-12-11', {})));
    value(await createEvent(deps, owner, h.id, guestsAvoiding('2026-12-09', ['fisk'])));
    expect(await dishesOf('2026-12-07')).to.deep.equal({});
    // Opened again, nothing changes; nor does a week of the past get a dinner it never had.
    expect(await dishesOf(addDays(MONDAY, 7))).to.deep.equal({ '2026-12-02': 'Fiskegrateng', '2026-12-04': 'Taco' });
    expect(await dishesOf('2026-11-09')).to.deep.equal({});
    // This week's Friday is today: still to come.
    expect(await dishesOf('2026-11-16')).to.deep.equal({ '2026-11-20': 'Taco' });
    expect(weekdayOf(FRIDAY)).to.equal('Friday');
  });

  it('a week first made by adding a recipe to its shopping list opens with its fixed dinners too', async () => {
    const { deps, owner, h, recipe, rule, dishesOf } = await household();
    const taco = await recipe('Taco', ['Kjøttdeig', 'Tortilla']);
    const soup = await recipe('Suppe', ['Gulrot']);
    await rule({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco.id });
    value(await addRecipeToWeekList(deps, owner, h.id, { recipeId: soup.id, weekStart: '2026-12-09' }));
    expect(await dishesOf('2026-12-07')).to.deep.equal({ '2026-12-11': 'Taco' });
  });

  it('the planner keeps a fixed dish on its weekday, with the rule, and says when its day is closed or its guests avoid it', async () => {
    const { deps, owner, h, recipe, rule } = await household();
    const plan = value(await ensureWeekPlan(deps, owner, h.id, MONDAY));
    const taco = await recipe('Taco', ['Kjøttdeig']);
    const soup = await recipe('Suppe', ['Reker']);
    for (const t of ['Pasta', 'Gryte', 'Risotto', 'Wok']) await recipe(t, [t]);
    const friday = await rule({ kind: 'FixedDish', weekday: 'Friday', recipeId: taco.id });
    const monday = await rule({ kind: 'FixedDish', weekday: 'Monday', recipeId: soup.id });
    const sunday = await rule({ kind: 'FixedDish', weekday: 'Sunday', recipeId: soup.id });
    value(await createEvent(deps, owner, h.id, guestsAvoiding(MONDAY, ['skalldyr'])));
    value(await createEvent(deps, owner, h.id, event('2026-11-29', {})));
    for (const seed of [0, 1, 2, 3]) {
      const s = value(await suggestWeek(deps, owner, h.id, plan.id, { seed }));
      const fri = s.days.find((d) => d.date === FRIDAY)!;
      expect(fri).to.deep.include({ recipeId: taco.id });
      expect(fri.reasons[0]).to.equal('Rule');
      expect(fri.rule).to.deep.include({ id: friday.id, kind: 'FixedDish', weekday: 'Friday', recipeTitle: 'Taco', nth: null, of: null });
      // Monday's guests avoid shellfish: the soup is not served, the day gets another dish.
      const mon = s.days.find((d) => d.date === MONDAY)!;
      expect(mon.recipeId).to.not.equal(soup.id);
      expect(mon.recipeId).to.not.equal(null);
      expect(s.rulesNotServed.map((n) => [n.rule.id, n.why, n.date])).to.deep.equal([
        [sunday.id, 'DayClosed', '2026-11-29'],
        [monday.id, 'BreaksAvoids', MONDAY],
      ]);
      // No other day is given the fixed dish by a rule.
      expect(s.days.filter((d) => d.rule !== null).map((d) => d.date)).to.deep.equal([FRIDAY]);
    }
  });

  it('a tag a number of times a week: its dishes where days allow, each counted; said when no tagged dish fits', async () => {
    const { deps, owner, h, recipe, rule } = await household();
    const plan = value(await ensureWeekPlan(deps, owner, h.id, MONDAY));
    const salmon = await recipe('Laks', ['Laks'], { tags: ['fisk'] });
    const cod = await recipe('Torsk', ['Torsk'], { tags: ['Fisk', 'hverdag'] });
    for (const t of ['Pasta', 'Gryte', 'Risotto', 'Wok', 'Taco', 'Pizza', 'Suppe']) await recipe(t, [t]);
    const fish = await rule({ kind: 'TagPerWeek', tag: 'fisk', timesPerWeek: 2 });
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const s = value(await suggestWeek(deps, owner, h.id, plan.id, { seed }));
      const fishDays = s.days.filter((d) => d.recipeId === salmon.id || d.recipeId === cod.id);
      expect(fishDays, `seed ${seed}`).to.have.length(2);
      // Counted in date order: the earlier fish day is the first of two.
      expect(fishDays.map((d) => [d.reasons[0], d.rule?.id, d.rule?.nth, d.rule?.of])).to.deep.equal([
        ['Rule', fish.id, 1, 2],
        ['Rule', fish.id, 2, 2],
      ]);
      expect(s.rulesNotServed).to.deep.equal([]);
    }
    // A fish dish planned already counts: one more is proposed.
    value(await setPlanDay(deps, owner, h.id, plan.id, MONDAY, { recipeId: salmon.id, portions: null, note: null }));
    const one = value(await suggestWeek(deps, owner, h.id, plan.id, {}));
    expect(one.days.filter((d) => d.rule !== null).map((d) => [d.recipeId, d.rule!.nth])).to.deep.equal([[cod.id, 2]]);
    // Every day with 15 minutes to cook: no fish dish fits, which is said, and the days get other dishes.
    for (const date of week.slice(1)) value(await createEvent(deps, owner, h.id, event(date, { eventType: 'Custom', availableCookingMinutes: 15 })));
    await recipe('Toast', ['Brød'], { minutes: 10 });
    const none = value(await suggestWeek(deps, owner, h.id, plan.id, {}));
    expect(none.rulesNotServed.map((n) => ({ id: n.rule.id, why: n.why, served: n.served, wanted: n.wanted }))).to.deep.equal([{ id: fish.id, why: 'NoTaggedDish', served: 1, wanted: 2 }]);
    // Tuesday, with 15 minutes, eats Monday's salmon as leftovers (cooked double, no fish dish of its own); the rest Toast.
    expect(none.days.filter((d) => d.leftoversOf !== null).map((d) => [d.date, d.leftoversOf, d.recipeId])).to.deep.equal([[week[1], MONDAY, salmon.id]]);
    expect(none.days.filter((d) => d.leftoversOf === null).every((d) => d.recipeTitle === 'Toast')).to.equal(true);
  });

  it('spacing: no dish within N days of a day it was or is on; one recipe\'s spacing binds that recipe only', async () => {
    const { deps, owner, h, recipe, rule } = await household();
    const plan = value(await ensureWeekPlan(deps, owner, h.id, MONDAY));
    const soup = await recipe('Suppe', ['Gulrot']);
    // The soup last week on Saturday: with 5 days between, not before Thursday.
    const last = value(await ensureWeekPlan(deps, owner, h.id, '2026-11-16'));
    value(await setPlanDay(deps, owner, h.id, last.id, '2026-11-21', { recipeId: soup.id, portions: null, note: null }));
    const every = await rule({ kind: 'Spacing', days: 5, recipeId: null });
    const s = value(await suggestWeek(deps, owner, h.id, plan.id, {}));
    // One dish only: on Thursday (5 days after Saturday), and then not again that week; the other days say why.
    expect(s.days.map((d) => d.recipeId === soup.id)).to.deep.equal([false, false, false, true, false, false, false]);
    for (const d of s.days.filter((x) => x.recipeId === null)) expect([d.reasons, d.rule?.id]).to.deep.equal([['RuleNotServed'], every.id]);
    // With the rule for another recipe, the soup is free to come back (as a repeat, nothing else there).
    const pasta = await recipe('Pasta', ['Pasta']);
    value(await replaceDinnerRule(deps, owner, h.id, every.id, { kind: 'Spacing', days: 5, recipeId: pasta.id }));
    const free = value(await suggestWeek(deps, owner, h.id, plan.id, {}));
    expect(free.days.every((d) => d.recipeId !== null)).to.equal(true);
    const pastaDays = free.days.filter((d) => d.recipeId === pasta.id).map((d) => d.date);
    for (const a of pastaDays) for (const b of pastaDays) if (a < b) expect(week.indexOf(b) - week.indexOf(a), `${a} and ${b}`).to.be.at.least(5);
  });
});
