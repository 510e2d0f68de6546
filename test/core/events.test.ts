import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import { addNamedMember } from '../../core/households/members.js';
import { createEvent, deleteEvent, listEvents, replaceEvent, type EventPage } from '../../core/events/events.js';
import { createRun, deleteRun, editRun } from '../../core/events/runs.js';
import type { MealEventFields, MealEventInput } from '../../core/events/types.js';
import { domain, error, ownersHousehold, value } from './support.js';

type Deps = ReturnType<typeof domain>['deps'];

/** The memory composition root with a household of an owner, a Junior and an Adult. */
async function setup(timeZoneId = 'Europe/Oslo') {
  const { deps, clock } = domain();
  const { owner, h, join } = await ownersHousehold(deps, timeZoneId);
  const householdId = h.id;
  const junior = await join('junior', 'Junior');
  const adult = await join('adult', 'Adult');
  return { deps, clock, owner, householdId, ownerMemberId: h.members[0]!.id, junior, adult };
}

const fields = (over: Partial<MealEventFields> = {}): MealEventFields => ({
  eventType: 'Custom',
  servingTime: null,
  availableCookingMinutes: null,
  notes: null,
  guests: [],
  memberAttendance: [],
  ...over,
});
const presence = (memberId: string, date: string, over: Partial<MealEventInput> = {}): MealEventInput => ({
  ...fields({ eventType: 'PersonAbsent', memberAttendance: [{ householdMemberId: memberId, isPresent: false, dietaryNotes: null }] }),
  date,
  ...over,
});
const guests = (avoids: string[] = []) => [{ guestType: 'Adult' as const, guestCount: 2, dietaryNotes: null, avoids }];

