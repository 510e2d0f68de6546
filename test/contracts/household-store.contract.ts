import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { NewHousehold, NewMember } from '../../ports/household-store.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

export function householdStoreContract(backend: Backend): void {
  storeSuite(backend, 'HouseholdStore', (s) => {
    const household = (over: Partial<NewHousehold> = {}): NewHousehold => ({
      id: randomUUID(),
      name: 'Familien Hansen',
      timeZoneId: 'Europe/Oslo',
      language: 'nb',
      country: 'NO',
      dinnerTime: '18:00',
      chains: ['Rema 1000', 'Kiwi'],
      plan: 'Free',
      createdAt: at('2026-02-01T12:00:00.500Z'),
      ...over,
    });
    const member = (accountId: string | null, over: Partial<NewMember> = {}): NewMember => ({
      id: randomUUID(),
      displayName: 'Kari',
      role: 'Owner',
      ageGroup: 'Adult',
      accountId,
      createdAt: at('2026-02-01T12:00:00.500Z'),
      ...over,
    });

    async function withOwner() {
      const account = await createdAccount(s);
      const h = household();
      const owner = member(account.id);
      const created = await s.households.create(h, owner);
      return { account, h, owner, created };
    }

    it('round-trips a household with its first member, arrays and dates included', async () => {
      const { h, owner, created } = await withOwner();
      // New households share list changes and show prices unless told otherwise.
      const expected = { ...h, sharingOff: false, priceCatalogueOn: true, dislikes: [], libraryRecipesOn: false, leftoversKeepDays: 3, updatedAt: h.createdAt, members: [{ ...owner, householdId: h.id }] };
      expect(created).to.deep.equal(expected);
      expect(await s.households.byId(h.id)).to.deep.equal(expected);
    });

    it('answers null for a household that does not exist', async () => {
      expect(await s.households.byId(randomUUID())).to.equal(null);
      expect(await s.households.update(randomUUID(), { name: 'x' }, at('2026-01-01T00:00:00Z'))).to.equal(null);
    });

    it('finds the member row of an account only within the asked household', async () => {
      const { account, h, owner } = await withOwner();
      expect(await s.households.memberByAccount(h.id, account.id)).to.deep.equal({ ...owner, householdId: h.id });
      // Another household of another account: the first account is not its member.
      const other = await createdAccount(s);
      const h2 = household({ name: 'Andre' });
      await s.households.create(h2, member(other.id));
      expect(await s.households.memberByAccount(h2.id, account.id)).to.equal(null);
      expect(await s.households.memberByAccount(randomUUID(), account.id)).to.equal(null);
    });

    it('adds named people and accounts as members, listed oldest first', async () => {
      const { h } = await withOwner();
      const junior = await s.households.addMember(h.id, member(null, { displayName: 'Lille', role: 'Junior', createdAt: at('2026-02-02T00:00:00.000Z') }));
      expect(junior.householdId).to.equal(h.id);
      const back = await s.households.byId(h.id);
      expect(back?.members.map((m) => [m.displayName, m.role, m.accountId])).to.deep.equal([
        ['Kari', 'Owner', back?.members[0]?.accountId],
        ['Lille', 'Junior', null],
      ]);
    });

    it('keeps each member\'s age group (Adult when left out), changed alone, in every read of members', async () => {
      const { account, h } = await withOwner();
      const { ageGroup: _left, ...unsaid } = member(null, { displayName: 'Voksen' });
      const adult = await s.households.addMember(h.id, unsaid);
      const child = await s.households.addMember(h.id, member(null, { displayName: 'Lille', role: 'Junior', ageGroup: 'Child', createdAt: at('2026-02-02T00:00:00.000Z') }));
      expect([adult.ageGroup, child.ageGroup]).to.deep.equal(['Adult', 'Child']);
      expect(await s.households.updateMember(h.id, child.id, { ageGroup: 'Baby' })).to.deep.equal({ ...child, ageGroup: 'Baby' });
      expect(await s.households.updateMember(h.id, child.id, { displayName: 'Lillebror' })).to.deep.equal({ ...child, displayName: 'Lillebror', ageGroup: 'Baby' });
      expect((await s.households.byId(h.id))?.members.map((m) => m.ageGroup)).to.deep.equal(['Adult', 'Adult', 'Baby']);
      expect(await s.households.memberById(h.id, child.id)).to.include({ ageGroup: 'Baby' });
      expect(await s.households.memberByAccount(h.id, account.id)).to.include({ ageGroup: 'Adult' });
      // Claimed by an account, the person keeps the age group.
      const joiner = await createdAccount(s);
      expect(await s.households.claimMember(h.id, child.id, joiner.id, 'Junior')).to.include({ ageGroup: 'Baby', accountId: joiner.id });
    });

    it('updates only the fields given and stamps updatedAt', async () => {
      const { h } = await withOwner();
      const updated = await s.households.update(h.id, { timeZoneId: 'UTC', chains: ['Meny'], dinnerTime: '17:30' }, at('2026-02-03T00:00:00.000Z'));
      expect(updated).to.include({ name: h.name, timeZoneId: 'UTC', dinnerTime: '17:30', language: 'nb' });
      expect(updated?.chains).to.deep.equal(['Meny']);
      expect(updated?.updatedAt).to.deep.equal(at('2026-02-03T00:00:00.000Z'));
      expect((await s.households.byId(h.id))?.chains).to.deep.equal(['Meny']);
    });

    it('round-trips dislikes, unicode and order kept, and replaces them whole', async () => {
      const account = await createdAccount(s);
      const h = household({ dislikes: ['Rosenkål', 'koriander'] });
      expect((await s.households.create(h, member(account.id))).dislikes).to.deep.equal(['Rosenkål', 'koriander']);
      expect((await s.households.update(h.id, { dislikes: ['lever'] }, at('2026-02-03T00:00:00.000Z')))?.dislikes).to.deep.equal(['lever']);
      expect((await s.households.update(h.id, { name: 'Nytt navn' }, at('2026-02-04T00:00:00.000Z')))?.dislikes).to.deep.equal(['lever']);
      expect((await s.households.update(h.id, { dislikes: [] }, at('2026-02-05T00:00:00.000Z')))?.dislikes).to.deep.equal([]);
    });

    it('keeps leftovers 3 days unless given, and changes that alone', async () => {
      const account = await createdAccount(s);
      const h = household({ leftoversKeepDays: 5 });
      expect((await s.households.create(h, member(account.id))).leftoversKeepDays).to.equal(5);
      const changed = await s.households.update(h.id, { leftoversKeepDays: 1 }, at('2026-02-03T00:00:00.000Z'));
      expect(changed).to.deep.include({ leftoversKeepDays: 1, name: h.name });
      expect((await s.households.byId(h.id))?.leftoversKeepDays).to.equal(1);
      const plain = household();
      expect((await s.households.create(plain, member(account.id))).leftoversKeepDays).to.equal(3);
    });

    it('round-trips the shopping settings given at creation and changes each alone', async () => {
      const account = await createdAccount(s);
      const h = household({ sharingOff: true, priceCatalogueOn: false });
      expect(await s.households.create(h, member(account.id))).to.deep.include({ sharingOff: true, priceCatalogueOn: false });
      const on = await s.households.update(h.id, { sharingOff: false }, at('2026-02-03T00:00:00.000Z'));
      expect(on).to.deep.include({ sharingOff: false, priceCatalogueOn: false, name: h.name });
      expect(await s.households.update(h.id, { priceCatalogueOn: true }, at('2026-02-04T00:00:00.000Z'))).to.deep.include({ sharingOff: false, priceCatalogueOn: true });
      expect(await s.households.byId(h.id)).to.deep.include({ sharingOff: false, priceCatalogueOn: true, updatedAt: at('2026-02-04T00:00:00.000Z') });
    });

    it('removes a member only within its household, and a household with its members', async () => {
      const { account, h } = await withOwner();
      const named = await s.households.addMember(h.id, member(null, { displayName: 'Named', role: 'Adult' }));
      const other = household({ name: 'Other' });
      const otherAccount = await createdAccount(s);
      await s.households.create(other, member(otherAccount.id));
      expect(await s.households.removeMember(other.id, named.id)).to.equal(false);
      expect(await s.households.removeMember(h.id, named.id)).to.equal(true);
      expect(await s.households.removeMember(h.id, named.id)).to.equal(false);
      expect((await s.households.byId(h.id))?.members).to.have.length(1);
      await s.households.delete(h.id);
      expect(await s.households.byId(h.id)).to.equal(null);
      expect(await s.households.membershipsOf(account.id)).to.deep.equal([]);
      expect(await s.households.byId(other.id)).to.not.equal(null);
    });

    it('keeps a deleted account\'s member row as a named person', async () => {
      const { account, h } = await withOwner();
      await s.accounts.delete(account.id);
      const back = await s.households.byId(h.id);
      expect(back?.members.map((m) => m.accountId)).to.deep.equal([null]);
    });

    it('lists the memberships of an account with the household name, oldest first', async () => {
      const { account, h, owner } = await withOwner();
      const h2 = household({ name: 'Hytta', createdAt: at('2026-02-05T00:00:00.000Z') });
      const other = await createdAccount(s);
      await s.households.create(h2, member(other.id, { createdAt: at('2026-02-05T00:00:00.000Z') }));
      const joined = await s.households.addMember(h2.id, member(account.id, { role: 'Adult', createdAt: at('2026-02-06T00:00:00.000Z') }));
      expect(await s.households.membershipsOf(account.id)).to.deep.equal([
        { householdId: h.id, householdName: 'Familien Hansen', role: 'Owner', memberId: owner.id },
        { householdId: h2.id, householdName: 'Hytta', role: 'Adult', memberId: joined.id },
      ]);
      expect(await s.households.membershipsOf(randomUUID())).to.deep.equal([]);
    });

    it('pages every household with its members in (createdAt, id) order', async () => {
      const owner = await createdAccount(s);
      const when = [at('2026-03-01T00:00:00.000Z'), at('2026-02-01T00:00:00.000Z'), at('2026-03-01T00:00:00.000Z')];
      const made = [];
      for (const createdAt of when) {
        const h = household({ createdAt });
        made.push(await s.households.create(h, member(owner.id, { createdAt })));
      }
      const order = [...made].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
      const first = await s.households.page(null, 2);
      expect(first).to.deep.equal(order.slice(0, 2));
      const rest = await s.households.page({ createdAt: first[1]!.createdAt, id: first[1]!.id }, 2);
      expect(rest).to.deep.equal(order.slice(2));
      expect(await s.households.page({ createdAt: order[2]!.createdAt, id: order[2]!.id }, 2)).to.deep.equal([]);
    });
  });
}
