import { expect } from 'chai';
import { expectProblem, httpSuite } from '../support/http-suite.js';
import type { ShoppingItem } from '../support/shopping.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const MINUTE = 60_000;
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * MINUTE).toISOString();

/**
 * Kari shops offline while Ola changes the same list online; Kari's changes reach the service later, each saying when
 * it was made (actedAt). The later action in time wins: 409 shopping_line_changed says what Ola did, or Kari's change
 * applies (a line Ola removed before it comes back).
 */
httpSuite('shopping list: the later action wins', { now: NOW }, (server) => {
  async function shoppers() {
    const h = await server.household();
    const ola = (await h.join('Adult', 'Ola')).client;
    const plan = (await h.owner.put(`${h.base}/plans/week/2026-05-04`)).json as { id: string };
    const list = `${h.base}/plans/${plan.id}/shopping-list`;
    const added = await h.owner.post(`${list}/items`, { displayName: 'servietter' });
    expect(added.status, added.text).to.equal(200);
    const item = `${h.base}/shopping-items/${(added.json as ShoppingItem).id}`;
    const lines = async () => (await h.owner.get(list)).json.items as ShoppingItem[];
    return { kari: h.owner, ola, item, lines };
  }

  it('a tick made offline before Ola removed the line answers 409 naming Ola, and the line stays removed', async () => {
    const w = await shoppers();
    server.clock.advance(MINUTE);
    expect((await w.ola.delete(w.item)).status).to.equal(204);
    const late = await w.kari.patch(`${w.item}?actedAt=${ago(-0.5)}`, { status: 'Purchased' });
    expectProblem(late, 409, 'shopping_line_changed');
    expect(late.json).to.include({ change: 'Removed', changedBy: 'Ola', changedAt: new Date(NOW.getTime() + MINUTE).toISOString(), displayName: 'servietter' });
    expect(await w.lines()).to.deep.equal([]);
    // Sent at once (no actedAt), the same tick finds no line.
    expectProblem(await w.kari.patch(w.item, { status: 'Purchased' }), 404, 'shopping_item_not_found');
  });

  it('a tick made offline after Ola removed the line puts it back, ticked', async () => {
    const w = await shoppers();
    expect((await w.ola.delete(w.item)).status).to.equal(204);
    server.clock.advance(5 * MINUTE);
    const back = await w.kari.patch(`${w.item}?actedAt=${ago(-2)}`, { status: 'Purchased' });
    expect(back.status, back.text).to.equal(200);
    expect(back.json).to.include({ displayName: 'servietter', status: 'Purchased' });
    expect((await w.lines()).map((l) => [l.displayName, l.status])).to.deep.equal([['servietter', 'Purchased']]);
  });

  it('a removal made offline before Ola ticked the line answers 409 and the line stays; one made after it removes the line', async () => {
    const w = await shoppers();
    server.clock.advance(MINUTE);
    expect((await w.ola.patch(w.item, { status: 'Purchased' })).status).to.equal(200);
    const late = await w.kari.delete(`${w.item}?actedAt=${ago(0)}`);
    expectProblem(late, 409, 'shopping_line_changed');
    expect(late.json).to.include({ change: 'Purchased', changedBy: 'Ola', displayName: 'servietter' });
    expect((await w.lines()).map((l) => l.status)).to.deep.equal(['Purchased']);
    server.clock.advance(MINUTE);
    expect((await w.kari.delete(`${w.item}?actedAt=${ago(-1.5)}`)).status).to.equal(204);
    expect(await w.lines()).to.deep.equal([]);
  });

  it('refuses an actedAt that is not a date-time, changing nothing', async () => {
    const w = await shoppers();
    expectProblem(await w.kari.patch(`${w.item}?actedAt=yesterday`, { status: 'Purchased' }), 400, 'validation_failed');
    expectProblem(await w.kari.delete(`${w.item}?actedAt=2026-13-01T00:00:00Z`), 400, 'validation_failed');
    expect((await w.lines()).map((l) => l.status)).to.deep.equal(['Buy']);
  });
});
