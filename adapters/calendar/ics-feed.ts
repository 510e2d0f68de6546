import ICAL from 'ical.js';

/** A recurring (or single) event with the overridden occurrences (RECURRENCE-ID) that belong to it. */
export interface Series {
  readonly master: ICAL.Event;
  readonly overrides: readonly ICAL.Event[];
}

/** A feed parsed once and kept while cached; expanded per window. */
export type ParsedFeed = readonly Series[];

export class FeedUnparsable extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'FeedUnparsable';
  }
}

/**
 * Parse iCalendar text into its series. Text that is not iCalendar throws FeedUnparsable; single events that are
 * broken (no DTSTART, bad dates) are dropped so one bad entry does not blind the whole feed.
 */
export function parseFeed(text: string): ParsedFeed {
  const calendars = readCalendars(text.replace(/^\uFEFF/, ''));
  return calendars.flatMap((calendar) => {
    dropUnsafeTimezones(calendar);
    return seriesOf(calendar.getAllSubcomponents('vevent'));
  });
}

function readCalendars(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (e) {
    throw new FeedUnparsable(e instanceof Error ? e.message : 'not iCalendar');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new FeedUnparsable('empty');
  // One root parses to a jCal component, several to a list of them.
  const roots: unknown[] = typeof parsed[0] === 'string' ? [parsed] : parsed;
  return roots.map((jcal) => {
    const component = new ICAL.Component(jcal as unknown[]);
    if (component.name !== 'vcalendar') throw new FeedUnparsable(`a ${component.name}, not a vcalendar`);
    return component;
  });
}

/**
 * ical.js expands a VTIMEZONE's rules year by year up to the year asked; a hostile FREQ=SECONDLY rule there would
 * spin for hours. Real zones change at most twice a year with YEARLY rules, so any other zone is dropped and its
 * TZID is then read as an IANA name (or as floating time).
 */
function dropUnsafeTimezones(calendar: ICAL.Component): void {
  for (const zone of calendar.getAllSubcomponents('vtimezone')) {
    const safe = zone.getAllSubcomponents().every((change) =>
      change.getAllProperties('rrule').every((p) => {
        const rule = p.getFirstValue();
        return rule instanceof ICAL.Recur && rule.freq === 'YEARLY' && (rule.parts.BYMONTH?.length ?? 0) <= 1 && (rule.parts.BYDAY?.length ?? 0) <= 1;
      }),
    );
    if (!safe) calendar.removeSubcomponent(zone);
  }
}

function seriesOf(vevents: ICAL.Component[]): Series[] {
  const masters = new Map<string, { master: ICAL.Event; overrides: ICAL.Event[] }>();
  const all: { master: ICAL.Event; overrides: ICAL.Event[] }[] = [];
  const overrides: ICAL.Event[] = [];
  for (const vevent of vevents) {
    try {
      if (!(vevent.getFirstPropertyValue('dtstart') instanceof ICAL.Time)) continue;
      // Exceptions are related by hand: ical.js would relate every RECURRENCE-ID of the calendar, whatever its UID.
      const event = new ICAL.Event(vevent, { exceptions: [] });
      if (vevent.hasProperty('recurrence-id')) {
        if (event.recurrenceId instanceof ICAL.Time) overrides.push(event);
        continue;
      }
      const series = { master: event, overrides: [] };
      all.push(series);
      if (!masters.has(event.uid)) masters.set(event.uid, series);
    } catch {
      // A value ical.js cannot read (a malformed date, say): skip this entry only.
    }
  }
  for (const override of overrides) {
    const series = masters.get(override.uid);
    if (series) {
      series.master.relateException(override);
      series.overrides.push(override);
    } else {
      // An invitation to one occurrence of someone else's series arrives without its master.
      all.push({ master: override, overrides: [] });
    }
  }
  return all;
}
