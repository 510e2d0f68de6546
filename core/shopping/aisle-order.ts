import { AISLES, type Aisle } from '../pantry/model.js';

/**
 * The order of a store's aisles as a household walks it, learned from the order in which lines were ticked on
 * finished trips. Pure: the same trips and hand order give the same answer. docs/shopping-aisles.md states it in
 * words, with the parameters below.
 */

/** The store of a household that has chosen no chain. */
export const MY_STORE = 'my-store';
/** Ticks are kept for this many trips (lists) per store; older ones are pruned as new ones come. */
export const TRIPS_KEPT = 20;
/** The order is learned from this many of the store's newest finished trips. */
export const TRIPS_LEARNED_FROM = 10;
/** A trip weighs this much of the trip after it (the newest weighs 1): a walk that changes takes over in two trips. */
export const TRIP_WEIGHT_DECAY = 0.6;
/** An aisle takes its learned place once ticked on this many of the finished trips; before that, its default place. */
export const TRIPS_TO_LEARN = 2;

/** Where an aisle's place comes from: ticks on finished trips, the default walk, or a person's hand. */
export const AISLE_SOURCES = ['Learned', 'Default', 'Hand'] as const;
export type AisleSource = (typeof AISLE_SOURCES)[number];

export interface PlacedAisle {
  readonly aisle: Aisle;
  readonly source: AisleSource;
}

export type { FinishedTrip, HandOrder } from './types.js';
import type { FinishedTrip, HandOrder } from './types.js';

export interface AisleOrder {
  /** The order to show: the hand order while one is set, else `learned`. */
  readonly aisles: readonly PlacedAisle[];
  /** The order the ticks teach, whether or not a hand order wins over it. */
  readonly learned: readonly PlacedAisle[];
  /** How many finished trips `learned` is learned from. */
  readonly trips: number;
  readonly handSetAt: Date | null;
}

/** A tick of a finished trip, as a store reads it: `seq` orders the ticks (a later tick has a greater one). */
export interface TripTick {
  readonly listId: string;
  readonly finishedAt: Date;
  readonly aisle: string;
  readonly seq: number;
}

/**
 * The newest `limit` trips of a store's ticks, newest finished first (trips finished at the same instant: the one
 * ticked last first), each with its aisles in tick order.
 */
export function newestTrips(ticks: readonly TripTick[], limit: number): FinishedTrip[] {
  const trips = new Map<string, { trip: { listId: string; finishedAt: Date; aisles: string[] }; last: number }>();
  for (const t of [...ticks].sort((a, b) => a.seq - b.seq)) {
    const held = trips.get(t.listId) ?? { trip: { listId: t.listId, finishedAt: t.finishedAt, aisles: [] }, last: t.seq };
    held.trip.aisles.push(t.aisle);
    trips.set(t.listId, { ...held, last: t.seq });
  }
  return [...trips.values()]
    .sort((a, b) => b.trip.finishedAt.getTime() - a.trip.finishedAt.getTime() || b.last - a.last)
    .slice(0, limit)
    .map((h) => h.trip);
}

const isAisle = (s: string): s is Aisle => (AISLES as readonly string[]).includes(s);

/** The store a household's ticks belong to: its first chosen chain (its main store), else MY_STORE. */
export const storeOf = (household: { readonly chains: readonly string[] }): string => household.chains[0] ?? MY_STORE;

/** Every aisle exactly once: what a hand order must be. */
export const isWholeAisleOrder = (aisles: readonly string[]): aisles is readonly Aisle[] =>
  aisles.length === AISLES.length && AISLES.every((a) => aisles.includes(a));

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Where in one trip each aisle was: its ticks' median place, from 0 (the trip's first tick) to 1 (its last); a trip
 * of one tick puts it at 0.5. The median, so that one line fetched on the way back does not move the aisle.
 */
export function tripPlaces(ticked: readonly string[]): Map<Aisle, number> {
  const known = ticked.filter(isAisle);
  const places = new Map<Aisle, number[]>();
  known.forEach((aisle, i) => {
    const at = known.length === 1 ? 0.5 : i / (known.length - 1);
    places.set(aisle, [...(places.get(aisle) ?? []), at]);
  });
  return new Map([...places].map(([aisle, at]) => [aisle, median(at)]));
}

/**
 * The learned order from finished trips, newest first (only the first TRIPS_LEARNED_FROM count). Each aisle's place
 * is the weighted mean of its places on the trips it was ticked on, trip k (0 the newest) weighing
 * TRIP_WEIGHT_DECAY^k. An aisle ticked on at least TRIPS_TO_LEARN trips is Learned and sorted by its place (ties
 * by the default order); any other aisle is Default and goes right after the aisle it follows in the default
 * order (the first default aisle first).
 */
export function learnedOrder(trips: readonly FinishedTrip[]): PlacedAisle[] {
  const sums = new Map<Aisle, { weighted: number; weight: number; trips: number }>();
  trips.slice(0, TRIPS_LEARNED_FROM).forEach((trip, k) => {
    const w = TRIP_WEIGHT_DECAY ** k;
    for (const [aisle, place] of tripPlaces(trip.aisles)) {
      const s = sums.get(aisle) ?? { weighted: 0, weight: 0, trips: 0 };
      sums.set(aisle, { weighted: s.weighted + w * place, weight: s.weight + w, trips: s.trips + 1 });
    }
  });
  const placeOf = (a: Aisle) => sums.get(a)!.weighted / sums.get(a)!.weight;
  const learned = AISLES.filter((a) => (sums.get(a)?.trips ?? 0) >= TRIPS_TO_LEARN).sort((a, b) => placeOf(a) - placeOf(b) || AISLES.indexOf(a) - AISLES.indexOf(b));
  const order: PlacedAisle[] = learned.map((aisle) => ({ aisle, source: 'Learned' }));
  AISLES.forEach((aisle, i) => {
    if (learned.includes(aisle)) return;
    const after = i === 0 ? -1 : order.findIndex((p) => p.aisle === AISLES[i - 1]);
    order.splice(after + 1, 0, { aisle, source: 'Default' });
  });
  return order;
}

/**
 * The order of a store: a hand order, while set, wins whole (every aisle Hand); the learned order goes on being
 * learned beneath it and is answered as `learned`, so that forgetting the hand order returns to it at once.
 */
export function aisleOrderOf(trips: readonly FinishedTrip[], hand: HandOrder | null): AisleOrder {
  const learned = learnedOrder(trips);
  return {
    aisles: hand ? hand.aisles.map((aisle) => ({ aisle, source: 'Hand' })) : learned,
    learned,
    trips: Math.min(trips.length, TRIPS_LEARNED_FROM),
    handSetAt: hand?.setAt ?? null,
  };
}
