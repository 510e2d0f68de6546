import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';

httpSuite('households over HTTP', {}, (server) => {
  async function householdOf(client: Client, body: Record<string, unknown> = { name: 'Hansen' }) {
    const res = await client.post('/api/v1/households', body);
    expect(res.status, res.text).to.equal(201);
    return res.json;
  }

  /** Makes `who` a member of the household with `role`, as invites will. */
  async function join(householdId: string, who: Client, role: 'Adult' | 'Junior') {
    const me = (await who.get('/api/v1/me')).json;
    await server.runtime.deps.households.addMember(householdId, { id: randomUUID(), displayName: me.user.displayName, role, accountId: me.user.id, createdAt: new Date() });
  }

  it('creates a household with defaults, the caller as Owner, listed in MeResponse', async () => {
    const { client } = await server.signedIn('Kari');
    const res = await client.post('/api/v1/households', { name: '  Hansen  ' });
    expect(res.status).to.equal(201);
    expect(res.headers.get('location')).to.equal(`/api/v1/households/${res.json.id}`);
    expect(res.json).to.include({ name: 'Hansen', timeZoneId: 'Europe/Oslo', language: 'nb', country: 'NO', dinnerTime: '18:00', plan: 'Free' });
    expect(res.json.chains).to.deep.equal([]);
    expect(res.json.dislikes).to.deep.equal([]);
    const me = (await client.get('/api/v1/me')).json;
    expect(res.json.members).to.deep.equal([{ id: res.json.members[0].id, displayName: 'Kari', role: 'Owner', ageGroup: 'Adult', userId: me.user.id }]);
    expect(me.memberships).to.deep.equal([{ householdId: res.json.id, householdName: 'Hansen', role: 'Owner', memberId: res.json.members[0].id }]);
  });

  it('takes language, country and a known time zone; refuses an unknown zone and bad values', async () => {
    const { client } = await server.signedIn();
    const h = await householdOf(client, { name: 'Smith', timeZoneId: 'Europe/London', language: 'en', country: 'GB' });
    expect(h).to.include({ timeZoneId: 'Europe/London', language: 'en', country: 'GB' });
    const unknown = await client.post('/api/v1/households', { name: 'X', timeZoneId: 'Mars/Olympus' });
    expect(unknown.status).to.equal(400);
    expect(unknown.json.code).to.equal('time_zone_unknown');
    for (const body of [{}, { name: '' }, { name: null }, { name: 'X', language: 'de' }, { name: 'X', country: 'norway' }]) {
      const res = await client.post('/api/v1/households', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
    expect((await client.post('/api/v1/households', { name: 'x'.repeat(81) })).json.code).to.equal('value_too_long');
    expect((await client.get('/api/v1/me')).json.memberships).to.have.length(1);
  });

  it('lets any member read and answers 404 to everyone else', async () => {
    const { client: owner } = await server.signedIn();
    const { client: junior } = await server.signedIn();
    const { client: stranger } = await server.signedIn();
    const h = await householdOf(owner);
    await join(h.id, junior, 'Junior');
    expect((await owner.get(`/api/v1/households/${h.id}`)).json.id).to.equal(h.id);
    const asJunior = await junior.get(`/api/v1/households/${h.id}`);
    expect(asJunior.status).to.equal(200);
    expect(asJunior.json.members.map((m: { role: string }) => m.role)).to.deep.equal(['Owner', 'Junior']);
    const asStranger = await stranger.get(`/api/v1/households/${h.id}`);
    expect(asStranger.status).to.equal(404);
    expect(asStranger.json.code).to.equal('household_not_found');
    expect((await owner.get(`/api/v1/households/${randomUUID()}`)).status).to.equal(404);
    expect((await owner.get('/api/v1/households/not-a-uuid')).status).to.equal(400);
  });

  it('lets adults update; a Junior gets 403 adults_only and a stranger 404, changing nothing', async () => {
    const { client: owner } = await server.signedIn();
    const { client: adult } = await server.signedIn();
    const { client: junior } = await server.signedIn();
    const { client: stranger } = await server.signedIn();
    const h = await householdOf(owner);
    await join(h.id, adult, 'Adult');
    await join(h.id, junior, 'Junior');

    const byAdult = await adult.patch(`/api/v1/households/${h.id}`, { name: 'Hansen-Berg', dinnerTime: '17:30', chains: ['Kiwi', 'Rema 1000'], language: 'en' });
    expect(byAdult.status).to.equal(200);
    expect(byAdult.json).to.include({ name: 'Hansen-Berg', dinnerTime: '17:30', language: 'en', timeZoneId: 'Europe/Oslo' });
    expect(byAdult.json.chains).to.deep.equal(['Kiwi', 'Rema 1000']);

    const byJunior = await junior.patch(`/api/v1/households/${h.id}`, { name: 'Mine' });
    expect(byJunior.status).to.equal(403);
    expect(byJunior.json.code).to.equal('adults_only');
    const byStranger = await stranger.patch(`/api/v1/households/${h.id}`, { name: 'Mine' });
    expect(byStranger.status).to.equal(404);
    expect((await owner.get(`/api/v1/households/${h.id}`)).json.name).to.equal('Hansen-Berg');
    expect((await junior.get('/api/v1/me')).json.memberships[0]).to.include({ householdName: 'Hansen-Berg', role: 'Junior' });
  });

  it('takes dislikes from adults (trimmed, each once whatever its case) and refuses bad ones without changing anything', async () => {
    const { client } = await server.signedIn();
    const { client: junior } = await server.signedIn();
    const h = await householdOf(client);
    await join(h.id, junior, 'Junior');
    const set = await client.patch(`/api/v1/households/${h.id}`, { dislikes: ['  Rosenkål ', 'rosenkål', 'Lever', 'koriander'] });
    expect(set.status, set.text).to.equal(200);
    expect(set.json.dislikes).to.deep.equal(['Rosenkål', 'Lever', 'koriander']);
    expect((await junior.patch(`/api/v1/households/${h.id}`, { dislikes: [] })).status).to.equal(403);
    for (const [dislikes, code] of [
      [Array.from({ length: 21 }, (_, i) => `mat${i}`), 'value_too_long'],
      [['  '], 'validation_failed'],
      [['x'.repeat(201)], 'value_too_long'],
      ['lever', 'validation_failed'],
      [[42], 'validation_failed'],
    ] as const) {
      const res = await client.patch(`/api/v1/households/${h.id}`, { dislikes });
      expect([res.status, res.json.code], JSON.stringify(dislikes).slice(0, 40)).to.deep.equal([400, code]);
    }
    expect((await junior.get(`/api/v1/households/${h.id}`)).json.dislikes).to.deep.equal(['Rosenkål', 'Lever', 'koriander']);
    expect((await client.patch(`/api/v1/households/${h.id}`, { dislikes: Array.from({ length: 20 }, (_, i) => `mat${i}`) })).json.dislikes).to.have.length(20);
  });

  it('checks timeZoneId against /api/v1/time-zones and refuses bad values without changing anything', async () => {
    const { client } = await server.signedIn();
    const h = await householdOf(client);
    const zones: string[] = (await client.get('/api/v1/time-zones')).json.timeZones;
    const zone = zones.find((z) => z === 'America/New_York')!;
    expect((await client.patch(`/api/v1/households/${h.id}`, { timeZoneId: zone })).json.timeZoneId).to.equal(zone);
    const bad = await client.patch(`/api/v1/households/${h.id}`, { timeZoneId: 'Europe/Atlantis' });
    expect(bad.status).to.equal(400);
    expect(bad.json.code).to.equal('time_zone_unknown');
    for (const body of [{ dinnerTime: '25:00' }, { dinnerTime: '6pm' }, { chains: [''] }, { chains: 'Kiwi' }, { name: null }]) {
      expect((await client.patch(`/api/v1/households/${h.id}`, body)).status, JSON.stringify(body)).to.equal(400);
    }
    const after = (await client.get(`/api/v1/households/${h.id}`)).json;
    expect(after).to.include({ timeZoneId: zone, dinnerTime: '18:00', name: 'Hansen' });
  });
});
