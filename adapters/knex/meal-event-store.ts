import type { Knex } from 'knex';
import type { GuestType, MealEvent, MealEventParticipant, MealEventType } from '../../core/events/types.js';
import type { MealEventStore } from '../../ports/meal-event-store.js';
import { translated } from './errors.js';
import { speedOf } from './speed/index.js';
import { fromJsonText, iso, toBool, toDate, toJsonText } from './rows.js';
import { keysetAfter } from './queries.js';

export interface EventRow {
  id: string;
  household_id: string;
  date: string;
  event_type: string;
  serving_time: string | null;
  available_cooking_minutes: number | null;
  notes: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface ParticipantRow {
  id: string;
  event_id: string;
  household_member_id: string | null;
  position: number;
  is_present: boolean | number;
  guest_type: string | null;
  guest_count: number;
  dietary_notes: string | null;
  avoids: string;
}

const eventRow = (e: MealEvent): EventRow => ({
  id: e.id,
  household_id: e.householdId,
  date: e.date,
  event_type: e.eventType,
  serving_time: e.servingTime,
  available_cooking_minutes: e.availableCookingMinutes,
  notes: e.notes,
  created_at: iso(e.createdAt),
  updated_at: iso(e.updatedAt),
});

const participantRows = (e: MealEvent): ParticipantRow[] =>
  e.participants.map((p, position) => ({
    id: p.id,
    event_id: e.id,
    household_member_id: p.householdMemberId,
    position,
    is_present: p.isPresent,
    guest_type: p.guestType,
    guest_count: p.guestCount,
    dietary_notes: p.dietaryNotes,
    avoids: toJsonText(p.avoids),
  }));

export const toParticipant = (r: ParticipantRow): MealEventParticipant => ({
  id: r.id,
  householdMemberId: r.household_member_id,
  isPresent: toBool(r.is_present),
  guestType: r.guest_type as GuestType | null,
  guestCount: Number(r.guest_count),
  dietaryNotes: r.dietary_notes,
  avoids: fromJsonText<string[]>(r.avoids),
});

/** An event of its row and its participants (in the order written). */
export const toMealEvent = (r: EventRow, participants: MealEventParticipant[]): MealEvent => ({
  id: r.id,
  householdId: r.household_id,
  date: r.date,
  eventType: r.event_type as MealEventType,
  servingTime: r.serving_time,
  availableCookingMinutes: r.available_cooking_minutes === null ? null : Number(r.available_cooking_minutes),
  notes: r.notes,
  participants,
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

const ORDER = [{ column: 'date' }, { column: 'created_at' }, { column: 'id' }];
// Well below SQLite's and Postgres's bound variable limits.
const CHUNK = 200;
const chunks = <T>(xs: readonly T[]): T[][] => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

export function knexMealEventStore(knex: Knex): MealEventStore {
  const postgres = (knex.client as { config: { client: unknown } }).config.client === 'pg';

  /** The events of `rows`, in the rows' order, with their participants in the order written. */
  const withParticipants = async (db: Knex | Knex.Transaction, rows: EventRow[]): Promise<MealEvent[]> => {
    const byEvent = new Map<string, MealEventParticipant[]>(rows.map((r) => [r.id, []]));
    for (const ids of chunks(rows.map((r) => r.id))) {
      const parts = (await db<ParticipantRow>('meal_event_participants').whereIn('event_id', ids).orderBy([{ column: 'event_id' }, { column: 'position' }])) as ParticipantRow[];
      for (const p of parts) byEvent.get(p.event_id)!.push(toParticipant(p));
    }
    return rows.map((r) => toMealEvent(r, byEvent.get(r.id)!));
  };

  const insertParticipants = async (trx: Knex.Transaction, events: readonly MealEvent[]) => {
    for (const rows of chunks(events.flatMap(participantRows))) await trx('meal_event_participants').insert(rows);
  };

  return translated<MealEventStore>(knex, {
    async create(events) {
      if (events.length === 0) return;
      await knex.transaction(async (trx) => {
        for (const rows of chunks(events.map(eventRow))) await trx('meal_events').insert(rows);
        await insertParticipants(trx, events);
      });
    },
    async byId(householdId, eventId) {
      const row = (await knex<EventRow>('meal_events').where({ household_id: householdId, id: eventId }).first()) as EventRow | undefined;
      return row ? (await withParticipants(knex, [row]))[0]! : null;
    },
    async byIds(householdId, eventIds) {
      const rows: EventRow[] = [];
      for (const ids of chunks([...new Set(eventIds)])) rows.push(...((await knex<EventRow>('meal_events').where({ household_id: householdId }).whereIn('id', ids)) as EventRow[]));
      const events = await withParticipants(knex, rows);
      return events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)));
    },
    // A week's events (GET plans/{planId}, the list's derivation): kept by the read cache for the household, dropped
    // with any write to its events or their participants (list inputs: watched-tables.ts), by whichever process.
    eventsBetween: (householdId, from, to) =>
      speedOf(knex).cachedRead(`events:${householdId}:${from}:${to}`,
        async () => {
          const rows = (await knex<EventRow>('meal_events').where({ household_id: householdId }).andWhere('date', '>=', from).andWhere('date', '<=', to).orderBy(ORDER)) as EventRow[];
          return withParticipants(knex, rows);
        },
        () => true,
        householdId,
      ),
    async page(householdId, q) {
      const query = knex<EventRow>('meal_events').where({ household_id: householdId });
      if (q.from !== null) query.andWhere('date', '>=', q.from);
      if (q.to !== null) query.andWhere('date', '<=', q.to);
      const after = q.after;
      if (after !== null) {
        const at = iso(after.createdAt);
        query.andWhere((b) => keysetAfter(b, [['date', '>', after.date], ['created_at', '>', at], ['id', '>', after.id]]));
      }
      const rows = (await query.orderBy(ORDER).limit(q.limit)) as EventRow[];
      return withParticipants(knex, rows);
    },
    async rewrite(householdId, replace, remove) {
      const ids = [...new Set([...replace.map((e) => e.id), ...remove])];
      if (ids.length === 0) return true;
      return knex.transaction(async (trx) => {
        // Rows are locked in id order, so two edits of the same run queue one behind the other (no deadlock);
        // SQLite's single writer serializes them anyway.
        const found: { id: string }[] = [];
        for (const part of chunks(ids)) {
          const q = trx('meal_events').where({ household_id: householdId }).whereIn('id', part).orderBy('id').select('id');
          found.push(...((await (postgres ? q.forUpdate() : q)) as { id: string }[]));
        }
        if (found.length !== ids.length) return false;
        for (const e of replace) {
          const { id: _id, household_id: _h, created_at: _c, ...fields } = eventRow(e);
          await trx('meal_events').where({ household_id: householdId, id: e.id }).update(fields);
        }
        for (const part of chunks(replace.map((e) => e.id))) await trx('meal_event_participants').whereIn('event_id', part).delete();
        await insertParticipants(trx, replace);
        for (const part of chunks(remove)) await trx('meal_events').where({ household_id: householdId }).whereIn('id', part).delete();
        return true;
      });
    },
  }, ['eventsBetween']);
}
