import { useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type MealEvent, type PlanDay } from '../../api';
import { household } from '../../state';
import { useAction } from '../../ui';
import { withUndo } from '../../ui/undo';

type Kind = 'Guests' | 'PersonAbsent' | 'EatingOut' | 'Travel';

/** What is happening on the day, as the form holds it while it is filled in. */
export interface EventForm {
  readonly kind: Kind;
  readonly guests: string;
  readonly avoids: string;
  /** The member who is away (an adult picks; a Junior is always herself). */
  readonly who: string;
  /** The last day of a run of days (the day itself for one day). */
  readonly through: string;
}

/**
 * One day of the week: its dish, its events, and the form that adds an event (open or closed). Every change is
 * written at once and the week read again (`onChange`); a refusal stays with the day.
 */
export function useDay({ householdId, planId, day, onChange }: { householdId: string; planId: string; day: PlanDay; onChange: () => void }) {
  const mine = household.value;
  const adult = mine?.role !== 'Junior';
  const act = useAction();
  const empty = (): EventForm => ({ kind: adult ? 'Guests' : 'PersonAbsent', guests: '', avoids: '', who: mine?.memberId ?? '', through: day.date });
  const [form, setForm] = useState<EventForm>(empty);
  const [open, setOpen] = useState(false);
  const edit = (patch: Partial<EventForm>) => setForm((f) => ({ ...f, ...patch }));

  const addEvent = (replaceDish: boolean) =>
    act.run(async () => {
      const { kind, guests, avoids, who, through } = form;
      const words = avoids.split(',').map((w) => w.trim()).filter((w) => w !== '');
      const fields = {
        eventType: kind,
        servingTime: null,
        availableCookingMinutes: null,
        notes: null,
        guests: kind === 'Guests' ? [{ guestType: 'Adult' as const, guestCount: Math.max(1, Math.round(Number(guests)) || 1), dietaryNotes: null, avoids: words }] : null,
        memberAttendance: kind === 'PersonAbsent' ? [{ householdMemberId: adult ? who : mine!.memberId!, isPresent: false, dietaryNotes: null }] : null,
      };
      const path = { params: { path: { householdId } } };
      // Several days at once go in one call, all or none; so does a change that takes a dish off (only runs offer that).
      if (through > day.date || replaceDish) await api.POST('/api/v1/households/{householdId}/events/run', { ...path, body: { ...fields, from: day.date, through, replaceDish } });
      else await api.POST('/api/v1/households/{householdId}/events', { ...path, body: { ...fields, date: day.date } });
      // The kind and who stay as picked; what was typed goes.
      edit({ guests: '', avoids: '', through: day.date });
      setOpen(false);
      onChange();
    });
  /** Removes an event, with a few seconds to undo (web/src/ui/undo.tsx); `said` names it ("Gjester (2) fjernet fra tirsdag."). */
  const removeEvent = (e: MealEvent, said: string) =>
    withUndo(said, [`event:${e.id}`], async () => {
      await dataOf(api.DELETE('/api/v1/households/{householdId}/events/{eventId}', { params: { path: { householdId, eventId: e.id } } }));
      onChange();
    });
  const mayRemove = (e: MealEvent) =>
    adult || ((e.eventType === 'PersonAbsent' || e.eventType === 'PersonPresent') && e.participants.every((p) => p.householdMemberId === mine?.memberId));
  // The guests' avoids clash with the day's dish: the form offers to add the event and take the dish off.
  const conflict = act.error instanceof ApiProblem && act.error.code === 'avoid_conflict' && open;

  return { adult, act, form, edit, open, setOpen, addEvent, removeEvent, mayRemove, conflict };
}
