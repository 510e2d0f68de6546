import type { MealEvent } from '../events/types.js';
import type { Language, Member } from '../households/types.js';
import type { CookingWindow } from '../calendar/day-entries.js';
import { avoidsOfDay } from '../events/avoid-gate.js';

/** Text for people, in the household's language. */
const WORDS: Record<Language, { avoids: (list: string) => string; guests: (count: number, notes: string) => string; busy: (w: CookingWindow) => string }> = {
  nb: {
    busy: (w) =>
      w.minutesLeft === 0
        ? `Travel kveld: «${w.title}» varer gjennom middagstimen.`
        : `Travel kveld: «${w.title}»${w.endTime ? ` til ${w.endTime}` : ''} gir ${w.minutesLeft} minutter til matlaging.`,
    avoids: (list) => `Hele bordet unngår i dag: ${list}.`,
    guests: (count, notes) => `${count === 1 ? 'Gjest' : `Gjester (${count})`}: ${notes}`,
  },
  en: {
    busy: (w) =>
      w.minutesLeft === 0
        ? `Busy evening: "${w.title}" runs through the dinner hour.`
        : `Busy evening: "${w.title}"${w.endTime ? ` until ${w.endTime}` : ''} leaves ${w.minutesLeft} minutes to cook.`,
    avoids: (list) => `The whole table avoids today: ${list}.`,
    guests: (count, notes) => `${count === 1 ? 'Guest' : `Guests (${count})`}: ${notes}`,
  },
};

/**
 * What the cook should know when serving the day's dinner: the guests' avoids, which bind the whole table, first;
 * then each dietary note the day's events give, by the member's name or the guest group. Each note once.
 */
export function servingNotesOf(events: readonly MealEvent[], members: readonly Pick<Member, 'id' | 'displayName'>[], language: Language): string[] {
  const words = WORDS[language];
  const notes: string[] = [];
  const avoids = avoidsOfDay(events);
  if (avoids.length > 0) notes.push(words.avoids(avoids.join(', ')));
  for (const e of events) {
    for (const p of e.participants) {
      const said = p.dietaryNotes?.trim();
      if (!said) continue;
      const name = p.householdMemberId !== null ? members.find((m) => m.id === p.householdMemberId)?.displayName : undefined;
      const note = name !== undefined ? `${name}: ${said}` : words.guests(p.guestCount, said);
      if (!notes.includes(note)) notes.push(note);
    }
  }
  return notes;
}

/** The note of a busy evening: what keeps the family from the stove and the minutes it leaves. */
export const busyNote = (w: CookingWindow, language: Language): string => WORDS[language].busy(w);
