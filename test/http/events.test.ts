import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { expectStatus, httpSuite } from '../support/http-suite.js';

// Monday 4 May 2026, 11:00 in Oslo.
const NOW = new Date('2026-05-04T09:00:00.000Z');

const event = (over: Record<string, unknown> = {}) => ({
  date: '2026-05-06',
  eventType: 'Custom',
  servingTime: null,
  availableCookingMinutes: null,
  notes: null,
  guests: null,
  memberAttendance: null,
  ...over,
});
const { date: _date, ...runFields } = event();
const run = (from: string, through: string, over: Record<string, unknown> = {}) => ({ ...runFields, from, through, ...over });
const presence = (memberId: string, date: string, over: Record<string, unknown> = {}) =>
  event({ date, eventType: 'PersonAbsent', memberAttendance: [{ householdMemberId: memberId, isPresent: false, dietaryNotes: null }], ...over });

httpSuite('meal events', { now: NOW }, (server) => {
  const { clock } = server;

  async function household() {
    const h = await server.household();
    return { ...h, events: `${h.base}/events` };
  }
  const dates = async (c: Client, events: string, query = '') => ((await c.get(`${events}?limit=100${query}`)).json.items as { date: string }[]).map((e) => e.date);

  describe('POST /events', () => {
    it('answers 201 with the MealEventResponse, participants in order, and reads back the same', async () => {
      const h = await household();
      const res = await h.owner.post(
        h.events,
        event({
          eventType: 'Guests',
          servingTime: '17:30',
          availableCookingMinutes: 45,
          notes: 'Besteforeldre',
          memberAttendance: [{ householdMemberId: h.ownerMemberId, isPresent: true, dietaryNotes: 'ingen løk' }],
          guests: [
            { guestType: 'Adult', guestCount: 2, dietaryNotes: 'nøtteallergi', avoids: [' peanøtter ', 'hasselnøtt'] },
            { guestType: 'Baby', guestCount: 1, dietaryNotes: null },
          ],
        }),
      );
      expectStatus(res, 201);
      const e = res.json;
      expect(Object.keys(e).sort()).to.deep.equal(['availableCookingMinutes', 'createdAt', 'date', 'eventType', 'householdId', 'id', 'notes', 'participants', 'servingTime', 'updatedAt']);
      expect(e).to.deep.include({ householdId: h.id, date: '2026-05-06', eventType: 'Guests', servingTime: '17:30', availableCookingMinutes: 45, notes: 'Besteforeldre' });
      expect([e.createdAt, e.updatedAt]).to.deep.equal([NOW.toISOString(), NOW.toISOString()]);
      expect(e.participants.map(({ id, ...p }: { id: string }) => (expect(id).to.match(/^[0-9a-f-]{36}$/), p))).to.deep.equal([
        { householdMemberId: h.ownerMemberId, isPresent: true, guestType: null, guestCount: 0, dietaryNotes: 'ingen løk', avoids: [] },
        { householdMemberId: null, isPresent: true, guestType: 'Adult', guestCount: 2, dietaryNotes: 'nøtteallergi', avoids: ['peanøtter', 'hasselnøtt'] },
        { householdMemberId: null, isPresent: true, guestType: 'Baby', guestCount: 1, dietaryNotes: null, avoids: [] },
      ]);
      const list = await h.owner.get(h.events);
      expect(list.json).to.deep.equal({ items: [e], nextCursor: null, total: null });
    });

    it('refuses bad avoids, bad fields and members of another household with 400', async () => {
      const h = await household();
      const other = await household();
      const group = (avoids: unknown) => event({ eventType: 'Guests', guests: [{ guestType: 'Adult', guestCount: 1, dietaryNotes: null, avoids }] });
      expectStatus(await h.owner.post(h.events, group(['nøtter', '  '])), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.events, group([''])), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.events, group(['x'.repeat(201)])), 400, 'value_too_long');
      expectStatus(await h.owner.post(h.events, group(Array.from({ length: 21 }, (_, i) => `ord ${i}`))), 400);
      expectStatus(await h.owner.post(h.events, group(Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(200, 'x')))), 201);
      expectStatus(await h.owner.post(h.events, presence(other.ownerMemberId, '2026-05-06')), 400, 'validation_failed');
      const { notes: _n, ...noNotes } = event();
      for (const body of [
        noNotes,
        event({ date: '2026-02-30' }),
        event({ eventType: 'Picnic' }),
        event({ servingTime: '25:00' }),
        event({ availableCookingMinutes: 1.5 }),
        event({ guests: [{ guestType: 'Alien', guestCount: 1, dietaryNotes: null }] }),
        event({ guests: [{ guestType: 'Adult', guestCount: 1 }] }),
        event({ memberAttendance: [{ householdMemberId: 'nobody', isPresent: true, dietaryNotes: null }] }),
      ]) {
        expectStatus(await h.owner.post(h.events, body), 400);
      }
      expect(await dates(h.owner, h.events)).to.deep.equal(['2026-05-06']);
    });

    it('matches property names case-insensitively', async () => {
      const h = await household();
      const res = await h.owner.post(h.events, {
        Date: '2026-05-07',
        EventType: 'Guests',
        ServingTime: null,
        AvailableCookingMinutes: 30,
        Notes: null,
        Guests: [{ GuestType: 'Child', GuestCount: 3, DietaryNotes: null, Avoids: ['sopp'] }],
        MemberAttendance: null,
      });
      expectStatus(res, 201);
      expect(res.json.participants[0]).to.deep.include({ guestType: 'Child', guestCount: 3, avoids: ['sopp'] });
    });

    it('lets a Junior write only her own presence, today through today + 14 in the household time zone', async () => {
      const h = await household();
      const junior = await h.join('Junior');
      const adult = await h.join('Adult');
      // 21:30Z is 23:30 in Oslo: still the 4th there.
      clock.set(new Date('2026-05-04T21:30:00.000Z'));
      expectStatus(await junior.client.post(h.events, presence(junior.memberId, '2026-05-04')), 201);
      expectStatus(await junior.client.post(h.events, presence(junior.memberId, '2026-05-18', { eventType: 'PersonPresent' })), 201);
      for (const body of [
        presence(junior.memberId, '2026-05-03'),
        presence(junior.memberId, '2026-05-19'),
        presence(adult.memberId, '2026-05-06'),
        presence(junior.memberId, '2026-05-06', { eventType: 'Guests' }),
        presence(junior.memberId, '2026-05-06', { notes: 'trening' }),
        presence(junior.memberId, '2026-05-06', { servingTime: '16:00' }),
        presence(junior.memberId, '2026-05-06', { availableCookingMinutes: 20 }),
        presence(junior.memberId, '2026-05-06', { guests: [{ guestType: 'Child', guestCount: 1, dietaryNotes: null }] }),
        event({ eventType: 'PersonAbsent' }),
      ]) {
        expectStatus(await junior.client.post(h.events, body), 403, 'junior_forbidden');
      }
      clock.set(new Date('2026-05-04T22:30:00.000Z'));
      expectStatus(await junior.client.post(h.events, presence(junior.memberId, '2026-05-04')), 403, 'junior_forbidden');
      expectStatus(await junior.client.post(h.events, presence(junior.memberId, '2026-05-19')), 201);
      expect(await dates(junior.client, h.events)).to.deep.equal(['2026-05-04', '2026-05-18', '2026-05-19']);
    });

    it('answers 404 to a caller outside the household', async () => {
      const h = await household();
      const stranger = await household();
      expectStatus(await stranger.owner.post(h.events, event()), 404, 'household_not_found');
      expectStatus(await stranger.owner.get(h.events), 404, 'household_not_found');
    });
  });

  describe('GET /events', () => {
    it('pages earliest first (date, createdAt, id) with nextCursor null on the last page and total null', async () => {
      const h = await household();
      const created: { id: string; date: string }[] = [];
      for (const [i, date] of ['2026-05-09', '2026-05-07', '2026-05-07', '2026-05-08', '2026-05-05'].entries()) {
        clock.set(new Date(NOW.getTime() + i * 1000));
        created.push((await h.owner.post(h.events, event({ date }))).json);
      }
      const expected = [created[4], created[1], created[2], created[3], created[0]].map((e) => e!.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await h.owner.get(`${h.events}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expectStatus(res, 200);
        expect(res.json.total).to.equal(null);
        seen.push(...res.json.items.map((e: { id: string }) => e.id));
        cursor = res.json.nextCursor;
        pages++;
      } while (cursor);
      expect([seen, pages]).to.deep.equal([expected, 3]);
      expect(await dates(h.owner, h.events, '&from=2026-05-07&to=2026-05-08')).to.deep.equal(['2026-05-07', '2026-05-07', '2026-05-08']);
      expect((await h.owner.get(h.events)).json.items).to.have.length(5);
    });

    it('refuses limits out of range, bad dates, and cursors it did not hand out for this list', async () => {
      const h = await household();
      const other = await household();
      for (const target of [h, other]) {
        for (const date of ['2026-05-05', '2026-05-06', '2026-05-07']) await target.owner.post(target.events, event({ date }));
      }
      for (const q of ['limit=0', 'limit=101', 'limit=ten', 'from=2026-13-01', 'to=yesterday', 'from=2026-05-07&to=2026-05-05']) {
        expectStatus(await h.owner.get(`${h.events}?${q}`), 400, 'validation_failed');
      }
      const cursor = (await h.owner.get(`${h.events}?limit=1`)).json.nextCursor as string;
      const otherCursor = (await other.owner.get(`${other.events}?limit=1`)).json.nextCursor as string;
      expect((await h.owner.get(`${h.events}?limit=1&cursor=${cursor}`)).json.items[0].date).to.equal('2026-05-06');
      const forged = Buffer.from(JSON.stringify(['2026-05-05', NOW.toISOString(), randomUUID()])).toString('base64url');
      const flipped = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
      for (const c of [otherCursor, forged, `${forged}.${cursor.split('.')[1]}`, flipped, 'not-a-cursor', '%00']) {
        expectStatus(await h.owner.get(`${h.events}?cursor=${encodeURIComponent(c)}`), 400);
      }
      // The same cursor for another range of the same household is another list's.
      expectStatus(await h.owner.get(`${h.events}?from=2026-05-01&cursor=${cursor}`), 400, 'validation_failed');
    });
  });

  describe('PATCH and DELETE /events/{eventId}', () => {
    it('replaces whole: every field written, the participant list rebuilt, omitted avoids removed', async () => {
      const h = await household();
      const before = (
        await h.owner.post(
          h.events,
          event({ eventType: 'Guests', servingTime: '17:00', notes: 'Besøk', guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: 'x', avoids: ['nøtter'] }] }),
        )
      ).json;
      clock.set(new Date(NOW.getTime() + 60_000));
      const res = await h.owner.patch(`${h.events}/${before.id}`, event({ date: '2026-05-08', eventType: 'Guests', guests: [{ guestType: 'Adult', guestCount: 3, dietaryNotes: null }] }));
      expectStatus(res, 200);
      expect(res.json).to.deep.include({ id: before.id, date: '2026-05-08', servingTime: null, notes: null, createdAt: before.createdAt, updatedAt: new Date(NOW.getTime() + 60_000).toISOString() });
      expect(res.json.participants).to.have.length(1);
      expect(res.json.participants[0]).to.deep.include({ guestCount: 3, dietaryNotes: null, avoids: [] });
      expect(res.json.participants[0].id).to.not.equal(before.participants[0].id);
      expect((await h.owner.get(h.events)).json.items).to.deep.equal([res.json]);
      const other = await household();
      expectStatus(await other.owner.patch(`${other.events}/${before.id}`, event()), 404, 'event_not_found');
      expectStatus(await h.owner.patch(`${h.events}/${randomUUID()}`, event()), 404, 'event_not_found');
      const junior = await h.join('Junior');
      expectStatus(await junior.client.patch(`${h.events}/${before.id}`, event()), 403, 'adults_only');
    });

    it('deletes for adults; a Junior only her own presence in the window (else junior_forbidden)', async () => {
      const h = await household();
      const junior = await h.join('Junior');
      const own = (await junior.client.post(h.events, presence(junior.memberId, '2026-05-05'))).json;
      const noted = (await h.owner.post(h.events, presence(junior.memberId, '2026-05-05', { notes: 'skole' }))).json;
      const far = (await h.owner.post(h.events, presence(junior.memberId, '2026-05-30'))).json;
      const dinner = (await h.owner.post(h.events, event())).json;
      for (const e of [noted, far, dinner]) expectStatus(await junior.client.delete(`${h.events}/${e.id}`), 403, 'junior_forbidden');
      expectStatus(await junior.client.delete(`${h.events}/${own.id}`), 204);
      expectStatus(await junior.client.delete(`${h.events}/${own.id}`), 404, 'event_not_found');
      const other = await household();
      expectStatus(await other.owner.delete(`${other.events}/${dinner.id}`), 404, 'event_not_found');
      expectStatus(await h.owner.delete(`${h.events}/${dinner.id}`), 204);
      expect(await dates(h.owner, h.events)).to.deep.equal(['2026-05-05', '2026-05-30']);
    });
  });

  describe('runs', () => {
    it('POST /events/run writes one row per day in date order, at most 31 days, adults only', async () => {
      const h = await household();
      const res = await h.owner.post(`${h.events}/run`, run('2026-05-30', '2026-06-02', { eventType: 'Travel', notes: 'Hytta' }));
      expectStatus(res, 201);
      expect(res.json.map((e: { date: string }) => e.date)).to.deep.equal(['2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02']);
      expect(new Set(res.json.map((e: { notes: string; eventType: string }) => `${e.eventType} ${e.notes}`))).to.deep.equal(new Set(['Travel Hytta']));
      expectStatus(await h.owner.post(`${h.events}/run`, run('2026-07-01', '2026-07-31')), 201);
      expectStatus(await h.owner.post(`${h.events}/run`, run('2026-08-01', '2026-09-01')), 400, 'validation_failed');
      expectStatus(await h.owner.post(`${h.events}/run`, run('2026-08-02', '2026-08-01')), 400, 'validation_failed');
      expectStatus(await h.owner.post(`${h.events}/run`, { ...run('2026-08-01', '2026-08-02'), date: undefined, from: undefined }), 400);
      const junior = await h.join('Junior');
      expectStatus(await junior.client.post(`${h.events}/run`, run('2026-05-05', '2026-05-06', presence(junior.memberId, 'x'))), 403, 'adults_only');
      expect((await h.owner.get(`${h.events}?from=2026-08-01&to=2026-09-30`)).json.items).to.deep.equal([]);
      expect((await h.owner.get(`${h.events}?limit=100`)).json.items).to.have.length(35);
    });

    it('PATCH /events/run replaces days[i] and removes the ids past the end; 400 when days outgrow ids; 404 with nothing written', async () => {
      const h = await household();
      const created = (await h.owner.post(`${h.events}/run`, run('2026-05-11', '2026-05-14', { notes: 'Leirskole' }))).json as { id: string }[];
      const ids = created.map((e) => e.id);
      const other = await household();
      const theirs = (await other.owner.post(other.events, event())).json.id;
      const day = (date: string, notes: string) => event({ date, eventType: 'Activity', notes });
      expectStatus(await h.owner.patch(`${h.events}/run`, { ids: ids.slice(0, 1), days: [day('2026-05-11', 'a'), day('2026-05-12', 'b')] }), 400, 'validation_failed');
      expectStatus(await h.owner.patch(`${h.events}/run`, { ids: [ids[0], theirs], days: [day('2026-05-11', 'a')] }), 404, 'event_not_found');
      expectStatus(await h.owner.patch(`${h.events}/run`, { ids: [], days: [] }), 400);
      const junior = await h.join('Junior');
      expectStatus(await junior.client.patch(`${h.events}/run`, { ids, days: [] }), 403, 'adults_only');
      expect((await h.owner.get(h.events)).json.items.map((e: { notes: string }) => e.notes)).to.deep.equal(['Leirskole', 'Leirskole', 'Leirskole', 'Leirskole']);
      const res = await h.owner.patch(`${h.events}/run`, { ids, days: [day('2026-05-11', 'dag 1'), day('2026-05-12', 'dag 2')] });
      expectStatus(res, 200);
      expect(res.json.map((e: { id: string; notes: string; eventType: string }) => [e.id, e.notes, e.eventType])).to.deep.equal([
        [ids[0], 'dag 1', 'Activity'],
        [ids[1], 'dag 2', 'Activity'],
      ]);
      expect((await h.owner.get(h.events)).json.items).to.deep.equal(res.json);
    });

    it('DELETE /events/run by ids removes exactly those rows, or nothing on a foreign id', async () => {
      const h = await household();
      const ids = ((await h.owner.post(`${h.events}/run`, run('2026-05-11', '2026-05-13'))).json as { id: string }[]).map((e) => e.id);
      const other = await household();
      const theirs = (await other.owner.post(other.events, event())).json.id;
      expectStatus(await h.owner.delete(`${h.events}/run?ids=${ids[0]}&ids=${theirs}`), 404, 'event_not_found');
      expect(await dates(h.owner, h.events)).to.deep.equal(['2026-05-11', '2026-05-12', '2026-05-13']);
      expectStatus(await h.owner.delete(`${h.events}/run?ids=not-a-uuid`), 400, 'validation_failed');
      expectStatus(await h.owner.delete(`${h.events}/run?ids=${ids[0]}&ids=${ids[2]}`), 204);
      expect(await dates(h.owner, h.events)).to.deep.equal(['2026-05-12']);
      expectStatus(await h.owner.delete(`${h.events}/run?ids=${ids[1]}`), 204);
      expect(await dates(h.owner, h.events)).to.deep.equal([]);
      expect(await dates(other.owner, other.events)).to.deep.equal(['2026-05-06']);
    });

    it('DELETE /events/run by span removes the one run wholly inside; 409 run_not_unique; 404 none; 400 neither', async () => {
      const h = await household();
      await h.owner.post(`${h.events}/run`, run('2026-05-04', '2026-05-06', { eventType: 'Activity', notes: 'Fotball' }));
      await h.owner.post(`${h.events}/run`, run('2026-05-05', '2026-05-06', { eventType: 'Activity', notes: 'Håndball' }));
      await h.owner.post(`${h.events}/run`, run('2026-05-09', '2026-05-10', { eventType: 'Activity', notes: 'Fotball' }));
      const span = (type: string, from: string, through: string) => `${h.events}/run?type=${type}&from=${from}&through=${through}`;
      expectStatus(await h.owner.delete(span('Activity', '2026-05-01', '2026-05-31')), 409, 'run_not_unique');
      expect(await dates(h.owner, h.events)).to.have.length(7);
      expectStatus(await h.owner.delete(span('Activity', '2026-05-05', '2026-05-08')), 204);
      expect(await dates(h.owner, h.events)).to.deep.equal(['2026-05-04', '2026-05-05', '2026-05-06', '2026-05-09', '2026-05-10']);
      expectStatus(await h.owner.delete(span('Activity', '2026-05-05', '2026-05-10')), 204);
      expectStatus(await h.owner.delete(span('Activity', '2026-05-05', '2026-05-06')), 404, 'run_not_found');
      expectStatus(await h.owner.delete(span('Travel', '2026-05-01', '2026-05-31')), 404, 'run_not_found');
      for (const q of ['', '?type=Activity', '?type=Activity&from=2026-05-01', '?from=2026-05-01&through=2026-05-31', '?type=Nope&from=2026-05-01&through=2026-05-31']) {
        expectStatus(await h.owner.delete(`${h.events}/run${q}`), 400, 'validation_failed');
      }
      const junior = await h.join('Junior');
      expectStatus(await junior.client.delete(span('Activity', '2026-05-01', '2026-05-31')), 403, 'adults_only');
      expect(await dates(h.owner, h.events)).to.deep.equal(['2026-05-04', '2026-05-05', '2026-05-06']);
    });

    it('two adults editing the same run at once leave one serial outcome, never a half-written run', async () => {
      const h = await household();
      const adult = await h.join('Adult');
      for (let round = 0; round < 3; round++) {
        const from = `2026-06-${String(1 + round * 7).padStart(2, '0')}`;
        const created = (await h.owner.post(`${h.events}/run`, run(from, from.replace(/\d\d$/, (d) => String(Number(d) + 4).padStart(2, '0')), { notes: 'start' }))).json as {
          id: string;
          date: string;
        }[];
        const ids = created.map((e) => e.id);
        const days = (notes: string, n: number) => created.slice(0, n).map((e) => event({ date: e.date, eventType: 'Guests', notes, guests: [{ guestType: 'Adult', guestCount: 1, dietaryNotes: notes }] }));
        const answers = await Promise.all([
          h.owner.patch(`${h.events}/run`, { ids, days: days('A', 5) }),
          adult.client.patch(`${h.events}/run`, { ids, days: days('B', 3) }),
          round === 2 ? adult.client.delete(`${h.events}/run?${ids.map((id) => `ids=${id}`).join('&')}`) : h.owner.patch(`${h.events}/run`, { ids, days: days('C', 5) }),
        ]);
        for (const a of answers) expect([200, 204, 404], a.text).to.include(a.status);
        const after = (await h.owner.get(`${h.events}?from=${created[0]!.date}&to=${created[4]!.date}`)).json.items as { id: string; notes: string; participants: { dietaryNotes: string }[] }[];
        // Serial outcomes: the last writer's whole run (A: five days; B: three days; C: five), or nothing after the removal.
        const outcome = after.length === 0 ? 'removed' : `${after[0]!.notes}${after.length}`;
        expect(['A5', 'B3', 'C5', 'removed']).to.include(outcome);
        for (const e of after) expect([e.notes, e.participants.map((p) => p.dietaryNotes)]).to.deep.equal([after[0]!.notes, [after[0]!.notes]]);
        expect(after.map((e) => e.id)).to.deep.equal(ids.slice(0, after.length));
      }
    });
  });
});
