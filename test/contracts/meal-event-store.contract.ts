import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MealEvent, MealEventParticipant } from '../../core/events/types.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

async function household(s: Stores) {
  const { id, ownerMemberId: ownerMember } = await ownedHousehold(s);
  const child = await s.households.addMember(id, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: null, createdAt: at('2026-01-02T00:00:00.000Z') });
  return { id, ownerMember, child: child.id };
}

const memberRow = (memberId: string, over: Partial<MealEventParticipant> = {}): MealEventParticipant => ({
  id: randomUUID(),
  householdMemberId: memberId,
  isPresent: false,
  guestType: null,
  guestCount: 0,
  dietaryNotes: null,
  avoids: [],
  ...over,
});
const guestRow = (over: Partial<MealEventParticipant> = {}): MealEventParticipant => ({
  id: randomUUID(),
  householdMemberId: null,
  isPresent: true,
  guestType: 'Child',
  guestCount: 2,
  dietaryNotes: 'nøtteallergi',
  avoids: ['peanøtter', 'hasselnøtt'],
  ...over,
});
const event = (householdId: string, over: Partial<MealEvent> = {}): MealEvent => ({
  id: randomUUID(),
  householdId,
  date: '2026-03-10',
  eventType: 'Custom',
  servingTime: null,
  availableCookingMinutes: null,
  notes: null,
  participants: [],
  createdAt: at('2026-03-01T10:15:30.123Z'),
  updatedAt: at('2026-03-01T10:15:30.123Z'),
  ...over,
});

