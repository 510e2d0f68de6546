import type { CalendarEvent } from '../../core/calendar/types.js';

/** A calendar event of `date`: football from 17:00 to 18:30, nowhere in particular. */
export const ev = (date: string, over: Partial<CalendarEvent> = {}): CalendarEvent => ({
  title: 'Fotball',
  date,
  startTime: '17:00',
  endTime: '18:30',
  isAllDay: false,
  location: null,
  ...over,
});
