import { expect } from 'chai';
import { AISLES } from '../../core/pantry/model.js';
import { aisleOrderOf, isWholeAisleOrder, learnedOrder, MY_STORE, newestTrips, storeOf, tripPlaces, type FinishedTrip } from '../../core/shopping/aisle-order.js';

/** Trips newest first, each ticked in the order given. */
const trips = (...ticked: string[][]): FinishedTrip[] => ticked.map((aisles, i) => ({ listId: `list-${i}`, finishedAt: new Date(Date.UTC(2026, 4, 30 - i)), aisles }));
const order = (placed: readonly { aisle: string }[]) => placed.map((p) => p.aisle);
const sources = (placed: readonly { aisle: string; source: string }[]) => Object.fromEntries(placed.map((p) => [p.aisle, p.source]));

// The walk of one store: bread by the door, then chilled, then fruit, then the rest.
const WALK = ['Bakery', 'Dairy', 'Meat', 'Produce', 'Dry', 'Frozen', 'Other'];

describe('aisle order', () => {
  it('a new household has the default order (a typical Norwegian supermarket: fruit and vegetables first)', () => {
    const o = aisleOrderOf([], null);
    expect(order(o.aisles)).to.deep.equal([...AISLES]);
    expect(o.aisles.every((p) => p.source === 'Default')).to.equal(true);
    expect(o).to.include({ trips: 0, handSetAt: null });
    expect(storeOf({ chains: [] })).to.equal(MY_STORE);
    expect(storeOf({ chains: ['Rema 1000', 'Kiwi'] })).to.equal('Rema 1000');
  });

  it('three finished trips ticked in a consistent order give that order', () => {
    const trip = WALK.flatMap((a) => [a, a]);
    const o = aisleOrderOf(trips(trip, trip, trip), null);
    expect(order(o.aisles)).to.deep.equal(WALK);
    expect(o.aisles.every((p) => p.source === 'Learned')).to.equal(true);
    expect(o.trips).to.equal(3);
  });

  it('settles after two trips: one trip alone leaves the default order', () => {
    expect(order(learnedOrder(trips(WALK)))).to.deep.equal([...AISLES]);
    expect(order(learnedOrder(trips(WALK, WALK)))).to.deep.equal(WALK);
  });

  it('one line fetched on the way back does not move its aisle (the median of its ticks)', () => {
    const stray = ['Produce', 'Produce', 'Produce', 'Dairy', 'Dairy', 'Meat', 'Produce'];
    expect(order(learnedOrder(trips(stray, stray))).slice(0, 3)).to.deep.equal(['Produce', 'Dairy', 'Meat']);
    expect(tripPlaces(['Produce', 'Dairy', 'Produce']).get('Produce')).to.equal(0.5);
    expect(tripPlaces(['Dry']).get('Dry')).to.equal(0.5);
  });

  it('an aisle not seen on two trips keeps its default place after the aisle it follows in the default order', () => {
    const o = learnedOrder(trips(['Dry', 'Dairy', 'Produce'], ['Dry', 'Dairy', 'Produce', 'Frozen']));
    // Learned: Dry, Dairy, Produce. Meat follows Dairy, Bakery follows Meat, Frozen (seen once) Bakery, Other Dry.
    expect(order(o)).to.deep.equal(['Dry', 'Other', 'Dairy', 'Meat', 'Bakery', 'Frozen', 'Produce']);
    expect(sources(o)).to.deep.equal({ Dry: 'Learned', Dairy: 'Learned', Produce: 'Learned', Meat: 'Default', Bakery: 'Default', Frozen: 'Default', Other: 'Default' });
  });

  it('a changed walk takes over after two trips in the new order; one odd trip does not flip it', () => {
    const old = Array.from({ length: 9 }, () => ['Produce', 'Dairy']);
    const learnedOf = (t: FinishedTrip[]) => order(learnedOrder(t)).filter((a) => a === 'Produce' || a === 'Dairy');
    expect(learnedOf(trips(['Dairy', 'Produce'], ...old))).to.deep.equal(['Produce', 'Dairy']);
    expect(learnedOf(trips(['Dairy', 'Produce'], ['Dairy', 'Produce'], ...old))).to.deep.equal(['Dairy', 'Produce']);
  });

  it('a hand order wins whole while set; the learned order goes on beneath it', () => {
    const hand = { aisles: [...AISLES].reverse(), setAt: new Date('2026-05-05T10:00:00.000Z') };
    const o = aisleOrderOf(trips(WALK, WALK, WALK), hand);
    expect(order(o.aisles)).to.deep.equal([...AISLES].reverse());
    expect(o.aisles.every((p) => p.source === 'Hand')).to.equal(true);
    expect(order(o.learned)).to.deep.equal(WALK);
    expect(o.handSetAt).to.equal(hand.setAt);
  });

  it('a hand order holds every aisle exactly once', () => {
    expect(isWholeAisleOrder([...AISLES])).to.equal(true);
    expect(isWholeAisleOrder([...AISLES].slice(1))).to.equal(false);
    expect(isWholeAisleOrder([...AISLES.slice(1), 'Produce', 'Produce'])).to.equal(false);
    expect(isWholeAisleOrder([...AISLES.slice(1), 'Candy'])).to.equal(false);
  });

  it('ticks group into trips newest finished first (at the same instant: the one ticked last first), ticks in order', () => {
    const at = new Date('2026-05-06T18:00:00.000Z');
    const ticks = [
      { listId: 'a', finishedAt: at, aisle: 'Dairy', seq: 4 },
      { listId: 'a', finishedAt: at, aisle: 'Produce', seq: 1 },
      { listId: 'b', finishedAt: at, aisle: 'Meat', seq: 5 },
      { listId: 'c', finishedAt: new Date('2026-05-01T18:00:00.000Z'), aisle: 'Dry', seq: 9 },
    ];
    expect(newestTrips(ticks, 10)).to.deep.equal([
      { listId: 'b', finishedAt: at, aisles: ['Meat'] },
      { listId: 'a', finishedAt: at, aisles: ['Produce', 'Dairy'] },
      { listId: 'c', finishedAt: new Date('2026-05-01T18:00:00.000Z'), aisles: ['Dry'] },
    ]);
    expect(newestTrips(ticks, 1).map((t) => t.listId)).to.deep.equal(['b']);
  });
});
