import type { DinnerCalendar } from '../../core/calendar/dinner-calendar.js';

/**
 * The dinner calendar as iCalendar text (RFC 5545), written here rather than through a generator library: one
 * fixed shape of a few properties, all times in UTC (no VTIMEZONE needed), so escaping and folding are the whole
 * of the format's difficulty and are tested against a real parser.
 */
export function dinnerCalendarIcs(calendar: DinnerCalendar): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//dinner-planner//Dinner calendar//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(calendar.householdName)}`,
    `X-WR-TIMEZONE:${text(calendar.timeZoneId)}`,
    // Subscribing clients may look again hourly (RFC 7986; X-PUBLISHED-TTL for older clients).
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  const stamp = utc(calendar.generatedAt);
  for (const d of calendar.dinners) {
    lines.push(
      'BEGIN:VEVENT',
      // Stable per household and date, whatever the dish: a changed dish updates the event, never duplicates it.
      `UID:dinner-${d.date}@${calendar.householdId}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${utc(d.start)}`,
      `DTEND:${utc(d.end)}`,
      `SUMMARY:${text(d.title)}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('');
}

/** A date-time in UTC form: 20260329T160000Z. */
const utc = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

/**
 * A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, line breaks as \n, and other control
 * characters, which TEXT cannot hold, left out.
 */
export function text(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ''); // eslint-disable-line no-control-regex
}

const OCTETS_PER_LINE = 75;
const encoder = new TextEncoder();

/**
 * One content line, folded (RFC 5545 §3.1) so that no line is longer than 75 octets without its CRLF; a
 * continuation starts with a space, which counts. Breaks fall between characters, never inside a UTF-8 sequence.
 */
export function fold(line: string): string {
  let out = '';
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    if (octets + size > OCTETS_PER_LINE) {
      out += `${current}\r\n`;
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  return `${out}${current}\r\n`;
}
