import { memoryCalendar } from '../../adapters/memory/calendar-fetcher.js';
import type { Account } from '../../core/accounts/types.js';
import type { CalendarEvent } from '../../core/calendar/types.js';
import { createHousehold } from '../../core/households/households.js';
import { acceptInvite, createInvite } from '../../core/households/invites.js';
import { account, domain, error, value } from './support.js';

export { error, value };

type Deps = ReturnType<typeof domain>['deps'];

/** A household in Oslo with an Owner, an Adult and a Junior; the clock says Monday 4 May 2026, 11:00 in Oslo. */
export async function calendarSetup(timeZoneId = 'Europe/Oslo') {
  const { deps: base, clock } = domain();
  const calendar = memoryCalendar();
  const deps = { ...base, calendarFetcher: calendar.fetcher, outboundGuard: calendar.guard };
  const owner = await account(deps, 'owner');
  const h = value(await createHousehold(deps, owner, { name: 'Hansen', timeZoneId }));
  const householdId = h.id;
  const join = async (name: string, role: 'Adult' | 'Junior') => {
    const who = await account(deps, name);
    const invite = value(await createInvite(deps, owner, householdId, { role }));
    const m = value(await acceptInvite(deps, who, { code: invite.code }));
    return { account: who, memberId: m.memberId };
  };
  const adult = await join('adult', 'Adult');
  const junior = await join('junior', 'Junior');
  const stranger = await account(deps, 'stranger');
  return { deps, clock, calendar, owner, householdId, adult, junior, stranger };
}

export const ev = (date: string, over: Partial<CalendarEvent> = {}): CalendarEvent => ({
  title: 'Fotball',
  date,
  startTime: '17:00',
  endTime: '18:30',
  isAllDay: false,
  location: null,
  ...over,
});

