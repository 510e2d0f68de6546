import { expect } from 'chai';
import { createEvent } from '../../core/events/events.js';
import type { MealEventInput } from '../../core/events/types.js';
import { createHousehold, updateHousehold } from '../../core/households/households.js';
import { addDays } from '../../core/kernel/dates.js';
import type { Result } from '../../core/kernel/result.js';
import { leftoversRefusal } from '../../core/plans/leftovers-model.js';
import { LITTLE_TIME_MINUTES, planWeekWithLeftovers, type LeftoversPlannerInput } from '../../core/plans/leftovers-planner.js';
import { acceptedLeftovers, clearLeftovers, setLeftovers } from '../../core/plans/leftovers.js';
import type { PlannerCandidate } from '../../core/plans/planner.js';
import { ensureWeekPlan, getPlan, setPlanDay } from '../../core/plans/plans.js';
import { acceptSuggestions, suggestWeek } from '../../core/plans/suggestions.js';
import { createRecipe } from '../../core/recipes/recipes.js';
import { getShoppingList } from '../../core/shopping/lists.js';
import { domain, person } from './support.js';

const value = <T, E>(r: Result<T, E>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
};
const refusal = <T, E>(r: Result<T, E>): E => {
  if (r.ok) throw new Error('expected a refusal');
  return r.error;
};
const WEEK = '2026-11-23';
const day = (i: number) => addDays(WEEK, i);

async function household() {
  const { deps, clock } = domain();
  clock.set(new Date('2026-11-20T12:00:00.000Z'));
  const owner = person('eier');
  await deps.accounts.create({ ...owner, passwordHash: null });
  const h = value(await createHousehold(deps, owner, { name: 'Hjem', timeZoneId: 'Europe/Oslo' }));
  const plan = value(await ensureWeekPlan(deps, owner, h.id, WEEK));
  const recipe = async (title: string, foods: string[], totalMinutes = 60) =>
    value(await createRecipe(deps, owner, h.id, { title, servings: 4, activeMinutes: null, totalMinutes, steps: [], ingredients: foods.map((f) => ({ displayName: f, quantity: 400, unit: 'g', optional: false, baseRecipeId: null, reference: null })), sourceUrl: null, imageUrl: null }));
  const event = async (date: string, over: Partial<MealEventInput>) =>
    value(await createEvent(deps, owner, h.id, { date, eventType: 'Guests', servingTime: null, availableCookingMinutes: null, notes: null, guests: [], memberAttendance: [], ...over }));
  const guests = (date: string, guestCount: number, avoids: string[] = []) => event(date, { guests: [{ guestType: 'Adult', guestCount, dietaryNotes: null, avoids }] });
  const dish = async (i: number, recipeId: string | null) => value(await setPlanDay(deps, owner, h.id, plan.id, day(i), { recipeId, portions: null, note: null }));
  const days = async () => value(await getPlan(deps, owner, h.id, plan.id)).days;
  const pasta = async () => value(await getShoppingList(deps, owner, h.id, plan.id)).list.lines.find((l) => l.foodKey === 'pasta');
  return { deps, owner, h, plan, recipe, event, guests, dish, days, pasta };
}

