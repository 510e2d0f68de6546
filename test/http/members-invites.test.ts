import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';

const DAY = 86_400_000;

httpSuite('household members and invites', { now: new Date() }, (server) => {
  const { clock } = server;

  async function household() {
    const owner = await server.signedIn('Owner');
    const h = (await owner.client.post('/api/v1/households', { name: 'Hansen' })).json;
    return { owner: owner.client, h, base: `/api/v1/households/${h.id}` };
  }
  async function joined(owner: Client, base: string, role: 'Adult' | 'Junior', name = role) {
    const { client } = await server.signedIn(name);
    const code = (await owner.post(`${base}/invites`, { role })).json.code;
    const res = await client.post('/api/v1/invites/accept', { code });
    expect(res.status, res.text).to.equal(200);
    return { client, memberId: res.json.memberId as string };
  }
  const pendingJoins = async (householdId: string) =>
    (await server.runtime.deps.pushOutbox.pending(1000)).filter((e) => e.householdId === householdId && e.event.kind === 'member-joined');

  describe('members', () => {
    it('adds a named person; adults rename and re-role; a Junior gets 403 adults_only', async () => {
      const { owner, base } = await household();
      const res = await owner.post(`${base}/members`, { displayName: ' Lille ', role: 'Junior' });
      expect(res.status).to.equal(201);
      expect(res.json).to.include({ displayName: 'Lille', role: 'Junior', userId: null });
      const junior = await joined(owner, base, 'Junior');
      const adult = await joined(owner, base, 'Adult');
      const renamed = await adult.client.patch(`${base}/members/${res.json.id}`, { displayName: 'Lillebror', role: 'Adult' });
      expect(renamed.json).to.include({ displayName: 'Lillebror', role: 'Adult' });
      for (const call of [
        () => junior.client.post(`${base}/members`, { displayName: 'X', role: 'Adult' }),
        () => junior.client.patch(`${base}/members/${res.json.id}`, { displayName: 'X' }),
        () => junior.client.delete(`${base}/members/${res.json.id}`),
        () => junior.client.post(`${base}/invites`, { role: 'Adult' }),
        () => junior.client.get(`${base}/invites`),
      ]) {
        const r = await call();
        expect([r.status, r.json.code]).to.deep.equal([403, 'adults_only']);
      }
      expect((await junior.client.get(base)).json.members.find((m: { id: string }) => m.id === res.json.id).displayName).to.equal('Lillebror');
      expect((await owner.post(`${base}/members`, { displayName: 'X', role: 'Owner' })).status).to.equal(400);
      expect((await owner.patch(`${base}/members/${randomUUID()}`, { displayName: 'X' })).json.code).to.equal('member_not_found');
    });

    it('keeps the last Owner: neither demoted nor removed; only an Owner touches the Owner role', async () => {
      const { owner, h, base } = await household();
      const ownerId = h.members[0].id;
      const demote = await owner.patch(`${base}/members/${ownerId}`, { role: 'Adult' });
      expect([demote.status, demote.json.code]).to.deep.equal([400, 'owner_required']);
      const remove = await owner.delete(`${base}/members/${ownerId}`);
      expect([remove.status, remove.json.code]).to.deep.equal([400, 'owner_required']);

      const adult = await joined(owner, base, 'Adult');
      const grab = await adult.client.patch(`${base}/members/${adult.memberId}`, { role: 'Owner' });
      expect([grab.status, grab.json.code]).to.deep.equal([403, 'owner_only']);
      expect((await adult.client.delete(`${base}/members/${ownerId}`)).json.code).to.equal('owner_only');

      expect((await owner.patch(`${base}/members/${adult.memberId}`, { role: 'Owner' })).json.role).to.equal('Owner');
      // With two Owners, one may step down or be removed.
      expect((await owner.patch(`${base}/members/${ownerId}`, { role: 'Adult' })).json.role).to.equal('Adult');
      expect((await owner.patch(`${base}/members/${ownerId}`, { role: 'Owner' })).json.code).to.equal('owner_only');
      expect((await adult.client.delete(`${base}/members/${ownerId}`)).status).to.equal(204);
      expect((await owner.get(base)).status).to.equal(404);
      expect((await owner.get('/api/v1/me')).json.memberships).to.deep.equal([]);
    });
  });

  describe('age groups', () => {
    it('weighs a member in the week\'s portions and its shopping list as a guest of the age group', async () => {
      const { owner, h, base } = await household();
      expect(h.members[0].ageGroup).to.equal('Adult');
      expect((await owner.post(`${base}/members`, { displayName: 'Ola', role: 'Adult' })).json.ageGroup).to.equal('Adult');
      const lille = await owner.post(`${base}/members`, { displayName: 'Lille', role: 'Junior', ageGroup: 'Child' });
      expect([lille.status, lille.json.ageGroup]).to.deep.equal([201, 'Child']);
      const plan = (await owner.put(`${base}/plans/week/2026-11-23`)).json;
      // Two adults and a child: 2.5 portions, rounded up.
      expect(plan.days[0].portions).to.equal(3);
      const dish = await owner.post(`${base}/recipes`, { title: 'Potetmos', servings: 2, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [{ displayName: 'Poteter', quantity: 1, unit: 'kg', optional: false, baseRecipeId: null, reference: null }] });
      await owner.put(`${base}/plans/${plan.id}/days/2026-11-23`, { recipeId: dish.json.id, portions: null, note: null });
      const potatoes = async () => ((await owner.get(`${base}/plans/${plan.id}/shopping-list`)).json.items as { displayName: string; requiredQuantity: number }[]).find((i) => i.displayName === 'Poteter')?.requiredQuantity;
      expect(await potatoes()).to.equal(1.5);

      const baby = await owner.patch(`${base}/members/${lille.json.id}`, { ageGroup: 'Baby' });
      expect(baby.json).to.include({ displayName: 'Lille', role: 'Junior', ageGroup: 'Baby' });
      expect((await owner.get(`${base}/plans/${plan.id}`)).json.days[0].portions).to.equal(2);
      expect(await potatoes()).to.equal(1);
      expect((await owner.get(base)).json.members.map((m: { displayName: string; ageGroup: string }) => [m.displayName, m.ageGroup])).to.have.deep.members([['Owner', 'Adult'], ['Ola', 'Adult'], ['Lille', 'Baby']]);
      for (const res of [await owner.post(`${base}/members`, { displayName: 'X', role: 'Junior', ageGroup: 'Teen' }), await owner.patch(`${base}/members/${lille.json.id}`, { ageGroup: 'child' })]) {
        expect([res.status, res.json.code]).to.deep.equal([400, 'validation_failed']);
      }
    });
  });

  describe('invites', () => {
    it('makes, lists and withdraws codes; other households cannot see them', async () => {
      const { owner, base } = await household();
      const other = await household();
      const made = await owner.post(`${base}/invites`, { role: 'Adult', expiresInDays: 3 });
      expect(made.status).to.equal(201);
      expect(made.json.code).to.match(/^[0-9A-HJKMNP-TV-Z]{12}$/);
      expect(new Date(made.json.expiresAt).getTime() - new Date(made.json.createdAt).getTime()).to.equal(3 * DAY);
      expect((await owner.get(`${base}/invites`)).json.map((i: { code: string }) => i.code)).to.deep.equal([made.json.code]);
      expect((await other.owner.get(`${base}/invites`)).status).to.equal(404);
      expect((await other.owner.delete(`${other.base}/invites/${made.json.code}`)).json.code).to.equal('invite_not_found');
      for (const body of [{ role: 'Owner' }, { role: 'Adult', expiresInDays: 31 }, { role: 'Adult', expiresInDays: 0 }, { role: 'Adult', memberId: 'x' }]) {
        expect((await owner.post(`${base}/invites`, body)).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await owner.post(`${base}/invites`, { role: 'Adult', memberId: randomUUID() })).json.code).to.equal('member_not_found');
      expect((await owner.delete(`${base}/invites/${made.json.code}`)).status).to.equal(204);
      expect((await owner.get(`${base}/invites`)).json).to.deep.equal([]);
    });

    it('accept joins once, is retry-safe, records a joined push, and a used code is not usable by others', async () => {
      const { owner, h, base } = await household();
      const code = (await owner.post(`${base}/invites`, { role: 'Adult' })).json.code;
      const { client: joiner } = await server.signedIn('Joiner');
      const first = await joiner.post('/api/v1/invites/accept', { code: code.toLowerCase().replace(/(.{4})/g, '$1-').slice(0, -1) });
      expect(first.status).to.equal(200);
      expect(first.json).to.include({ householdId: h.id, householdName: 'Hansen', role: 'Adult' });
      const again = await joiner.post('/api/v1/invites/accept', { code });
      expect(again.json).to.deep.equal(first.json);
      expect((await joiner.get('/api/v1/me')).json.memberships).to.deep.equal([first.json]);
      const joinerId = (await joiner.get('/api/v1/me')).json.user.id;
      expect((await pendingJoins(h.id)).map((e) => e.event)).to.deep.equal([{ kind: 'member-joined', memberId: first.json.memberId, displayName: 'Joiner', actorAccountId: joinerId }]);

      const { client: late } = await server.signedIn();
      const used = await late.post('/api/v1/invites/accept', { code });
      expect([used.status, used.json.code]).to.deep.equal([400, 'invite_not_usable']);
      expect((await late.post('/api/v1/invites/accept', { code: 'ZZZZZZZZZZZZ' })).json.code).to.equal('invite_not_usable');
      expect((await owner.get(base)).json.members).to.have.length(2);
    });

    it('a member accepting another code gets 200 and the code stays unused', async () => {
      const { owner, base } = await household();
      const adult = await joined(owner, base, 'Adult');
      const code = (await owner.post(`${base}/invites`, { role: 'Junior' })).json.code;
      const res = await adult.client.post('/api/v1/invites/accept', { code });
      expect(res.status).to.equal(200);
      expect(res.json.role).to.equal('Adult');
      expect((await owner.get(`${base}/invites`)).json.map((i: { code: string }) => i.code)).to.include(code);
    });

    it('an expired code is not usable', async () => {
      const { owner, base } = await household();
      const code = (await owner.post(`${base}/invites`, { role: 'Adult', expiresInDays: 1 })).json.code;
      clock.advance(DAY);
      const { client } = await server.signedIn();
      const res = await client.post('/api/v1/invites/accept', { code });
      expect([res.status, res.json.code]).to.deep.equal([400, 'invite_not_usable']);
    });

    it('a code for a named person links the account to that person', async () => {
      const { owner, base } = await household();
      const person = (await owner.post(`${base}/members`, { displayName: 'Lille', role: 'Junior' })).json;
      const code = (await owner.post(`${base}/invites`, { role: 'Junior', memberId: person.id })).json.code;
      const { client } = await server.signedIn('Account Name');
      const res = await client.post('/api/v1/invites/accept', { code });
      expect(res.json).to.include({ memberId: person.id, role: 'Junior' });
      const me = (await client.get('/api/v1/me')).json;
      const members = (await owner.get(base)).json.members;
      expect(members).to.have.length(2);
      expect(members.find((m: { id: string }) => m.id === person.id)).to.deep.equal({ id: person.id, displayName: 'Lille', role: 'Junior', ageGroup: 'Adult', userId: me.user.id });
      // A claimed person cannot be invited again.
      expect((await owner.post(`${base}/invites`, { role: 'Junior', memberId: person.id })).json.code).to.equal('member_not_found');
    });

    it('when the named person was claimed or removed meanwhile, the join is unlinked', async () => {
      const { owner, base } = await household();
      const person = (await owner.post(`${base}/members`, { displayName: 'Lille', role: 'Junior' })).json;
      const first = (await owner.post(`${base}/invites`, { role: 'Junior', memberId: person.id })).json.code;
      const second = (await owner.post(`${base}/invites`, { role: 'Junior', memberId: person.id })).json.code;
      const a = await server.signedIn('A');
      expect((await a.client.post('/api/v1/invites/accept', { code: first })).json.memberId).to.equal(person.id);
      const b = await server.signedIn('B');
      const res = await b.client.post('/api/v1/invites/accept', { code: second });
      expect(res.status).to.equal(200);
      expect(res.json.memberId).to.not.equal(person.id);

      const other = (await owner.post(`${base}/members`, { displayName: 'Borte', role: 'Junior' })).json;
      const third = (await owner.post(`${base}/invites`, { role: 'Junior', memberId: other.id })).json.code;
      expect((await owner.delete(`${base}/members/${other.id}`)).status).to.equal(204);
      const open = (await owner.get(`${base}/invites`)).json.find((i: { code: string }) => i.code === third);
      expect(open.memberId).to.equal(null);
      const c = await server.signedIn('C');
      const joinedC = await c.client.post('/api/v1/invites/accept', { code: third });
      expect(joinedC.status).to.equal(200);
      const members = (await owner.get(base)).json.members;
      expect(members.find((m: { id: string }) => m.id === joinedC.json.memberId)).to.include({ displayName: 'C', role: 'Junior' });
    });

    it('simultaneous accepts of one code by two people: exactly one joins', async () => {
      const { owner, base } = await household();
      const code = (await owner.post(`${base}/invites`, { role: 'Adult' })).json.code;
      const a = await server.signedIn();
      const b = await server.signedIn();
      const answers = await Promise.all([a.client.post('/api/v1/invites/accept', { code }), b.client.post('/api/v1/invites/accept', { code })]);
      expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 400]);
      expect((await owner.get(base)).json.members).to.have.length(2);
    });

    it('state=all lists also the codes used or expired in the last 30 days, a used one with when and by whom', async () => {
      const { owner, base } = await household();
      const eva = (await owner.post(`${base}/members`, { displayName: 'Eva', role: 'Adult' })).json;
      const forEva = (await owner.post(`${base}/invites`, { role: 'Adult', memberId: eva.id })).json.code;
      const short = (await owner.post(`${base}/invites`, { role: 'Junior', expiresInDays: 1 })).json.code;
      const withdrawn = (await owner.post(`${base}/invites`, { role: 'Adult' })).json.code;
      clock.advance(1000);
      const open = (await owner.post(`${base}/invites`, { role: 'Adult', expiresInDays: 7 })).json.code;
      const { client } = await server.signedIn('Eva Konto');
      const usedAt = clock.now().toISOString();
      expect((await client.post('/api/v1/invites/accept', { code: forEva })).status).to.equal(200);
      expect((await owner.delete(`${base}/invites/${withdrawn}`)).status).to.equal(204);
      clock.advance(2 * DAY);
      const states = async (query = '') => ((await owner.get(`${base}/invites${query}`)).json as { code: string; state: string; usedAt: string | null; usedByMemberId: string | null }[]).map((i) => [i.code, i.state, i.usedAt, i.usedByMemberId]);
      // The default stays the open ones.
      expect(await states()).to.deep.equal([[open, 'open', null, null]]);
      expect(await states('?state=open')).to.deep.equal(await states());
      expect(await states('?state=all')).to.have.deep.members([
        [open, 'open', null, null],
        [forEva, 'used', usedAt, eva.id],
        [short, 'expired', null, null],
      ]);
      expect((await states('?state=all'))[0]![0]).to.equal(open);
      // 30 days on, the used code and the one that expired first are gone; the open one has expired since (the
      // session is used half way, so that it lasts).
      clock.advance(16 * DAY);
      expect(await states('?state=all')).to.have.length(3);
      clock.advance(13 * DAY);
      expect(await states('?state=all')).to.deep.equal([[open, 'expired', null, null]]);
      expect((await owner.get(`${base}/invites?state=used`)).status).to.equal(400);
    });

    it('shows an open code\'s household, inviter and person to anyone; any code that does not work answers alike', async () => {
      const { owner, base } = await household();
      await owner.patch(`${base}/members/${(await owner.get(base)).json.members[0].id}`, { displayName: 'Kari Hansen' });
      const eva = (await owner.post(`${base}/members`, { displayName: 'Eva', role: 'Junior', ageGroup: 'Child' })).json;
      const made = (await owner.post(`${base}/invites`, { role: 'Junior', memberId: eva.id })).json;
      const anon = server.client();
      const seen = await anon.get(`/api/v1/invites/${made.code.toLowerCase().replace(/(.{4})/g, '$1-').slice(0, -1)}`);
      expect(seen.status, seen.text).to.equal(200);
      expect(seen.json).to.deep.equal({ householdName: 'Hansen', invitedBy: 'Kari Hansen', role: 'Junior', memberName: 'Eva', expiresAt: made.expiresAt });
      const anyone = (await owner.post(`${base}/invites`, { role: 'Adult', expiresInDays: 1 })).json.code;
      expect((await anon.get(`/api/v1/invites/${anyone}`)).json).to.include({ memberName: null, role: 'Adult' });

      const { client } = await server.signedIn('Eva');
      expect((await client.post('/api/v1/invites/accept', { code: made.code })).status).to.equal(200);
      clock.advance(DAY);
      const refusals = [await anon.get(`/api/v1/invites/${made.code}`), await anon.get(`/api/v1/invites/${anyone}`), await anon.get('/api/v1/invites/ZZZZZZZZZZZZ')];
      const shapes = refusals.map((r) => ({ status: r.status, ...r.json, instance: undefined, traceId: undefined }));
      expect(shapes[0]).to.include({ status: 404, code: 'invite_not_open' });
      expect(shapes[1]).to.deep.equal(shapes[0]);
      expect(shapes[2]).to.deep.equal(shapes[0]);
    });

    it('deleting the account removes the codes it made', async () => {
      const { owner, base } = await household();
      const adult = await joined(owner, base, 'Adult');
      const code = (await adult.client.post(`${base}/invites`, { role: 'Junior' })).json.code;
      expect((await adult.client.delete('/api/v1/me')).status).to.equal(204);
      expect((await owner.get(`${base}/invites`)).json.map((i: { code: string }) => i.code)).to.not.include(code);
      const { client } = await server.signedIn();
      expect((await client.post('/api/v1/invites/accept', { code })).json.code).to.equal('invite_not_usable');
    });
  });
});
