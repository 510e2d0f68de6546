import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';

const recipe = (title: string) => ({ title, servings: 4, activeMinutes: 20, totalMinutes: 40, steps: ['Lag maten'], ingredients: [{ displayName: 'Poteter', quantity: 1, unit: 'kg', optional: false, baseRecipeId: null, reference: null }] });
const eventBody = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null, ...extra,
});

httpSuite('weekly plans', {}, (server) => {
  async function household() {
    const { client } = await server.signedIn('Owner');
    const h = (await client.post('/api/v1/households', { name: 'Hansen' })).json;
    return { owner: client, h, base: `/api/v1/households/${h.id}` };
  }
  async function junior(owner: Client, base: string) {
    const { client } = await server.signedIn('Junior');
    const code = (await owner.post(`${base}/invites`, { role: 'Junior' })).json.code;
    await client.post('/api/v1/invites/accept', { code });
    return client;
  }

  it('gets or creates the plan of the week holding any of its dates, retry-safe', async () => {
    const { owner, h, base } = await household();
    const res = await owner.put(`${base}/plans/week/2026-11-26`);
    expect(res.status).to.equal(200);
    expect(res.json).to.include({ householdId: h.id, weekStart: '2026-11-23' });
    expect(Object.keys(res.json).sort()).to.deep.equal(['days', 'householdId', 'id', 'updatedAt', 'weekStart']);
    expect(res.json.days.map((d: { date: string }) => d.date)).to.deep.equal(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(res.json.days[0]).to.include({ recipeId: null, recipeTitle: null, portions: 1, portionsOverride: null, cookedAtHome: true, note: null });
    const again = await owner.put(`${base}/plans/week/2026-11-29`);
    expect(again.json.id).to.equal(res.json.id);
    const parallel = await Promise.all([0, 1, 2].map(() => owner.put(`${base}/plans/week/2026-12-01`)));
    expect(new Set(parallel.map((p) => p.json.id)).size).to.equal(1);
    expect((await owner.get(`${base}/plans/${res.json.id}`)).json.id).to.equal(res.json.id);
    expect((await owner.put(`${base}/plans/week/2026-02-30`)).status).to.equal(400);
  });

  it('sets and clears a day: a household recipe, portions, a note; a date outside the week gives 400', async () => {
    const { owner, base } = await household();
    const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
    const dish = (await owner.post(`${base}/recipes`, recipe('Fiskegrateng'))).json;
    const set = await owner.put(`${base}/plans/${plan.id}/days/2026-11-25`, { recipeId: dish.id, portions: 6, note: 'Besøk' });
    expect(set.status, set.text).to.equal(200);
    expect(set.json).to.include({ date: '2026-11-25', recipeId: dish.id, recipeTitle: 'Fiskegrateng', portions: 6, portionsOverride: 6, note: 'Besøk' });
    expect(set.json.id).to.equal(plan.days[2].id);
    const outside = await owner.put(`${base}/plans/${plan.id}/days/2026-12-01`, { recipeId: null, portions: null, note: null });
    expect([outside.status, outside.json.code]).to.deep.equal([400, 'date_outside_week']);
    const foreign = await household();
    const theirs = (await foreign.owner.post(`${foreign.base}/recipes`, recipe('Deres'))).json;
    expect((await owner.put(`${base}/plans/${plan.id}/days/2026-11-25`, { recipeId: theirs.id, portions: null, note: null })).json.code).to.equal('recipe_not_found');
    expect((await owner.put(`${base}/plans/${plan.id}/days/2026-11-25`, { recipeId: null, portions: 0, note: null })).status).to.equal(400);
    expect((await owner.delete(`${base}/plans/${plan.id}/days/2026-11-25`)).status).to.equal(204);
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[2]).to.include({ recipeId: null, portions: 1, portionsOverride: null, note: null });
  });

  it('a deleted recipe leaves the day without a dish', async () => {
    const { owner, base } = await household();
    const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
    const dish = (await owner.post(`${base}/recipes`, recipe('Taco'))).json;
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-27`, { recipeId: dish.id, portions: null, note: 'fredag' });
    expect((await owner.delete(`${base}/recipes/${dish.id}`)).status).to.equal(204);
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[4]).to.include({ recipeId: null, recipeTitle: null, note: 'fredag' });
  });

  it('derives portions from members and events: guests, absences, eating out; exposes avoids; guests make the list stale', async () => {
    const { owner, h, base } = await household();
    await junior(owner, base);
    await owner.post(`${base}/members`, { displayName: 'Baby Named', role: 'Junior' });
    const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
    expect(plan.days[0].portions).to.equal(3);
    const ownerMemberId = h.members[0].id;
    const guests = await owner.post(`${base}/events`, eventBody('2026-11-24', 'Guests', {
      guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: ['Peanøtter'] }, { guestType: 'Child', guestCount: 1, dietaryNotes: null, avoids: null }],
    }));
    expect(guests.status, guests.text).to.equal(201);
    await owner.post(`${base}/events`, eventBody('2026-11-25', 'PersonAbsent', { memberAttendance: [{ householdMemberId: ownerMemberId, isPresent: false, dietaryNotes: null }] }));
    await owner.post(`${base}/events`, eventBody('2026-11-26', 'EatingOut'));
    const after = (await owner.get(`${base}/plans/${plan.id}`)).json;
    expect(after.days[1]).to.include({ portions: Math.ceil(3 + 2 + 0.5), cookedAtHome: true });
    expect(after.days[1].avoids).to.deep.equal(['Peanøtter']);
    expect(after.days[1].events).to.deep.equal([guests.json.id]);
    expect(after.days[2].portions).to.equal(2);
    expect(after.days[3]).to.include({ portions: 0, cookedAtHome: false });
    // An override does not reopen a closed day.
    await owner.put(`${base}/plans/${plan.id}/days/2026-11-26`, { recipeId: null, portions: 5, note: null });
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[3]).to.include({ portions: 0, portionsOverride: 5 });
  });

  describe("guests' avoids as hard constraints", () => {
    const line = (displayName: string, over: Record<string, unknown> = {}) => ({ displayName, quantity: 1, unit: 'stk', optional: false, baseRecipeId: null, reference: null, ...over });
    const dishOf = async (c: Client, base: string, title: string, ingredients: unknown[]) => {
      const res = await c.post(`${base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients });
      expect(res.status, res.text).to.equal(201);
      return res.json as { id: string };
    };
    const guests = (avoids: string[], dietaryNotes: string | null = null) => ({ guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes, avoids }] });
    const day = (plan: { id: string }, date: string) => `/plans/${plan.id}/days/${date}`;
    const expectConflict = (res: { status: number; json: Record<string, unknown>; text: string; headers: Headers }, fields: Record<string, unknown>) => {
      expect(res.status, res.text).to.equal(409);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.json).to.deep.include({ code: 'avoid_conflict', ...fields });
      expect(res.json.detail).to.be.a('string');
    };

    it('PUT day refuses a dish whose ingredient, or its base recipe\'s, breaks the day\'s avoids (409 avoid_conflict); a safe dish is set with serving notes', async () => {
      const { owner, base } = await household();
      const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
      expect((await owner.post(`${base}/events`, eventBody('2026-11-25', 'Guests', guests(['nøtter', 'Laktose'], 'Kari er vegetarianer')))).status).to.equal(201);
      const pesto = await dishOf(owner, base, 'Pasta med pesto', [line('Pasta'), line('Hasselnøtter, hakket', { optional: true })]);
      const sauce = await dishOf(owner, base, 'Hvit saus', [line('Kremfløte')]);
      const gratin = await dishOf(owner, base, 'Grateng', [line('Poteter'), line('Saus', { quantity: 1, unit: null, baseRecipeId: sauce.id })]);
      const soup = await dishOf(owner, base, 'Linsesuppe', [line('Røde linser'), line('Løk')]);
      const refused = await owner.put(`${base}${day(plan, '2026-11-25')}`, { recipeId: pesto.id, portions: null, note: null });
      expectConflict(refused, { date: '2026-11-25', recipeId: pesto.id, recipeTitle: 'Pasta med pesto', avoid: 'nøtter', ingredient: 'Hasselnøtter, hakket' });
      expectConflict(await owner.put(`${base}${day(plan, '2026-11-25')}`, { recipeId: gratin.id, portions: null, note: null }), { avoid: 'Laktose', ingredient: 'Kremfløte', recipeTitle: 'Grateng' });
      expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[2]).to.include({ recipeId: null });
      // Another day has no guests: the same dish is fine there.
      expect((await owner.put(`${base}${day(plan, '2026-11-26')}`, { recipeId: pesto.id, portions: null, note: null })).status).to.equal(200);
      const safe = await owner.put(`${base}${day(plan, '2026-11-25')}`, { recipeId: soup.id, portions: null, note: null });
      expect(safe.status, safe.text).to.equal(200);
      expect(safe.json.servingNotes).to.deep.equal(['Hele bordet unngår i dag: nøtter, Laktose.', 'Gjester (2): Kari er vegetarianer']);
      expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[3].servingNotes).to.deep.equal([]);
    });

    it('an event whose avoids the day\'s dish breaks is refused with nothing written, unless replaceDish clears the dish (create, PATCH, runs)', async () => {
      const { owner, base } = await household();
      const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
      const shrimp = await dishOf(owner, base, 'Rekesalat', [line('Kongereker'), line('Majones')]);
      for (const date of ['2026-11-24', '2026-11-25']) expect((await owner.put(`${base}${day(plan, date)}`, { recipeId: shrimp.id, portions: 5, note: 'Fredagsmat' })).status).to.equal(200);
      const events = async () => (await owner.get(`${base}/events?from=2026-11-23&to=2026-11-29`)).json.items as { id: string }[];

      expectConflict(await owner.post(`${base}/events`, eventBody('2026-11-24', 'Guests', guests(['skalldyr']))), { date: '2026-11-24', avoid: 'skalldyr', ingredient: 'Kongereker', recipeTitle: 'Rekesalat' });
      expectConflict(await owner.post(`${base}/events/run`, { from: '2026-11-23', through: '2026-11-25', ...eventBody('x', 'Guests', guests(['egg'])), date: undefined }), { date: '2026-11-24', avoid: 'egg', ingredient: 'Majones' });
      expect(await events()).to.deep.equal([]);

      // An event without avoids is fine; PATCH giving it an avoid the dish breaks is refused and leaves it as it was.
      const plain = await owner.post(`${base}/events`, eventBody('2026-11-24', 'Guests', guests([])));
      expect(plain.status).to.equal(201);
      expectConflict(await owner.patch(`${base}/events/${plain.json.id}`, eventBody('2026-11-24', 'Guests', guests(['shellfish']))), { avoid: 'shellfish', ingredient: 'Kongereker' });
      expectConflict(await owner.patch(`${base}/events/run`, { ids: [plain.json.id], days: [eventBody('2026-11-24', 'Guests', guests(['reker']))] }), { avoid: 'reker' });
      expect((await owner.get(`${base}/events?from=2026-11-24&to=2026-11-24`)).json.items[0].participants[0].avoids).to.deep.equal([]);

      // replaceDish: written, and the day loses its dish but keeps its portions override and note.
      const replaced = await owner.patch(`${base}/events/${plain.json.id}`, { ...eventBody('2026-11-24', 'Guests', guests(['skalldyr'])), replaceDish: true });
      expect(replaced.status, replaced.text).to.equal(200);
      const days = (await owner.get(`${base}/plans/${plan.id}`)).json.days;
      expect(days[1]).to.include({ recipeId: null, portionsOverride: 5, note: 'Fredagsmat' });
      expect(days[1].servingNotes).to.deep.equal(['Hele bordet unngår i dag: skalldyr.']);
      expect(days[2]).to.include({ recipeId: shrimp.id });
      const run = await owner.post(`${base}/events/run`, { from: '2026-11-25', through: '2026-11-26', ...eventBody('x', 'Guests', guests(['egg'])), date: undefined, replaceDish: true });
      expect(run.status, run.text).to.equal(201);
      expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[2]).to.include({ recipeId: null, note: 'Fredagsmat' });
      // With the avoid in place, the dish cannot come back on that day.
      expectConflict(await owner.put(`${base}${day(plan, '2026-11-24')}`, { recipeId: shrimp.id, portions: null, note: null }), { avoid: 'skalldyr' });
    });

    it('refuses a replaceDish that is no boolean (400), changing nothing', async () => {
      const { owner, base } = await household();
      for (const replaceDish of ['yes', 1, null]) {
        const res = await owner.post(`${base}/events`, { ...eventBody('2026-11-24', 'Guests', guests(['nøtter'])), replaceDish });
        expect([res.status, res.json.code], String(replaceDish)).to.deep.equal([400, 'validation_failed']);
      }
      expect((await owner.get(`${base}/events`)).json.items).to.deep.equal([]);
    });
  });

  it('lets any member read, adults write; others get 404', async () => {
    const { owner, base } = await household();
    const kid = await junior(owner, base);
    const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
    expect((await kid.get(`${base}/plans/${plan.id}`)).status).to.equal(200);
    expect((await kid.get(`${base}/plans?from=2026-11-20&to=2026-12-20`)).json.map((p: { id: string }) => p.id)).to.deep.equal([plan.id]);
    for (const r of [await kid.put(`${base}/plans/week/2026-11-30`), await kid.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: null, portions: 2, note: null }), await kid.delete(`${base}/plans/${plan.id}/days/2026-11-23`)]) {
      expect([r.status, r.json.code]).to.deep.equal([403, 'adults_only']);
    }
    const stranger = await household();
    expect((await stranger.owner.get(`${base}/plans/${plan.id}`)).status).to.equal(404);
    expect((await stranger.owner.get(`${stranger.base}/plans/${plan.id}`)).json.code).to.equal('plan_not_found');
    expect((await owner.get(`${base}/plans/${randomUUID()}`)).json.code).to.equal('plan_not_found');
  });

  it('lists the weeks overlapping a range, in order; a bad range gives 400', async () => {
    const { owner, base } = await household();
    const w2 = (await owner.put(`${base}/plans/week/2026-12-02`)).json;
    const w1 = (await owner.put(`${base}/plans/week/2026-11-24`)).json;
    await owner.put(`${base}/plans/week/2027-02-01`);
    const list = (await owner.get(`${base}/plans?from=2026-11-29&to=2026-12-01`)).json;
    expect(list.map((p: { id: string }) => p.id)).to.deep.equal([w1.id, w2.id]);
    expect((await owner.get(`${base}/plans?from=2026-12-01&to=2026-11-01`)).status).to.equal(400);
    expect((await owner.get(`${base}/plans?from=2026-01-01&to=2027-06-01`)).status).to.equal(400);
    expect((await owner.get(`${base}/plans?from=yesterday`)).status).to.equal(400);
  });
});