describe('planned leftovers (domain)', () => {
  it('cooks the cooking day for the later day\'s portions too, and the later day buys nothing', async () => {
    const w = await household();
    const lasagne = await w.recipe('Lasagne', ['Pasta']);
    await w.dish(0, lasagne.id);
    await w.guests(day(2), 2);
    expect((await w.pasta())!.requiredQuantity).to.equal(100);
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(2), day(0)));
    const [monday, , wednesday] = await w.days();
    expect(monday).to.deep.include({ portions: 4, leftoversFor: [{ date: day(2), portions: 3 }] });
    expect(wednesday).to.deep.include({ recipeId: null, portions: 3, leftoversOf: day(0), leftovers: { of: day(0), recipeId: lasagne.id, recipeTitle: 'Lasagne' } });
    const line = (await w.pasta())!;
    expect(line.requiredQuantity).to.equal(400);
    expect(line.relatedPlanEntryIds).to.deep.equal([monday!.id]);
    // A day that eats leftovers and is then closed is no longer cooked for.
    await w.event(day(2), { eventType: 'EatingOut' });
    expect((await w.days())[0]).to.deep.include({ portions: 1, leftoversFor: [] });
    expect((await w.pasta())!.requiredQuantity).to.equal(100);
  });

  it('keeps leftovers the household\'s keeping days, and refuses a later day past them, writing nothing', async () => {
    const w = await household();
    await w.dish(0, (await w.recipe('Gryte', ['Løk'])).id);
    expect(refusal(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(4), day(0)))).to.deep.equal({ type: 'leftovers-refused', reason: 'kept-too-long' });
    expect((await w.days())[4]!.leftoversOf).to.equal(null);
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(3), day(0)));
    value(await updateHousehold(w.deps, w.owner, w.h.id, { leftoversKeepDays: 4 }));
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(4), day(0)));
    expect((await w.days())[0]!.leftoversFor.map((e) => e.date)).to.deep.equal([day(3), day(4)]);
    // The rules on their own: a later day, within the days, from a day cooked at home with a dish, onto an open day.
    const cook = { date: day(1), recipeId: 'r', cookedAtHome: true };
    expect(leftoversRefusal(cook, { date: day(1), cookedAtHome: true }, 3, day(1))).to.equal('not-later');
    expect(leftoversRefusal(cook, { date: day(0), cookedAtHome: true }, 3, day(1))).to.equal('not-later');
    expect(leftoversRefusal(cook, { date: day(4), cookedAtHome: true }, 3, day(1))).to.equal(null);
    expect(leftoversRefusal(cook, { date: day(5), cookedAtHome: true }, 3, day(1))).to.equal('kept-too-long');
    expect(leftoversRefusal({ ...cook, recipeId: null }, { date: day(2), cookedAtHome: true }, 3, day(1))).to.equal('no-dish');
    expect(leftoversRefusal({ ...cook, cookedAtHome: false }, { date: day(2), cookedAtHome: true }, 3, day(1))).to.equal('no-dish');
    expect(leftoversRefusal(undefined, { date: day(2), cookedAtHome: true }, 3, day(1))).to.equal('no-dish');
    expect(leftoversRefusal(cook, { date: day(2), cookedAtHome: false }, 3, day(1))).to.equal('day-closed');
  });

  it('refuses leftovers a guest of the later day avoids, from a day with no dish, onto a closed day, and onto an earlier day', async () => {
    const w = await household();
    await w.dish(0, (await w.recipe('Rekepasta', ['Reker', 'Pasta'])).id);
    await w.guests(day(1), 1, ['skalldyr']);
    await w.event(day(2), { eventType: 'Travel' });
    const before = await w.days();
    expect(refusal(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(1), day(0)))).to.deep.include({ type: 'avoid-conflict', avoid: 'skalldyr', ingredient: 'Reker' });
    expect(refusal(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(2), day(0)))).to.deep.equal({ type: 'leftovers-refused', reason: 'day-closed' });
    expect(refusal(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(3), day(1)))).to.deep.equal({ type: 'leftovers-refused', reason: 'no-dish' });
    expect(refusal(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(0), day(3)))).to.deep.equal({ type: 'leftovers-refused', reason: 'not-later' });
    expect(await w.days()).to.deep.equal(before);
    // A day of leftovers is not a dish to cook double again.
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(3), day(0)));
    expect(refusal(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(4), day(3)))).to.deep.equal({ type: 'leftovers-refused', reason: 'no-dish' });
    value(await clearLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(3)));
    expect((await w.days())[3]).to.deep.include({ leftoversOf: null, leftovers: null });
  });

  it('never lets leftovers become another dish: a changed or cleared cooking day takes them away', async () => {
    const w = await household();
    const [lasagne, soup] = [await w.recipe('Lasagne', ['Pasta']), await w.recipe('Suppe', ['Gulrot'])];
    await w.dish(0, lasagne.id);
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(1), day(0)));
    await w.dish(0, soup.id);
    expect((await w.days())[1]).to.deep.include({ leftoversOf: null, leftovers: null });
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(1), day(0)));
    await w.dish(0, null);
    expect((await w.days())[1]).to.deep.include({ leftoversOf: null, leftovers: null });
  });
});

const candidate = (id: string, over: Partial<PlannerCandidate> = {}): PlannerCandidate => ({
  id, title: id, minutes: 40, ingredients: [{ displayName: 'Potet', foodKey: 'potet' }], pricePerPortion: null, disliked: false, eatenLately: false, lastEatenOn: null, timesEaten: 0, fromLibrary: false, ...over,
});
const plannerInput = (over: Partial<LeftoversPlannerInput>): LeftoversPlannerInput => ({
  days: Array.from({ length: 7 }, (_, i) => ({ date: day(i), avoids: [], limitMinutes: null })),
  candidates: [candidate('a'), candidate('b'), candidate('c'), candidate('d'), candidate('e'), candidate('f'), candidate('g')],
  taken: [], useSoon: new Map(), usualPricePerPortion: null, seed: 1, cooked: [], keepDays: 3, ...over,
});

