import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import { createHousehold } from '../../core/households/households.js';
import { acceptInvite, createInvite } from '../../core/households/invites.js';
import { addNamedMember, removeMember, updateMember } from '../../core/households/members.js';
import { account, domain, value } from './support.js';

type Deps = ReturnType<typeof domain>['deps'];

async function setup() {
  const { deps, clock } = domain();
  const owner = await account(deps, 'owner');
  const h = await createHousehold(deps, owner, { name: 'Hansen' });
  if (!h.ok) throw new Error('create failed');
  return { deps, clock, owner, householdId: h.value.id };
}

describe('members and invites (domain)', () => {
  it('accepting a code for a named person claims that person, once', async () => {
    const { deps, owner, householdId } = await setup();
    const person = value(await addNamedMember(deps, owner, householdId, { displayName: 'Lille', role: 'Junior' }));
    const invite = value(await createInvite(deps, owner, householdId, { role: 'Junior', memberId: person.id }));
    const kid = await account(deps, 'kid');
    const m = value(await acceptInvite(deps, kid, { code: invite.code }));
    expect(m).to.deep.equal({ householdId, householdName: 'Hansen', role: 'Junior', memberId: person.id });
    expect(value(await acceptInvite(deps, kid, { code: invite.code }))).to.deep.equal(m);
    expect(await acceptInvite(deps, await account(deps, 'late'), { code: invite.code })).to.deep.equal({ ok: false, error: { type: 'invite-not-usable' } });
    const events = await deps.pushOutbox.pending(10);
    expect(events.map((e) => e.event)).to.deep.equal([{ kind: 'member-joined', memberId: person.id, displayName: 'Lille', actorAccountId: kid.id }]);
  });

  it('an expired code is refused, but not to someone already in the household', async () => {
    const { deps, clock, owner, householdId } = await setup();
    const invite = value(await createInvite(deps, owner, householdId, { role: 'Adult', expiresInDays: 1 }));
    clock.advance(86_400_000);
    expect(await acceptInvite(deps, await account(deps, 'late'), { code: invite.code })).to.deep.equal({ ok: false, error: { type: 'invite-not-usable' } });
    expect(value(await acceptInvite(deps, owner, { code: invite.code })).role).to.equal('Owner');
  });

  it('guards the Owner role and the last Owner', async () => {
    const { deps, owner, householdId } = await setup();
    const ownerMember = (await deps.households.memberByAccount(householdId, owner.id))!;
    const adult = await account(deps, 'adult');
    const invite = value(await createInvite(deps, owner, householdId, { role: 'Adult' }));
    const adultMember = value(await acceptInvite(deps, adult, { code: invite.code }));
    expect(await updateMember(deps, owner, householdId, ownerMember.id, { role: 'Adult' })).to.deep.equal({ ok: false, error: { type: 'owner-required' } });
    expect(await removeMember(deps, owner, householdId, ownerMember.id)).to.deep.equal({ ok: false, error: { type: 'owner-required' } });
    expect(await updateMember(deps, adult, householdId, adultMember.memberId, { role: 'Owner' })).to.deep.equal({ ok: false, error: { type: 'owner-only' } });
    expect(await removeMember(deps, adult, householdId, ownerMember.id)).to.deep.equal({ ok: false, error: { type: 'owner-only' } });
    expect(value(await updateMember(deps, adult, householdId, adultMember.memberId, { displayName: ' Voksen ' })).displayName).to.equal('Voksen');
  });
});
