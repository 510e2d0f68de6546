import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createHousehold, getHousehold, updateHousehold } from '../../core/households/households.js';
import { describeMe } from '../../core/households/me.js';
import type { Account } from '../../core/accounts/types.js';
import { account, domain } from './support.js';

describe('households (domain)', () => {
  it('creates a household with defaults and the caller as its Owner', async () => {
    const { deps, clock } = domain();
    const kari = await account(deps, 'kari@example.com');
    const r = await createHousehold(deps, kari, { name: '  Hansen  ' });
    if (!r.ok) throw new Error('create failed');
    expect(r.value).to.include({ name: 'Hansen', timeZoneId: 'Europe/Oslo', language: 'nb', country: 'NO', dinnerTime: '18:00', plan: 'Free' });
    expect(r.value.createdAt).to.deep.equal(clock.now());
    expect(r.value.members.map((m) => [m.displayName, m.role, m.accountId])).to.deep.equal([['kari', 'Owner', kari.id]]);
    const me = await describeMe(deps, kari);
    expect(me.memberships).to.deep.equal([{ householdId: r.value.id, householdName: 'Hansen', role: 'Owner', memberId: r.value.members[0]!.id }]);
  });

  it('refuses a time zone the server does not know', async () => {
    const { deps } = domain();
    const kari = await account(deps, 'kari@example.com');
    expect(await createHousehold(deps, kari, { name: 'H', timeZoneId: 'Mars/Olympus' })).to.deep.equal({ ok: false, error: { type: 'time-zone-unknown', timeZoneId: 'Mars/Olympus' } });
    expect((await createHousehold(deps, kari, { name: 'H', timeZoneId: 'UTC' })).ok).to.equal(true);
  });

  it('lets members read, adults write, and hides the household from everyone else', async () => {
    const { deps, clock } = domain();
    const kari = await account(deps, 'kari@example.com');
    const ola = await account(deps, 'ola@example.com');
    const junior = await account(deps, 'junior@example.com');
    const created = await createHousehold(deps, kari, { name: 'Hansen' });
    if (!created.ok) throw new Error('create failed');
    const id = created.value.id;
    await deps.households.addMember(id, { id: randomUUID(), displayName: 'Junior', role: 'Junior', accountId: junior.id, createdAt: clock.now() });

    expect(await getHousehold(deps, ola, id)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(await getHousehold(deps, kari, randomUUID())).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect((await getHousehold(deps, junior, id)).ok).to.equal(true);

    expect(await updateHousehold(deps, junior, id, { name: 'Mine' })).to.deep.equal({ ok: false, error: { type: 'adults-only' } });
    expect(await updateHousehold(deps, ola, id, { name: 'Mine' })).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect((await getHousehold(deps, kari, id)).ok && (await deps.households.byId(id))?.name).to.equal('Hansen');
  });

  it('updates only what is sent, checks the time zone, and keeps chains unique', async () => {
    const { deps, clock } = domain();
    const kari = await account(deps, 'kari@example.com');
    const created = await createHousehold(deps, kari, { name: 'Hansen' });
    if (!created.ok) throw new Error('create failed');
    clock.advance(60_000);
    const r = await updateHousehold(deps, kari, created.value.id, { dinnerTime: '17:30', chains: ['Kiwi', ' Kiwi ', 'Rema 1000'] });
    expect(r.ok && r.value).to.include({ name: 'Hansen', dinnerTime: '17:30', timeZoneId: 'Europe/Oslo' });
    expect(r.ok && r.value.chains).to.deep.equal(['Kiwi', 'Rema 1000']);
    expect(r.ok && r.value.updatedAt).to.deep.equal(clock.now());
    expect(await updateHousehold(deps, kari, created.value.id, { timeZoneId: 'Nowhere/City' })).to.deep.equal({ ok: false, error: { type: 'time-zone-unknown', timeZoneId: 'Nowhere/City' } });
  });
});
