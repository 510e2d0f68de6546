import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';
import { addDish, recipeBody, type PlannedWeek, type ShoppingItem } from '../support/shopping.js';

// The shopping list's asks: "the week asks before buying more".
const NOW = new Date('2026-05-04T09:00:00.000Z');
const MONDAY = '2026-05-04';
const WEDNESDAY = '2026-05-06';
const THURSDAY = '2026-05-07';

const event = (date: string, over: Record<string, unknown> = {}) => ({
  date,
  eventType: 'Guests',
  servingTime: null,
  availableCookingMinutes: null,
  notes: null,
  guests: [{ guestType: 'Adult', guestCount: 3, dietaryNotes: null, avoids: [] }],
  memberAttendance: null,
  ...over,
});

interface WouldAdd {
  foodKey: string;
  displayName: string;
  quantity: number;
  unit: string;
}

httpSuite('shopping list: the week asks before buying more', { now: NOW }, (server) => {
  const { clock } = server;

  /** A one-member household with a stew (4 servings: 400 g mince, 2 onions) planned for Wednesday, its list read once. */
  async function stewWeek() {
    const h = await server.plannedWeek(MONDAY);
    const stew = await addDish(h, recipeBody('Gryte', 4, [{ displayName: 'Kjøttdeig', quantity: 400, unit: 'g' }, { displayName: 'Løk', quantity: 2, unit: 'stk' }]));
    await plan(h, WEDNESDAY, stew.id);
    const first = await h.owner.get(h.list);
    expect(first.status, first.text).to.equal(200);
    const [mince, onion] = stew.ingredients.map((i) => i.foodKey) as [string, string];
    return { h, stew, mince, onion, first: first.json };
  }
  async function plan(h: PlannedWeek, date: string, recipeId: string | null, portions: number | null = null) {
    const res = await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${date}`, { recipeId, portions, note: null });
    expect(res.status, res.text).to.equal(200);
  }
  async function addEvent(h: PlannedWeek, body: Record<string, unknown>) {
    const res = await h.owner.post(`${h.base}/events`, body);
    expect(res.status, res.text).to.equal(201);
    return res.json as { id: string };
  }
  const amounts = (items: ShoppingItem[]) => Object.fromEntries(items.map((i) => [i.foodKey, i.requiredQuantity]));
  const dayOf = async (h: PlannedWeek, date: string) => ((await h.owner.get(`${h.base}/plans/${h.plan.id}`)).json.days as { date: string; portions: number }[]).find((d) => d.date === date)!;

  it('a guests event does not grow the list: it lists what generate would add and since when; generate applies it', async () => {
    const { h, mince, onion, first } = await stewWeek();
    expect(first).to.include({ staleSince: null });
    expect(first.wouldAdd).to.deep.equal([]);
    expect(amounts(first.items)).to.deep.equal({ [mince]: 100, [onion]: 0.5 });
    clock.set(new Date('2026-05-04T10:00:00.000Z'));
    await addEvent(h, event(WEDNESDAY));
    expect((await dayOf(h, WEDNESDAY)).portions).to.equal(4);
    const asks = await h.owner.get(h.list);
    expect(asks.status).to.equal(200);
    expect(amounts(asks.json.items)).to.deep.equal({ [mince]: 100, [onion]: 0.5 });
    expect(asks.json.staleSince).to.equal('2026-05-04T10:00:00.000Z');
    expect((asks.json.wouldAdd as WouldAdd[]).map(({ foodKey, quantity, unit }) => ({ foodKey, quantity, unit }))).to.have.deep.members([
      { foodKey: mince, quantity: 300, unit: 'g' },
      { foodKey: onion, quantity: 1.5, unit: 'pcs' },
    ]);
    expect((asks.json.wouldAdd as WouldAdd[]).map((w) => w.displayName)).to.have.members(['Kjøttdeig', 'Løk']);
    // Read again later: the same answer, since the same moment, and a 304 for the tag held.
    clock.set(new Date('2026-05-04T12:00:00.000Z'));
    const etag = asks.headers.get('etag')!;
    expect((await h.owner.get(h.list, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect((await h.owner.get(h.list)).json).to.deep.equal(asks.json);
    const generated = await h.owner.post(`${h.list}/generate`);
    expect(generated.status, generated.text).to.equal(200);
    expect(amounts(generated.json.items)).to.deep.equal({ [mince]: 400, [onion]: 2 });
    expect(generated.json).to.include({ staleSince: null });
    expect(generated.json.wouldAdd).to.deep.equal([]);
    expect((await h.owner.get(h.list)).json).to.deep.equal(generated.json);
  });

  it('events that lower portions shrink the list at once, held or not; a rise back asks again', async () => {
    const { h, mince, onion } = await stewWeek();
    const guests = await addEvent(h, event(WEDNESDAY));
    expect((await h.owner.post(`${h.list}/generate`)).status).to.equal(200);
    // The guests cancel: back to one portion at once, nothing to ask.
    expect((await h.owner.delete(`${h.base}/events/${guests.id}`)).status).to.equal(204);
    const fewer = (await h.owner.get(h.list)).json;
    expect(amounts(fewer.items)).to.deep.equal({ [mince]: 100, [onion]: 0.5 });
    expect([fewer.staleSince, fewer.wouldAdd]).to.deep.equal([null, []]);
    // Eating out closes the day: its lines go at once.
    const out = await addEvent(h, event(WEDNESDAY, { eventType: 'EatingOut', guests: null }));
    const closed = (await h.owner.get(h.list)).json;
    expect(closed.items).to.deep.equal([]);
    expect([closed.staleSince, closed.wouldAdd]).to.deep.equal([null, []]);
    // The evening at home after all: the day opens again, and the list asks before buying for it.
    clock.set(new Date('2026-05-04T11:00:00.000Z'));
    expect((await h.owner.delete(`${h.base}/events/${out.id}`)).status).to.equal(204);
    const reopened = (await h.owner.get(h.list)).json;
    expect(reopened.items).to.deep.equal([]);
    expect(reopened.staleSince).to.equal('2026-05-04T11:00:00.000Z');
    expect((reopened.wouldAdd as WouldAdd[]).map((w) => [w.foodKey, w.quantity])).to.have.deep.members([
      [mince, 100],
      [onion, 0.5],
    ]);
  });

  it('a held rise that goes away again leaves nothing to ask; absent members shrink a held day further', async () => {
    const { h, mince, onion } = await stewWeek();
    const guests = await addEvent(h, event(WEDNESDAY));
    expect((await h.owner.get(h.list)).json.wouldAdd).to.have.length(2);
    expect((await h.owner.delete(`${h.base}/events/${guests.id}`)).status).to.equal(204);
    const calm = (await h.owner.get(h.list)).json;
    expect([calm.staleSince, calm.wouldAdd]).to.deep.equal([null, []]);
    expect(amounts(calm.items)).to.deep.equal({ [mince]: 100, [onion]: 0.5 });
  });

  it('what a person plans applies at once: a new dish on a day with guests, and a portions override', async () => {
    const { h, stew, mince, onion } = await stewWeek();
    // Guests on Thursday, before any dish: the list was not made for Thursday, so its dish counts the guests.
    await addEvent(h, event(THURSDAY));
    const soup = await addDish(h, recipeBody('Suppe', 2, [{ displayName: 'Linser', quantity: 200, unit: 'g' }]));
    await plan(h, THURSDAY, soup.id);
    const lentils = soup.ingredients[0]!.foodKey;
    const withSoup = (await h.owner.get(h.list)).json;
    expect(amounts(withSoup.items)).to.deep.equal({ [mince]: 100, [onion]: 0.5, [lentils]: 400 });
    expect([withSoup.staleSince, withSoup.wouldAdd]).to.deep.equal([null, []]);
    // Guests on Wednesday ask; setting Wednesday's portions on the plan is a person's choice and applies.
    await addEvent(h, event(WEDNESDAY));
    expect((await h.owner.get(h.list)).json.wouldAdd).to.have.length(2);
    await plan(h, WEDNESDAY, stew.id, 8);
    const set = (await h.owner.get(h.list)).json;
    expect(amounts(set.items)).to.deep.equal({ [mince]: 800, [onion]: 4, [lentils]: 400 });
    expect([set.staleSince, set.wouldAdd]).to.deep.equal([null, []]);
  });

  it('a new member raises every planned day: the list asks rather than grows', async () => {
    const { h, mince, onion } = await stewWeek();
    await h.join('Adult');
    const asks = (await h.owner.get(h.list)).json;
    expect(amounts(asks.items)).to.deep.equal({ [mince]: 100, [onion]: 0.5 });
    expect((asks.wouldAdd as WouldAdd[]).map((w) => [w.foodKey, w.quantity])).to.have.deep.members([
      [mince, 100],
      [onion, 0.5],
    ]);
  });

  it('two members generating at the same time apply it once, keeping a hand-added line once', async () => {
    const { h, mince, onion } = await stewWeek();
    const adult = (await h.join('Adult')).client;
    expect((await h.owner.post(`${h.list}/generate`)).status).to.equal(200);
    const soap = (await h.owner.post(`${h.list}/items`, { displayName: 'Oppvaskmiddel' })).json as ShoppingItem;
    await addEvent(h, event(WEDNESDAY));
    const asked = (await h.owner.get(h.list)).json;
    expect(asked.wouldAdd).to.have.length(2);
    const both = await Promise.all([h.owner.post(`${h.list}/generate`), adult.post(`${h.list}/generate`)]);
    expect(both.map((r) => r.status)).to.deep.equal([200, 200]);
    // Two members and three guests: five portions of a four-serving stew, not eight.
    const expected = { [mince]: 500, [onion]: 2.5, [soap.foodKey]: 1 };
    for (const r of both) {
      expect(amounts(r.json.items)).to.deep.equal(expected);
      expect([r.json.staleSince, r.json.wouldAdd]).to.deep.equal([null, []]);
    }
    const after = (await h.owner.get(h.list)).json;
    expect(amounts(after.items)).to.deep.equal(expected);
    expect((after.items as ShoppingItem[]).filter((i) => i.displayName === 'Oppvaskmiddel')).to.have.length(1);
  });

  it('documents staleSince and wouldAdd in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }>; description: string }>>;
    };
    const get = doc.paths['/api/v1/households/{householdId}/plans/{planId}/shopping-list']!['get']!;
    const schema = get.responses['200']!.content!['application/json']!.schema;
    expect(schema.required).to.include.members(['staleSince', 'wouldAdd']);
    expect(JSON.stringify(schema.properties['wouldAdd'])).to.include('foodKey').and.include('quantity');
    expect(get.description).to.include('asks before buying more');
  });
});
