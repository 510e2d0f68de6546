import { memoryCalendar } from '../../adapters/memory/calendar-fetcher.js';
import type { Account } from '../../core/accounts/types.js';
import { account, domain, error, ownersHousehold, value } from './support.js';

export { error, value };
export { ev } from '../support/calendar-events.js';

type Deps = ReturnType<typeof domain>['deps'];

/** A household in Oslo with an Owner, an Adult and a Junior; the clock says Monday 4 May 2026, 11:00 in Oslo. */
export async function calendarSetup(timeZoneId = 'Europe/Oslo') {
  const { deps: base, clock } = domain();
  const calendar = memoryCalendar();
  const deps = { ...base, calendarFetcher: calendar.fetcher, outboundGuard: calendar.guard };
  const { owner, h, join } = await ownersHousehold(deps, timeZoneId);
  const householdId = h.id;
  const adult = await join('adult', 'Adult');
  const junior = await join('junior', 'Junior');
  const stranger = await account(deps, 'stranger');
  return { deps, clock, calendar, owner, householdId, adult, junior, stranger };
}

