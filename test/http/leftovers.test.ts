import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';

const recipe = (title: string, lines: [string, number][]) => ({
  title,
  servings: 4,
  activeMinutes: null,
  totalMinutes: 60,
  steps: ['Lag maten'],
  ingredients: lines.map(([displayName, quantity]) => ({ displayName, quantity, unit: 'g', optional: false, baseRecipeId: null, reference: null })),
});
const eventBody = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null, ...extra,
});
const guests = (date: string, count: number, avoids: string[] = []) => eventBody(date, 'Guests', { guests: [{ guestType: 'Adult', guestCount: count, dietaryNotes: null, avoids }] });

interface Day {
  date: string;
  recipeId: string | null;
  portions: number;
  leftoversOf: string | null;
  leftovers: { of: string; recipeId: string; recipeTitle: string } | null;
  leftoversFor: { date: string; portions: number }[];
}
interface Line {
  foodKey: string;
  requiredQuantity: number;
  relatedPlanEntryIds: string[];
}

httpSuite('planned leftovers: cook once, eat twice', {}, (server) => {
  async function week() {
    const { client: owner } = await server.signedIn('Owner');
    const h = (await owner.post('/api/v1/households', { name: 'Hansen' })).json;
    const base = `/api/v1/households/${h.id}`;
    const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
    const lasagne = (await owner.post(`${base}/recipes`, recipe('Lasagne', [['Pasta', 400], ['Kjøttdeig', 500]]))).json.id as string;
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: lasagne, portions: null, note: null });
    const day = async (date: string, planId = plan.id as string): Promise<Day> => (await owner.get(`${base}/plans/${planId}`)).json.days.find((d: Day) => d.date === date);
    const lines = async (planId = plan.id as string): Promise<Line[]> => (await owner.get(`${base}/plans/${planId}/shopping-list`)).json.items;
    const leftovers = (date: string, leftoversOf: string, planId = plan.id as string) => owner.put(`${base}/plans/${planId}/days/${date}/leftovers`, { leftoversOf });
    return { owner, base, plan, lasagne, day, lines, leftovers };
  }

  it('makes the later day eat the cooking day\'s dish: the cooking day and the list grow by its portions, the later day buys nothing', async () => {
    const { owner, base, plan, lasagne, day, lines, leftovers } = await week();
    await owner.post(`${base}/events`, guests('2026-11-25', 3));
    const before = await lines();
    expect(before.find((l) => l.foodKey === 'pasta')!.requiredQuantity).to.equal(100);
    const res = await leftovers('2026-11-25', '2026-11-23');
    expect(res.status, res.text).to.equal(200);
    const wednesday = res.json.days[2] as Day;
    expect(wednesday).to.deep.include({ recipeId: null, portions: 4, leftoversOf: '2026-11-23', leftovers: { of: '2026-11-23', recipeId: lasagne, recipeTitle: 'Lasagne' }, leftoversFor: [] });
    expect(res.json.days[0]).to.deep.include({ recipeId: lasagne, portions: 5, leftoversOf: null, leftovers: null, leftoversFor: [{ date: '2026-11-25', portions: 4 }] });
    expect(await day('2026-11-25')).to.deep.equal(wednesday);
    const after = await lines();
    const pasta = after.find((l) => l.foodKey === 'pasta')!;
    expect(pasta.requiredQuantity).to.equal(500);
    expect(pasta.relatedPlanEntryIds).to.deep.equal([plan.days[0].id]);
    expect(after.find((l) => l.foodKey === 'kjøttdeig')!.requiredQuantity).to.equal(625);
    // Undone: the cooking day is made for its own table again.
    expect((await owner.delete(`${base}/plans/${plan.id}/days/2026-11-25/leftovers`)).status).to.equal(204);
    expect(await day('2026-11-25')).to.deep.include({ recipeId: null, leftoversOf: null, leftovers: null });
    expect((await day('2026-11-23')).portions).to.equal(1);
    expect((await lines()).find((l) => l.foodKey === 'pasta')!.requiredQuantity).to.equal(100);
  });

  it('refuses a day not after the cooking day, past the keeping days, from a day with no dish, on a closed day or against a guest\'s avoid, writing nothing', async () => {
    const { owner, base, plan, leftovers } = await week();
    await owner.post(`${base}/events`, eventBody('2026-11-25', 'EatingOut'));
    await owner.post(`${base}/events`, guests('2026-11-24', 2, ['pasta']));
    const unchanged = (await owner.get(`${base}/plans/${plan.id}`)).json;
    const refusals: [string, string, string][] = [
      ['2026-11-23', '2026-11-23', 'leftovers_not_later'],
      ['2026-11-23', '2026-11-26', 'leftovers_not_later'],
      ['2026-11-27', '2026-11-23', 'leftovers_kept_too_long'],
      ['2026-11-26', '2026-11-24', 'leftovers_no_dish'],
      ['2026-11-25', '2026-11-23', 'leftovers_day_closed'],
      ['2026-11-24', '2026-11-23', 'avoid_conflict'],
    ];
    for (const [date, of, code] of refusals) {
      const res = await leftovers(date, of);
      expect([res.status, res.json.code], `${date} of ${of}`).to.deep.equal([409, code]);
    }
    expect((await leftovers('2026-11-24', 'onsdag')).status).to.equal(400);
    expect((await leftovers('2026-12-01', '2026-11-23')).json.code).to.equal('date_outside_week');
    expect((await owner.get(`${base}/plans/${plan.id}`)).json).to.deep.equal(unchanged);
    // A longer keeping time lets Friday eat Monday's leftovers; it is one of the household's settings, 1 to 7.
    expect((await owner.patch(base, { leftoversKeepDays: 8 })).status).to.equal(400);
    expect((await owner.patch(base, { leftoversKeepDays: 4 })).json.leftoversKeepDays).to.equal(4);
    expect((await leftovers('2026-11-27', '2026-11-23')).status).to.equal(200);
  });

  it('clears leftovers when the cooking day\'s dish changes or moves, and keeps them when only its note does', async () => {
    const { owner, base, plan, lasagne, day, leftovers } = await week();
    const soup = (await owner.post(`${base}/recipes`, recipe('Suppe', [['Gulrot', 300]]))).json.id as string;
    await leftovers('2026-11-24', '2026-11-23');
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: lasagne, portions: 2, note: 'Dobbel porsjon' });
    expect((await day('2026-11-24')).leftoversOf).to.equal('2026-11-23');
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: soup, portions: null, note: null });
    expect(await day('2026-11-24')).to.deep.include({ leftoversOf: null, leftovers: null });
    await leftovers('2026-11-24', '2026-11-23');
    const moved = await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-26' });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.json.days[1]).to.deep.include({ leftoversOf: null, leftovers: null });
    expect(moved.json.days[3]).to.deep.include({ recipeId: soup, leftoversFor: [] });
    await leftovers('2026-11-27', '2026-11-26');
    expect((await owner.delete(`${base}/plans/${plan.id}/days/2026-11-26`)).status).to.equal(204);
    expect((await day('2026-11-27')).leftoversOf).to.equal(null);
  });

  it('lets Monday eat Sunday\'s leftovers across the week, counted on the week that cooks', async () => {
    const { owner, base, plan, lasagne, day, lines, leftovers } = await week();
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-29`, { recipeId: lasagne, portions: null, note: null });
    const next = (await owner.put(`${base}/plans/week/2026-11-30`)).json;
    await owner.post(`${base}/events`, guests('2026-11-30', 1));
    const res = await leftovers('2026-11-30', '2026-11-29', next.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.json.days[0]).to.deep.include({ leftovers: { of: '2026-11-29', recipeId: lasagne, recipeTitle: 'Lasagne' }, portions: 2 });
    expect(await day('2026-11-29')).to.deep.include({ portions: 3, leftoversFor: [{ date: '2026-11-30', portions: 2 }] });
    // Monday of this week and Sunday: 1 + 3 portions.
    expect((await lines()).find((l) => l.foodKey === 'pasta')!.requiredQuantity).to.equal(400);
    expect((await lines(next.id)).find((l) => l.foodKey === 'pasta')).to.equal(undefined);
  });

  it('has the planner propose Monday\'s dish for a short Tuesday, and saving it makes Tuesday eat the leftovers', async () => {
    const { owner, base, plan, lasagne, day } = await week();
    await owner.post(`${base}/events`, eventBody('2026-11-24', 'Custom', { availableCookingMinutes: 15 }));
    const suggest = `${base}/plans/${plan.id}/suggestions`;
    const res = await owner.post(suggest, { days: ['2026-11-24'], ai: false });
    expect(res.status, res.text).to.equal(200);
    expect(res.json.days[0]).to.deep.include({ date: '2026-11-24', recipeId: lasagne, recipeTitle: 'Lasagne', leftoversOf: '2026-11-23', reasons: ['Leftovers'], recipeMinutes: null, cookingMinutes: 15 });
    const saved = await owner.post(`${suggest}/accept`, { days: [{ date: '2026-11-24', recipeId: lasagne, leftoversOf: '2026-11-23' }] });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.json.days[1]).to.deep.include({ recipeId: null, leftoversOf: '2026-11-23' });
    expect(await day('2026-11-23')).to.deep.include({ portions: 2, leftoversFor: [{ date: '2026-11-24', portions: 1 }] });
    // Leftovers of a dish the cooking day does not have are refused, and nothing is written.
    const soup = (await owner.post(`${base}/recipes`, recipe('Suppe', [['Gulrot', 300]]))).json.id as string;
    const wrong = await owner.post(`${suggest}/accept`, { days: [{ date: '2026-11-25', recipeId: soup, leftoversOf: '2026-11-23' }] });
    expect([wrong.status, wrong.json.code]).to.deep.equal([409, 'leftovers_no_dish']);
    expect((await day('2026-11-25')).leftoversOf).to.equal(null);
  });

  it('lists the days that may eat a day\'s leftovers, each judged, to adults only', async () => {
    const { owner, base, plan } = await week();
    await owner.post(`${base}/events`, eventBody('2026-11-25', 'EatingOut'));
    await owner.post(`${base}/events`, guests('2026-11-24', 2, ['kjøttdeig']));
    const res = await owner.get(`${base}/plans/${plan.id}/days/2026-11-23/leftovers-days`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json.days).to.deep.equal([
      { date: '2026-11-24', planId: plan.id, recipeId: null, refusal: 'avoid-conflict', avoid: 'kjøttdeig' },
      { date: '2026-11-25', planId: plan.id, recipeId: null, refusal: 'day-closed', avoid: null },
      { date: '2026-11-26', planId: plan.id, recipeId: null, refusal: null, avoid: null },
    ]);
    const empty = await owner.get(`${base}/plans/${plan.id}/days/2026-11-24/leftovers-days`);
    expect(empty.json.days.map((d: { refusal: string }) => d.refusal)).to.deep.equal(['no-dish', 'no-dish', 'no-dish']);
    const { client: junior } = await server.signedIn('Junior');
    const code = (await owner.post(`${base}/invites`, { role: 'Junior' })).json.code;
    await junior.post('/api/v1/invites/accept', { code });
    expect((await junior.get(`${base}/plans/${plan.id}/days/2026-11-23/leftovers-days`)).json.code).to.equal('adults_only');
    expect((await junior.put(`${base}/plans/${plan.id}/days/2026-11-26/leftovers`, { leftoversOf: '2026-11-23' })).json.code).to.equal('adults_only');
    expect((await junior.delete(`${base}/plans/${plan.id}/days/2026-11-26/leftovers`)).json.code).to.equal('adults_only');
    const { client: stranger } = await server.signedIn('Owner');
    expect((await stranger.put(`${base}/plans/${plan.id}/days/2026-11-26/leftovers`, { leftoversOf: '2026-11-23' })).json.code).to.equal('household_not_found');
  });
});
