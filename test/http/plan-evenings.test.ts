import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';

const recipe = (title: string, totalMinutes: number | null, lines: string[] = ['Poteter'], tags: string[] = []) => ({
  title,
  servings: 4,
  activeMinutes: null,
  totalMinutes,
  steps: ['Lag maten'],
  tags,
  ingredients: lines.map((displayName) => ({ displayName, quantity: 1, unit: 'stk', optional: false, baseRecipeId: null, reference: null })),
});
const eventBody = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null, ...extra,
});

httpSuite('the week\'s evenings, a day\'s choices and moving a dish', {}, (server) => {
  async function week() {
    const { client: owner } = await server.signedIn('Owner');
    const h = (await owner.post('/api/v1/households', { name: 'Hansen' })).json;
    const base = `/api/v1/households/${h.id}`;
    const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
    const add = async (...args: Parameters<typeof recipe>) => (await owner.post(`${base}/recipes`, recipe(...args))).json.id as string;
    return { owner, base, plan, add };
  }

  it('says what each evening leaves to cook, from its events, to any member', async () => {
    const { owner, base, plan } = await week();
    await owner.post(`${base}/events`, eventBody('2026-11-24', 'Guests', { availableCookingMinutes: 30, guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: ['nøtter'] }] }));
    await owner.post(`${base}/events`, eventBody('2026-11-24', 'PersonAbsent', { availableCookingMinutes: 45, memberAttendance: [] }));
    await owner.post(`${base}/events`, eventBody('2026-11-26', 'EatingOut'));
    const res = await owner.get(`${base}/plans/${plan.id}/evenings`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json.days).to.have.length(7);
    expect(res.json.days[0]).to.deep.equal({ date: '2026-11-23', cookedAtHome: true, cookingMinutes: null, busy: null, avoids: [] });
    expect(res.json.days[1]).to.deep.equal({ date: '2026-11-24', cookedAtHome: true, cookingMinutes: 30, busy: null, avoids: ['nøtter'] });
    expect(res.json.days[3]).to.include({ date: '2026-11-26', cookedAtHome: false });
    const { client: stranger } = await server.signedIn('Owner');
    expect((await stranger.get(`${base}/plans/${plan.id}/evenings`)).json.code).to.equal('household_not_found');
    expect((await owner.get(`${base}/plans/00000000-0000-4000-8000-000000000000/evenings`)).json.code).to.equal('plan_not_found');
  });

  it('offers the recipes for a day, what fits the guests\' avoids and the evening\'s time first', async () => {
    const { owner, base, plan, add } = await week();
    await owner.post(`${base}/events`, eventBody('2026-11-24', 'Guests', { availableCookingMinutes: 30, guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: ['nøtter'] }] }));
    const slow = await add('Lasagne', 75);
    const nutty = await add('Nøttestek', 25, ['Valnøtter', 'Løk']);
    const quick = await add('Omelett', 15, ['Egg'], ['hverdag']);
    const unknown = await add('Suppe', null);
    const res = await owner.get(`${base}/plans/${plan.id}/days/2026-11-24/choices`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.include({ date: '2026-11-24', cookingMinutes: 30, more: false });
    expect(res.json.items.map((i: { recipeId: string }) => i.recipeId)).to.deep.equal([quick, slow, nutty, unknown]);
    expect(res.json.items[0]).to.deep.equal({ recipeId: quick, title: 'Omelett', minutes: 15, tags: ['hverdag'], image: null, fits: true, tooLong: false, clash: null });
    expect(res.json.items[1]).to.include({ fits: false, tooLong: true });
    expect(res.json.items[2]).to.deep.include({ fits: false, tooLong: false, clash: { avoid: 'nøtter', ingredient: 'Valnøtter' } });
    expect(res.json.items[3]).to.include({ fits: false, tooLong: true, minutes: null });
    // On a day without limits everything fits, by title; q narrows by title, ingredient or tag.
    const free = await owner.get(`${base}/plans/${plan.id}/days/2026-11-25/choices?q=EGG`);
    expect(free.json.items.map((i: { title: string }) => i.title)).to.deep.equal(['Omelett']);
    const limited = await owner.get(`${base}/plans/${plan.id}/days/2026-11-25/choices?limit=2`);
    expect(limited.json.items.map((i: { title: string; fits: boolean }) => [i.title, i.fits])).to.deep.equal([['Lasagne', true], ['Nøttestek', true]]);
    expect(limited.json.more).to.equal(true);
    expect((await owner.get(`${base}/plans/${plan.id}/days/2026-12-01/choices`)).json.code).to.equal('date_outside_week');
    expect((await owner.get(`${base}/plans/${plan.id}/days/2026-11-25/choices?limit=201`)).status).to.equal(400);
  });

  it('moves a dish to another day, swapping with the dish there; refuses a move into the guests\' avoids and writes nothing', async () => {
    const { owner, base, plan, add } = await week();
    const taco = await add('Taco', 30);
    const nutty = await add('Nøttestek', 25, ['Valnøtter']);
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: taco, portions: 5, note: 'Bursdag' });
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-25`, { recipeId: nutty, portions: null, note: null });
    const moved = await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-25' });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.json.days[0]).to.include({ recipeId: nutty, portionsOverride: 5, note: 'Bursdag' });
    expect(moved.json.days[2]).to.include({ recipeId: taco, recipeTitle: 'Taco', portionsOverride: null });
    // Nøttestek may not go where the guests avoid nuts, nor may a swap bring it there.
    await owner.post(`${base}/events`, eventBody('2026-11-27', 'Guests', { guests: [{ guestType: 'Adult', guestCount: 1, dietaryNotes: null, avoids: ['nøtter'] }] }));
    const refused = await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-27' });
    expect([refused.status, refused.json.code, refused.json.recipeTitle]).to.deep.equal([409, 'avoid_conflict', 'Nøttestek']);
    await owner.post(`${base}/plans/${plan.id}/days/2026-11-25/move`, { to: '2026-11-27' });
    const swapBack = await owner.post(`${base}/plans/${plan.id}/days/2026-11-27/move`, { to: '2026-11-23' });
    expect([swapBack.status, swapBack.json.code]).to.deep.equal([409, 'avoid_conflict']);
    const after = (await owner.get(`${base}/plans/${plan.id}`)).json;
    expect(after.days.map((d: { recipeId: string | null }) => d.recipeId)).to.deep.equal([nutty, null, null, null, taco, null, null]);
    // A day without a dish has nothing to move; a date outside the week is refused.
    expect((await owner.post(`${base}/plans/${plan.id}/days/2026-11-24/move`, { to: '2026-11-25' })).json.code).to.equal('no_dish_to_move');
    expect((await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-12-01' })).json.code).to.equal('date_outside_week');
    expect((await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-23' })).json.days[0].recipeId).to.equal(nutty);
    // A Junior reads the evenings, but neither lists a day's choices nor moves a dish; nothing moves.
    const { client: junior } = await server.signedIn('Junior');
    const code = (await owner.post(`${base}/invites`, { role: 'Junior' })).json.code;
    await junior.post('/api/v1/invites/accept', { code });
    expect((await junior.get(`${base}/plans/${plan.id}/evenings`)).status).to.equal(200);
    expect((await junior.get(`${base}/plans/${plan.id}/days/2026-11-23/choices`)).json.code).to.equal('adults_only');
    const juniorMove = await junior.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-24' });
    expect([juniorMove.status, juniorMove.json.code]).to.deep.equal([403, 'adults_only']);
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[0].recipeId).to.equal(nutty);
  });

  it('replays a move sent twice under one Idempotency-Key: the first answer again, and the dishes are not swapped back', async () => {
    const { owner, base, plan, add } = await week();
    const taco = await add('Taco', 30);
    const fish = await add('Fiskesuppe', 35);
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: taco, portions: null, note: null });
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-24`, { recipeId: fish, portions: null, note: null });
    const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });
    const key = randomUUID();
    const first = await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-24' }, keyed(key));
    expect(first.status, first.text).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    expect(first.json.days.slice(0, 2).map((d: { recipeId: string | null }) => d.recipeId)).to.deep.equal([fish, taco]);
    // A phone that lost the answer sends the same move again: run again, it would swap the two back.
    const again = await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-24' }, keyed(key));
    expect(again.status, again.text).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.json).to.deep.equal(first.json);
    const stored = (await owner.get(`${base}/plans/${plan.id}`)).json;
    expect(stored.days.slice(0, 2).map((d: { recipeId: string | null }) => d.recipeId)).to.deep.equal([fish, taco]);
    // The same key for another move is refused, and nothing moves.
    const reused = await owner.post(`${base}/plans/${plan.id}/days/2026-11-23/move`, { to: '2026-11-25' }, keyed(key));
    expect(reused.status, reused.text).to.equal(422);
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days.slice(0, 3).map((d: { recipeId: string | null }) => d.recipeId)).to.deep.equal([fish, taco, null]);
  });
});