export function mealEventStoreContract(backend: Backend): void {
  storeSuite(backend, 'MealEventStore', (s) => {
    it('round-trips an event with member and guest rows, avoids, nulls, dates and booleans, participants in order', async () => {
      const h = await household(s);
      const full = event(h.id, {
        eventType: 'Guests',
        servingTime: '17:30',
        availableCookingMinutes: 45,
        notes: 'Besteforeldre på besøk',
        participants: [memberRow(h.child, { isPresent: true, dietaryNotes: 'ingen løk' }), guestRow(), guestRow({ guestType: 'Baby', guestCount: 1, dietaryNotes: null, avoids: [] })],
        updatedAt: at('2026-03-02T08:00:00.001Z'),
      });
      const bare = event(h.id, { date: '2026-03-11', eventType: 'EatingOut' });
      await s.events.create([full, bare]);
      expect(await s.events.byId(h.id, full.id)).to.deep.equal(full);
      expect(await s.events.byId(h.id, bare.id)).to.deep.equal(bare);
      expect(await s.events.eventsBetween(h.id, '2026-03-10', '2026-03-11')).to.deep.equal([full, bare]);
      expect(await s.events.byIds(h.id, [bare.id, full.id, randomUUID()])).to.deep.equal([full, bare]);
      expect(await s.events.byId(h.id, randomUUID())).to.equal(null);
    });

    it('keeps every read and write inside its household', async () => {
      const h = await household(s);
      const other = await household(s);
      const mine = event(h.id);
      const theirs = event(other.id);
      await s.events.create([mine]);
      await s.events.create([theirs]);
      expect(await s.events.byId(other.id, mine.id)).to.equal(null);
      expect(await s.events.byIds(other.id, [mine.id, theirs.id])).to.deep.equal([theirs]);
      expect(await s.events.eventsBetween(other.id, '2026-01-01', '2026-12-31')).to.deep.equal([theirs]);
      expect(await s.events.page(other.id, { from: null, to: null, after: null, limit: 10 })).to.deep.equal([theirs]);
      expect(await s.events.rewrite(other.id, [{ ...mine, householdId: other.id, notes: 'stolen' }], [])).to.equal(false);
      expect(await s.events.rewrite(other.id, [], [mine.id])).to.equal(false);
      expect(await s.events.byId(h.id, mine.id)).to.deep.equal(mine);
    });

    it('orders by date, then createdAt, then id, with inclusive bounds', async () => {
      const h = await household(s);
      const early = at('2026-03-01T00:00:00.000Z');
      const late = at('2026-03-01T00:00:00.001Z');
      const [a, b] = [randomUUID(), randomUUID()].sort();
      const rows = [
        event(h.id, { date: '2026-03-12', createdAt: early, updatedAt: early }),
        event(h.id, { id: b!, date: '2026-03-10', createdAt: early, updatedAt: early }),
        event(h.id, { date: '2026-03-10', createdAt: late, updatedAt: late }),
        event(h.id, { id: a!, date: '2026-03-10', createdAt: early, updatedAt: early }),
        event(h.id, { date: '2026-03-09' }),
        event(h.id, { date: '2026-03-13' }),
      ];
      await s.events.create(rows);
      const between = await s.events.eventsBetween(h.id, '2026-03-10', '2026-03-12');
      expect(between.map((e) => e.id)).to.deep.equal([a, b, rows[2]!.id, rows[0]!.id]);
    });

    it('pages in list order after a position, within an optional range', async () => {
      const h = await household(s);
      const rows = Array.from({ length: 7 }, (_, i) => event(h.id, { date: `2026-04-0${i + 1}`, createdAt: at(`2026-03-01T00:00:0${i}.000Z`) }));
      await s.events.create([...rows].reverse());
      const first = await s.events.page(h.id, { from: null, to: null, after: null, limit: 3 });
      expect(first.map((e) => e.date)).to.deep.equal(['2026-04-01', '2026-04-02', '2026-04-03']);
      const last = first[2]!;
      const next = await s.events.page(h.id, { from: null, to: null, after: { date: last.date, createdAt: last.createdAt, id: last.id }, limit: 3 });
      expect(next.map((e) => e.date)).to.deep.equal(['2026-04-04', '2026-04-05', '2026-04-06']);
      const ranged = await s.events.page(h.id, { from: '2026-04-03', to: '2026-04-05', after: null, limit: 10 });
      expect(ranged.map((e) => e.date)).to.deep.equal(['2026-04-03', '2026-04-04', '2026-04-05']);
      // Same date and createdAt: the id breaks the tie, so a page boundary never skips or repeats a row.
      const t = at('2026-03-05T00:00:00.000Z');
      const twins = [event(h.id, { date: '2026-05-01', createdAt: t }), event(h.id, { date: '2026-05-01', createdAt: t })];
      await s.events.create(twins);
      const [x, y] = [...twins].sort((p, q) => (p.id < q.id ? -1 : 1));
      const afterX = await s.events.page(h.id, { from: '2026-05-01', to: null, after: { date: x!.date, createdAt: t, id: x!.id }, limit: 10 });
      expect(afterX.map((e) => e.id)).to.deep.equal([y!.id]);
    });

    it('rewrites whole (fields and participant list, createdAt kept) and removes, in one go', async () => {
      const h = await household(s);
      const run = ['2026-06-01', '2026-06-02', '2026-06-03'].map((date) => event(h.id, { date, eventType: 'Guests', participants: [guestRow(), memberRow(h.child)] }));
      await s.events.create(run);
      const replaced = {
        ...run[0]!,
        date: '2026-06-05',
        eventType: 'Celebration' as const,
        servingTime: '19:00',
        availableCookingMinutes: 90,
        notes: 'Bursdag',
        participants: [guestRow({ avoids: [] })],
        createdAt: run[0]!.createdAt,
        updatedAt: at('2026-06-01T12:00:00.000Z'),
      };
      expect(await s.events.rewrite(h.id, [replaced], [run[2]!.id])).to.equal(true);
      expect(await s.events.byId(h.id, run[0]!.id)).to.deep.equal(replaced);
      expect(await s.events.byId(h.id, run[1]!.id)).to.deep.equal(run[1]);
      expect(await s.events.byId(h.id, run[2]!.id)).to.equal(null);
    });

    it('writes all or nothing: a batch with a taken id, a rewrite naming a missing id', async () => {
      const h = await household(s);
      const taken = event(h.id);
      await s.events.create([taken]);
      const fresh = event(h.id, { date: '2026-03-11', participants: [guestRow()] });
      let failed = false;
      await s.events.create([fresh, { ...taken, date: '2026-03-12' }]).catch(() => {
        failed = true;
      });
      expect(failed).to.equal(true);
      expect((await s.events.eventsBetween(h.id, '2026-01-01', '2026-12-31')).map((e) => e.id)).to.deep.equal([taken.id]);
      expect(await s.events.rewrite(h.id, [{ ...taken, notes: 'changed' }], [randomUUID()])).to.equal(false);
      expect(await s.events.rewrite(h.id, [{ ...taken, notes: 'changed' }, { ...fresh, notes: 'never written' }], [])).to.equal(false);
      expect(await s.events.byId(h.id, taken.id)).to.deep.equal(taken);
    });

    it('two simultaneous rewrites of the same run leave one of them whole, never a mix', async () => {
      const h = await household(s);
      const run = Array.from({ length: 5 }, (_, i) => event(h.id, { date: `2026-07-0${i + 1}`, eventType: 'Guests', participants: [guestRow()] }));
      await s.events.create(run);
      const edit = (notes: string) =>
        run.map((e) => ({ ...e, notes, participants: [guestRow({ dietaryNotes: notes }), memberRow(h.child, { dietaryNotes: notes })] }));
      const results = await Promise.all([s.events.rewrite(h.id, edit('A'), []), s.events.rewrite(h.id, edit('B'), []), s.events.rewrite(h.id, [], run.slice(3).map((e) => e.id))]);
      // The removal always finds its rows; an edit that came after it finds rows missing and writes nothing.
      expect(results[2]).to.equal(true);
      const after = await s.events.eventsBetween(h.id, '2026-07-01', '2026-07-31');
      const notes = new Set(after.map((e) => e.notes));
      expect(notes.size).to.equal(1);
      for (const e of after) expect(e.participants.map((p) => p.dietaryNotes)).to.deep.equal([e.notes, e.notes]);
      expect(after.map((e) => e.date)).to.deep.equal(['2026-07-01', '2026-07-02', '2026-07-03']);
      for (const [i, ok] of results.slice(0, 2).entries()) if (ok) expect(['A', 'B']).to.include(after[0]!.notes, `edit ${i} succeeded`);
    });

    it('a removed member takes her attendance rows; a removed household its events', async () => {
      const h = await household(s);
      const e = event(h.id, { eventType: 'PersonAbsent', participants: [memberRow(h.child), guestRow()] });
      await s.events.create([e]);
      await s.households.removeMember(h.id, h.child);
      expect((await s.events.byId(h.id, e.id))?.participants).to.deep.equal([e.participants[1]]);
      await s.households.delete(h.id);
      expect(await s.events.byId(h.id, e.id)).to.equal(null);
      expect(await s.events.eventsBetween(h.id, '2026-01-01', '2026-12-31')).to.deep.equal([]);
    });
  });
}