describe('the planner\'s leftovers (domain)', () => {
  it('proposes the nearest earlier dish for an evening with little time, and cooks each dish double once', () => {
    const days = plannerInput({}).days.map((d, i) => (i === 2 || i === 3 ? { ...d, limitMinutes: LITTLE_TIME_MINUTES - 10 } : d));
    const out = planWeekWithLeftovers(plannerInput({ days }));
    const [, tuesday, wednesday, thursday] = out;
    expect(wednesday).to.deep.include({ leftoversOf: day(1), reasons: ['Leftovers'] });
    expect(wednesday!.pick!.id).to.equal(tuesday!.pick!.id);
    expect(thursday).to.deep.include({ leftoversOf: day(0) });
    expect(thursday!.pick!.id).to.equal(out[0]!.pick!.id);
    // Every other day cooks, no dish twice.
    const cooked = out.filter((d) => d.leftoversOf === undefined).map((d) => d.pick!.id);
    expect(new Set(cooked).size).to.equal(cooked.length);
  });

  it('stretches a dish already planned, never past the keeping days, against a guest\'s avoid or from a later day', () => {
    const days = plannerInput({}).days.map((d, i) => (i === 4 ? { ...d, limitMinutes: 15, avoids: ['skalldyr'] } : i === 1 ? { ...d, limitMinutes: 15 } : d));
    const shrimp = candidate('reker', { ingredients: [{ displayName: 'Reker', foodKey: 'reker' }] });
    const quick = candidate('rask', { minutes: 10 });
    const out = planWeekWithLeftovers(plannerInput({ days: days.filter((d) => d.date === day(1) || d.date === day(4)), candidates: [shrimp, quick, candidate('x')], cooked: [{ date: day(3), id: 'reker' }, { date: day(0), id: 'x' }] }));
    const tuesday = out.find((d) => d.date === day(1))!;
    expect(tuesday).to.deep.include({ leftoversOf: day(0) });
    // Friday's guests avoid shellfish: Thursday's shrimp does not stretch there, and Monday is four days back.
    const friday = out.find((d) => d.date === day(4))!;
    expect(friday.leftoversOf).to.equal(undefined);
    expect(friday.pick!.id).to.equal('rask');
  });
});

describe('accepting leftovers the planner proposed (domain)', () => {
  it('writes the cooking day and the day of its leftovers in one accept, and judges the leftovers first', async () => {
    const w = await household();
    await w.recipe('Lasagne', ['Pasta'], 30);
    await w.event(day(1), { eventType: 'Custom', availableCookingMinutes: 10 });
    const proposal = value(await suggestWeek(w.deps, w.owner, w.h.id, w.plan.id, { days: [day(0), day(1)], ai: false }));
    const tuesday = proposal.days[1]!;
    expect(tuesday).to.deep.include({ leftoversOf: day(0), reasons: ['Leftovers'], recipeMinutes: null, cookingMinutes: 10 });
    const kept = proposal.days.map((d) => ({ date: d.date, recipeId: d.recipeId!, ...(d.leftoversOf ? { leftoversOf: d.leftoversOf } : {}) }));
    // Without its cooking day the leftovers have no dish.
    expect(refusal(await acceptedLeftovers(w.deps, w.h.id, (await w.deps.plans.byId(w.h.id, w.plan.id))!, [kept[1]!]))).to.deep.equal({ type: 'leftovers-refused', reason: 'no-dish' });
    const saved = value(await acceptSuggestions(w.deps, w.owner, w.h.id, w.plan.id, { days: kept }));
    expect(saved.days[1]).to.deep.include({ recipeId: null, leftoversOf: day(0) });
    expect(saved.days[0]).to.deep.include({ portions: 2, leftoversFor: [{ date: day(1), portions: 1 }] });
    // A day already eating leftovers is not proposed for again.
    const again = value(await suggestWeek(w.deps, w.owner, w.h.id, w.plan.id, { ai: false }));
    expect(again.days.map((d) => d.date)).to.not.include(day(1));
  });
});

describe('a guest\'s avoids on a day of leftovers (domain)', () => {
  it('refuses guests who avoid the dish the day eats as leftovers, unless the change replaces it: then the leftovers go', async () => {
    const w = await household();
    await w.dish(0, (await w.recipe('Rekepasta', ['Reker', 'Pasta'])).id);
    value(await setLeftovers(w.deps, w.owner, w.h.id, w.plan.id, day(2), day(0)));
    const guests = { eventType: 'Guests' as const, servingTime: null, availableCookingMinutes: null, notes: null, guests: [{ guestType: 'Adult' as const, guestCount: 1, dietaryNotes: null, avoids: ['skalldyr'] }], memberAttendance: [] };
    expect(refusal(await createEvent(w.deps, w.owner, w.h.id, { ...guests, date: day(2) }))).to.deep.include({ type: 'avoid-conflict', date: day(2), recipeTitle: 'Rekepasta', avoid: 'skalldyr' });
    expect((await w.days())[2]!.leftoversOf).to.equal(day(0));
    value(await createEvent(w.deps, w.owner, w.h.id, { ...guests, date: day(2) }, { replaceDish: true }));
    const [monday, , wednesday] = await w.days();
    expect(wednesday).to.deep.include({ leftoversOf: null, leftovers: null });
    expect(monday!.recipeTitle).to.equal('Rekepasta');
  });
});
