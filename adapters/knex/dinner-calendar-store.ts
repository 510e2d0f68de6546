import type { Knex } from 'knex';
import type { DinnerCalendarLink, DinnerCalendarStore } from '../../ports/dinner-calendar-store.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface LinkRow {
  household_id: string;
  token: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const toLink = (r: LinkRow): DinnerCalendarLink => ({ householdId: r.household_id, token: r.token, createdAt: toDate(r.created_at), updatedAt: toDate(r.updated_at) });

export function knexDinnerCalendarStore(knex: Knex): DinnerCalendarStore {
  const linkOf = async (householdId: string) => {
    const row = (await knex<LinkRow>('dinner_calendar_links').where({ household_id: householdId }).first()) as LinkRow | undefined;
    return row ? toLink(row) : null;
  };
  return translated<DinnerCalendarStore>(knex, {
    linkOf,
    async ensure(householdId, token, at) {
      // The first writer's row stands; later and concurrent ones read it.
      await knex('dinner_calendar_links').insert({ household_id: householdId, token, created_at: iso(at), updated_at: iso(at) }).onConflict('household_id').ignore();
      return (await linkOf(householdId))!;
    },
    async replace(householdId, token, at) {
      await knex('dinner_calendar_links')
        .insert({ household_id: householdId, token, created_at: iso(at), updated_at: iso(at) })
        .onConflict('household_id')
        .merge(['token', 'updated_at']);
      return (await linkOf(householdId))!;
    },
    async householdOf(token) {
      const row = (await knex('dinner_calendar_links').where({ token }).first('household_id')) as { household_id: string } | undefined;
      return row ? row.household_id : null;
    },
  });
}
