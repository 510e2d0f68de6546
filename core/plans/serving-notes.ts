import type { MealEvent } from '../events/types.js';
import type { Language, Member } from '../households/types.js';
import { avoidsOfDay } from './avoid-gate.js';

/** Text for people, in the household's language. */
const WORDS: Record<Language, { avoids: (list: string) => string; guests: (count: number, notes: string) => string }> = {
  nb: {
    avoids: (list) => `Hele bordet unngår i dag: ${list}.`,
    guests: (count, notes) => `${count === 1 ? 'Gjest' : `Gjester (${count})`}: ${notes}`,
  },
  en: {
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