describe('meal events (domain)', () => {
  describe('a Junior', () => {
    it('writes her own presence from today through today + 14 days in the household time zone, both ends included', async () => {
      const { deps, clock, householdId, junior } = await setup();
      // 2026-05-04T21:30Z is 23:30 in Oslo: still the 4th there.
      clock.set(new Date('2026-05-04T21:30:00.000Z'));
      const me = junior.account;
      expect(error(await createEvent(deps, me, householdId, presence(junior.memberId, '2026-05-04')))).to.equal('ok');
      expect(error(await createEvent(deps, me, householdId, presence(junior.memberId, '2026-05-18', { eventType: 'PersonPresent' })))).to.equal('ok');
      expect(error(await createEvent(deps, me, householdId, presence(junior.memberId, '2026-05-03')))).to.equal('junior-forbidden');
      expect(error(await createEvent(deps, me, householdId, presence(junior.memberId, '2026-05-19')))).to.equal('junior-forbidden');
      // Half an hour later it is the 5th in Oslo: the 4th is past, the 19th inside.
      clock.advance(30 * 60_000);
      expect(error(await createEvent(deps, me, householdId, presence(junior.memberId, '2026-05-04')))).to.equal('junior-forbidden');
      expect(error(await createEvent(deps, me, householdId, presence(junior.memberId, '2026-05-19')))).to.equal('ok');
    });

    it('follows her household\'s time zone, not the server\'s or UTC', async () => {
      // 11:00Z on the 4th is already 01:00 on the 5th on Kiritimati (UTC+14).
      const { deps, clock, householdId, junior } = await setup('Pacific/Kiritimati');
      clock.set(new Date('2026-05-04T11:00:00.000Z'));
      expect(error(await createEvent(deps, junior.account, householdId, presence(junior.memberId, '2026-05-04')))).to.equal('junior-forbidden');
      expect(error(await createEvent(deps, junior.account, householdId, presence(junior.memberId, '2026-05-19')))).to.equal('ok');
    });

    it('may write nothing but her own presence', async () => {
      const { deps, householdId, junior, adult } = await setup();
      const date = '2026-05-06';
      const forbidden: MealEventInput[] = [
        presence(adult.memberId, date),
        presence(junior.memberId, date, { eventType: 'Guests' }),
        presence(junior.memberId, date, { eventType: 'EatingOut' }),
        presence(junior.memberId, date, { notes: 'hos bestemor' }),
        presence(junior.memberId, date, { servingTime: '17:00' }),
        presence(junior.memberId, date, { availableCookingMinutes: 30 }),
        presence(junior.memberId, date, { guests: guests() }),
        presence(junior.memberId, date, { memberAttendance: [] }),
        presence(junior.memberId, date, {
          memberAttendance: [
            { householdMemberId: junior.memberId, isPresent: false, dietaryNotes: null },
            { householdMemberId: adult.memberId, isPresent: false, dietaryNotes: null },
          ],
        }),
      ];
      for (const input of forbidden) expect(error(await createEvent(deps, junior.account, householdId, input)), JSON.stringify(input)).to.equal('junior-forbidden');
      expect(error(await createRun(deps, junior.account, householdId, { ...presence(junior.memberId, date), from: date, through: date }))).to.equal('adults-only');
      const own = value(await createEvent(deps, junior.account, householdId, presence(junior.memberId, date)));
      expect(error(await replaceEvent(deps, junior.account, householdId, own.id, presence(junior.memberId, date)))).to.equal('adults-only');
      expect(error(await editRun(deps, junior.account, householdId, { ids: [own.id], days: [] }))).to.equal('adults-only');
      expect(error(await deleteRun(deps, junior.account, householdId, { ids: [own.id] }))).to.equal('adults-only');
      expect((await deps.events.eventsBetween(householdId, date, date)).map((e) => e.id)).to.deep.equal([own.id]);
    });

    it('removes only events of exactly the shape she may write, within the window', async () => {
      const { deps, clock, owner, householdId, junior, adult } = await setup();
      const mine = value(await createEvent(deps, owner, householdId, presence(junior.memberId, '2026-05-05')));
      const withNote = value(await createEvent(deps, owner, householdId, presence(junior.memberId, '2026-05-05', { notes: 'skole' })));
      const someoneElse = value(await createEvent(deps, owner, householdId, presence(adult.memberId, '2026-05-05')));
      const later = value(await createEvent(deps, owner, householdId, presence(junior.memberId, '2026-05-25')));
      for (const e of [withNote, someoneElse, later]) expect(error(await deleteEvent(deps, junior.account, householdId, e.id))).to.equal('junior-forbidden');
      expect(error(await deleteEvent(deps, junior.account, householdId, mine.id))).to.equal('ok');
      // Once its day is past, her own event is out of reach too.
      const yesterday = value(await createEvent(deps, owner, householdId, presence(junior.memberId, '2026-05-04')));
      clock.advance(86_400_000);
      expect(error(await deleteEvent(deps, junior.account, householdId, yesterday.id))).to.equal('junior-forbidden');
      expect(error(await deleteEvent(deps, owner, householdId, yesterday.id))).to.equal('ok');
      expect((await deps.events.eventsBetween(householdId, '2026-05-01', '2026-05-31')).map((e) => e.id).sort()).to.deep.equal([withNote.id, someoneElse.id, later.id].sort());
    });
  });

  describe('writing events', () => {
    it('refuses a member of another household, or a member named twice', async () => {
      const { deps, owner, householdId, adult } = await setup();
      const other = await setup();
      for (const memberAttendance of [
        [{ householdMemberId: other.adult.memberId, isPresent: true, dietaryNotes: null }],
        [
          { householdMemberId: adult.memberId, isPresent: true, dietaryNotes: null },
          { householdMemberId: adult.memberId, isPresent: false, dietaryNotes: null },
        ],
      ]) {
        expect(error(await createEvent(deps, owner, householdId, { ...fields({ memberAttendance }), date: '2026-05-06' }))).to.equal('event-invalid');
      }
      expect(await deps.events.eventsBetween(householdId, '2026-01-01', '2026-12-31')).to.deep.equal([]);
    });

    it('replaces whole: every field written, participants rebuilt, omitted avoids gone, createdAt kept', async () => {
      const { deps, clock, owner, householdId, adult } = await setup();
      const named = value(await addNamedMember(deps, owner, householdId, { displayName: 'Lille', role: 'Junior' }));
      const before = value(
        await createEvent(deps, owner, householdId, {
          ...fields({
            eventType: 'Guests',
            servingTime: '17:00',
            availableCookingMinutes: 60,
            notes: 'Besteforeldre',
            guests: guests([' peanøtter ', 'skalldyr']),
            memberAttendance: [{ householdMemberId: named.id, isPresent: false, dietaryNotes: 'borte' }],
          }),
          date: '2026-05-07',
        }),
      );
      expect(before.participants.map((p) => [p.householdMemberId, p.guestType, p.avoids])).to.deep.equal([
        [named.id, null, []],
        [null, 'Adult', ['peanøtter', 'skalldyr']],
      ]);
      clock.advance(60_000);
      const after = value(
        await replaceEvent(deps, adult.account, householdId, before.id, {
          ...fields({ eventType: 'Celebration', guests: [{ guestType: 'Child', guestCount: 1, dietaryNotes: null, avoids: [] }] }),
          date: '2026-05-08',
        }),
      );
      expect(after).to.deep.include({ id: before.id, date: '2026-05-08', eventType: 'Celebration', servingTime: null, availableCookingMinutes: null, notes: null });
      expect(after.createdAt).to.deep.equal(before.createdAt);
      expect(after.updatedAt).to.deep.equal(clock.now());
      expect(after.participants.map((p) => [p.householdMemberId, p.guestType, p.guestCount, p.avoids])).to.deep.equal([[null, 'Child', 1, []]]);
      expect(before.participants.map((p) => p.id)).to.not.include(after.participants[0]!.id);
      expect(await deps.events.byId(householdId, before.id)).to.deep.equal(after);
      const other = await setup();
      expect(error(await replaceEvent(other.deps, other.owner, other.householdId, before.id, { ...fields(), date: '2026-05-08' }))).to.equal('event-not-found');
    });
  });

  describe('runs', () => {
    it('creates one event per day, equal but for the date, in date order; at most 31 days; through not before from', async () => {
      const { deps, owner, householdId, adult } = await setup();
      const input = { ...fields({ eventType: 'Travel', notes: 'Hytta', memberAttendance: [{ householdMemberId: adult.memberId, isPresent: false, dietaryNotes: null }] }) };
      const run = value(await createRun(deps, owner, householdId, { ...input, from: '2026-05-30', through: '2026-06-02' }));
      expect(run.map((e) => e.date)).to.deep.equal(['2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02']);
      const strip = ({ id: _i, date: _d, participants, ...rest }: (typeof run)[number]) => ({ ...rest, participants: participants.map(({ id: _p, ...p }) => p) });
      for (const e of run) expect(strip(e)).to.deep.equal(strip(run[0]!));
      expect(value(await createRun(deps, owner, householdId, { ...input, from: '2026-07-01', through: '2026-07-31' }))).to.have.length(31);
      expect(error(await createRun(deps, owner, householdId, { ...input, from: '2026-08-01', through: '2026-09-01' }))).to.equal('event-invalid');
      expect(error(await createRun(deps, owner, householdId, { ...input, from: '2026-08-02', through: '2026-08-01' }))).to.equal('event-invalid');
      expect(await deps.events.eventsBetween(householdId, '2026-08-01', '2026-09-30')).to.deep.equal([]);
    });

    it('edits a run: days[i] replaces ids[i], ids past the end are removed; longer days or a foreign id change nothing', async () => {
      const { deps, owner, householdId } = await setup();
      const run = value(await createRun(deps, owner, householdId, { ...fields({ notes: 'Leirskole' }), from: '2026-05-11', through: '2026-05-14' }));
      const ids = run.map((e) => e.id);
      const day = (date: string, notes: string): MealEventInput => ({ ...fields({ eventType: 'Activity', notes }), date });
      expect(error(await editRun(deps, owner, householdId, { ids: ids.slice(0, 1), days: [day('2026-05-11', 'x'), day('2026-05-12', 'y')] }))).to.equal('event-invalid');
      const other = await setup();
      const theirs = value(await createEvent(other.deps, other.owner, other.householdId, { ...fields(), date: '2026-05-11' }));
      expect(error(await editRun(deps, owner, householdId, { ids: [...ids, theirs.id], days: [day('2026-05-11', 'x')] }))).to.equal('event-not-found');
      expect(await deps.events.eventsBetween(householdId, '2026-05-11', '2026-05-14')).to.deep.equal(run);
      const edited = value(await editRun(deps, owner, householdId, { ids, days: [day('2026-05-11', 'Leirskole, dag 1'), day('2026-05-12', 'Leirskole, dag 2')] }));
      expect(edited.map((e) => [e.id, e.notes])).to.deep.equal([
        [ids[0], 'Leirskole, dag 1'],
        [ids[1], 'Leirskole, dag 2'],
      ]);
      expect(await deps.events.eventsBetween(householdId, '2026-05-11', '2026-05-14')).to.deep.equal(edited);
    });

    it('deletes by span only the one run of that type lying wholly inside it', async () => {
      const { deps, owner, householdId } = await setup();
      const activity = (notes: string, from: string, through: string) => createRun(deps, owner, householdId, { ...fields({ eventType: 'Activity', notes }), from, through });
      value(await activity('Fotball', '2026-05-04', '2026-05-06'));
      value(await activity('Håndball', '2026-05-05', '2026-05-06'));
      value(await activity('Fotball', '2026-05-09', '2026-05-10'));
      value(await createRun(deps, owner, householdId, { ...fields({ eventType: 'Custom', notes: 'Fotball' }), from: '2026-05-07', through: '2026-05-08' }));
      const count = async () => (await deps.events.eventsBetween(householdId, '2026-05-01', '2026-05-31')).length;
      expect(await count()).to.equal(9);
      // Three Activity runs lie inside the 4th..10th.
      expect(await deleteRun(deps, owner, householdId, { eventType: 'Activity', from: '2026-05-04', through: '2026-05-10' })).to.deep.equal({ ok: false, error: { type: 'run-not-unique', runs: 3 } });
      expect(await count()).to.equal(9);
      // The Fotball run of the 4th..6th goes on past the 5th..6th: only Håndball lies wholly inside.
      expect(error(await deleteRun(deps, owner, householdId, { eventType: 'Activity', from: '2026-05-05', through: '2026-05-06' }))).to.equal('ok');
      expect(await count()).to.equal(7);
      expect(error(await deleteRun(deps, owner, householdId, { eventType: 'Activity', from: '2026-05-05', through: '2026-05-08' }))).to.equal('run-not-found');
      expect(error(await deleteRun(deps, owner, householdId, { eventType: 'Travel', from: '2026-05-01', through: '2026-05-31' }))).to.equal('run-not-found');
      // The Custom days between them break nothing: a run is one shape, other kinds do not join it.
      expect(error(await deleteRun(deps, owner, householdId, { eventType: 'Custom', from: '2026-05-01', through: '2026-05-31' }))).to.equal('ok');
      expect(error(await deleteRun(deps, owner, householdId, { eventType: 'Activity', from: '2026-05-04', through: '2026-05-08' }))).to.equal('ok');
      expect((await deps.events.eventsBetween(householdId, '2026-05-01', '2026-05-31')).map((e) => [e.date, e.notes])).to.deep.equal([
        ['2026-05-09', 'Fotball'],
        ['2026-05-10', 'Fotball'],
      ]);
    });

    it('a different party, time or note on a day splits a run', async () => {
      const { deps, owner, householdId, adult } = await setup();
      const input = fields({ eventType: 'Guests', guests: guests(['nøtter']) });
      value(await createRun(deps, owner, householdId, { ...input, from: '2026-06-01', through: '2026-06-02' }));
      value(await createRun(deps, owner, householdId, { ...input, guests: guests(['skalldyr']), from: '2026-06-03', through: '2026-06-03' }));
      value(await createRun(deps, owner, householdId, { ...input, from: '2026-06-04', through: '2026-06-04' }));
      value(await createRun(deps, owner, householdId, { ...input, servingTime: '16:00', from: '2026-06-05', through: '2026-06-05' }));
      value(await createRun(deps, owner, householdId, { ...input, memberAttendance: [{ householdMemberId: adult.memberId, isPresent: false, dietaryNotes: null }], from: '2026-06-06', through: '2026-06-06' }));
      expect(await deleteRun(deps, owner, householdId, { eventType: 'Guests', from: '2026-06-01', through: '2026-06-06' })).to.deep.equal({ ok: false, error: { type: 'run-not-unique', runs: 5 } });
      expect(error(await deleteRun(deps, owner, householdId, { eventType: 'Guests', from: '2026-06-01', through: '2026-06-02' }))).to.equal('ok');
      expect((await deps.events.eventsBetween(householdId, '2026-06-01', '2026-06-30')).map((e) => e.date)).to.deep.equal(['2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06']);
    });

    it('deletes by ids exactly those rows, or nothing when one is not the household\'s', async () => {
      const { deps, owner, householdId } = await setup();
      const run = value(await createRun(deps, owner, householdId, { ...fields(), from: '2026-05-11', through: '2026-05-13' }));
      const other = await setup();
      const theirs = value(await createEvent(other.deps, other.owner, other.householdId, { ...fields(), date: '2026-05-11' }));
      expect(error(await deleteRun(deps, owner, householdId, { ids: [run[0]!.id, theirs.id] }))).to.equal('event-not-found');
      expect(await deps.events.eventsBetween(householdId, '2026-05-11', '2026-05-13')).to.have.length(3);
      expect(error(await deleteRun(deps, owner, householdId, { ids: [run[0]!.id, run[2]!.id] }))).to.equal('ok');
      expect((await deps.events.eventsBetween(householdId, '2026-05-11', '2026-05-13')).map((e) => e.id)).to.deep.equal([run[1]!.id]);
      expect(await other.deps.events.byId(other.householdId, theirs.id)).to.deep.equal(theirs);
    });
  });

  describe('listing', () => {
    it('pages earliest first with sealed cursors bound to the household and range', async () => {
      const { deps, owner, householdId, junior } = await setup();
      const run = value(await createRun(deps, owner, householdId, { ...fields(), from: '2026-05-01', through: '2026-05-05' }));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: EventPage = value(await listEvents(deps, junior.account, householdId, { from: null, to: null, cursor, limit: 2 }));
        seen.push(...page.items.map((e) => e.id));
        cursor = page.nextCursor;
        if (cursor) expect(page.items).to.have.length(2);
      } while (cursor);
      expect(seen).to.deep.equal(run.map((e) => e.id));
      const first = value(await listEvents(deps, owner, householdId, { from: '2026-05-02', to: '2026-05-04', cursor: null, limit: 2 }));
      expect(first.items.map((e) => e.date)).to.deep.equal(['2026-05-02', '2026-05-03']);
      const last = value(await listEvents(deps, owner, householdId, { from: '2026-05-02', to: '2026-05-04', cursor: first.nextCursor, limit: 2 }));
      expect([last.items.map((e) => e.date), last.nextCursor]).to.deep.equal([['2026-05-04'], null]);
      // The same cursor for another range, another household, or edited: refused, never some page.
      expect(error(await listEvents(deps, owner, householdId, { from: null, to: null, cursor: first.nextCursor, limit: 2 }))).to.equal('page-cursor-invalid');
      const other = await setup();
      expect(error(await listEvents(other.deps, other.owner, other.householdId, { from: '2026-05-02', to: '2026-05-04', cursor: first.nextCursor, limit: 2 }))).to.equal(
        'page-cursor-invalid',
      );
      const edited = `${first.nextCursor!.slice(0, 5)}${first.nextCursor![5] === 'A' ? 'B' : 'A'}${first.nextCursor!.slice(6)}`;
      for (const c of [edited, 'garbage', Buffer.from(JSON.stringify(['2026-05-03', run[2]!.createdAt.toISOString(), run[2]!.id])).toString('base64url')]) {
        expect(error(await listEvents(deps, owner, householdId, { from: '2026-05-02', to: '2026-05-04', cursor: c, limit: 2 })), c).to.equal('page-cursor-invalid');
      }
    });
  });
});
