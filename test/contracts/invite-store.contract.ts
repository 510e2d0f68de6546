import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Member } from '../../core/households/types.js';
import type { Invite, InviteUse } from '../../ports/invite-store.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount, newAccount, ownedHousehold } from './fixtures.js';

async function household(s: Stores) {
  const { id, owner } = await ownedHousehold(s);
  return { owner, id };
}

/** A use of `code` by `accountId`, joining as a fresh person named `name` unless the code's person is claimed. */
const use = (code: string, accountId: string, when: string, name = 'Joiner', pushId: string = randomUUID()): InviteUse => ({
  code,
  accountId,
  at: at(when),
  newMember: { id: randomUUID(), displayName: name, role: 'Adult', ageGroup: 'Adult', accountId, createdAt: at(when) },
  joined: (m: Member) => ({
    id: pushId,
    householdId: m.householdId,
    event: { kind: 'member-joined', memberId: m.id, displayName: m.displayName, actorAccountId: accountId },
    createdAt: at(when),
  }),
});

export function inviteStoreContract(backend: Backend): void {
  storeSuite(backend, 'InviteStore', (s) => {
    const invite = (householdId: string, createdBy: string, over: Partial<Invite> = {}): Omit<Invite, 'usedAt' | 'usedBy'> => ({
      code: 'ABCDEFGH2345',
      householdId,
      role: 'Adult',
      memberId: null,
      createdBy,
      createdAt: at('2026-02-01T10:00:00.250Z'),
      expiresAt: at('2026-02-08T10:00:00.250Z'),
      ...over,
    });

    it('round-trips an invite for a named person', async () => {
      const { owner, id } = await household(s);
      const person = await s.households.addMember(id, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: null, createdAt: at('2026-01-02T00:00:00.000Z') });
      const i = invite(id, owner.id, { role: 'Junior', memberId: person.id });
      await s.invites.create(i);
      expect(await s.invites.byCode(i.code)).to.deep.equal({ ...i, usedAt: null, usedBy: null });
      expect(await s.invites.byCode('NOSUCHCODE00')).to.equal(null);
    });

    it('lists only unused, unexpired codes of the household, newest first', async () => {
      const { owner, id } = await household(s);
      const other = await household(s);
      await s.invites.create(invite(id, owner.id, { code: 'OLD000000000', createdAt: at('2026-02-01T00:00:00.000Z') }));
      await s.invites.create(invite(id, owner.id, { code: 'NEW000000000', createdAt: at('2026-02-02T00:00:00.000Z') }));
      await s.invites.create(invite(id, owner.id, { code: 'EXPIRED00000', expiresAt: at('2026-02-03T00:00:00.000Z') }));
      await s.invites.create(invite(id, owner.id, { code: 'USED00000000' }));
      await s.invites.create(invite(other.id, other.owner.id, { code: 'OTHER0000000' }));
      const joiner = await createdAccount(s);
      expect(await s.invites.accept(use('USED00000000', joiner.id, '2026-02-03T00:00:00.000Z'))).to.include({ accountId: joiner.id });
      const open = await s.invites.listOpen(id, at('2026-02-04T00:00:00.000Z'));
      expect(open.map((i) => i.code)).to.deep.equal(['NEW000000000', 'OLD000000000']);
    });

    it('lists since a time the unused codes expiring after it and the codes used after it, newest first', async () => {
      const { owner, id } = await household(s);
      const other = await household(s);
      const made = (code: string, day: string, expires: string) => invite(id, owner.id, { code, createdAt: at(`2026-02-${day}T00:00:00.000Z`), expiresAt: at(`2026-02-${expires}T00:00:00.000Z`) });
      await s.invites.create(made('OPEN00000000', '10', '17'));
      await s.invites.create(made('EXPIREDLATE0', '05', '12'));
      await s.invites.create(made('EXPIREDEARLY', '01', '08'));
      await s.invites.create(made('USEDLATE0000', '04', '11'));
      await s.invites.create(made('USEDEARLY000', '02', '09'));
      await s.invites.create(invite(other.id, other.owner.id, { code: 'OTHER0000000', createdAt: at('2026-02-10T00:00:00.000Z') }));
      const [late, early] = [await createdAccount(s), await createdAccount(s)];
      await s.invites.accept(use('USEDLATE0000', late.id, '2026-02-10T00:00:00.000Z'));
      await s.invites.accept(use('USEDEARLY000', early.id, '2026-02-03T00:00:00.000Z'));
      const since = await s.invites.listSince(id, at('2026-02-09T00:00:00.000Z'));
      expect(since.map((i) => i.code)).to.deep.equal(['OPEN00000000', 'EXPIREDLATE0', 'USEDLATE0000']);
      expect(since[2]).to.include({ usedBy: late.id });
      expect(since[2]!.usedAt).to.deep.equal(at('2026-02-10T00:00:00.000Z'));
    });

    it('uses a code once: of simultaneous uses exactly one joins, with exactly one push', async () => {
      const { owner, id } = await household(s);
      await s.invites.create(invite(id, owner.id));
      const joiners = await Promise.all(Array.from({ length: 4 }, async () => {
        const a = await createdAccount(s);
        return a.id;
      }));
      const results = await Promise.all(joiners.map((a) => s.invites.accept(use('ABCDEFGH2345', a, '2026-02-02T00:00:00.000Z'))));
      const won = results.filter((r): r is Member => typeof r !== 'string');
      expect(won).to.have.length(1);
      expect(results.filter((r) => r === 'code-used')).to.have.length(3);
      const used = await s.invites.byCode('ABCDEFGH2345');
      expect(used?.usedAt).to.deep.equal(at('2026-02-02T00:00:00.000Z'));
      expect(used?.usedBy).to.equal(won[0]!.accountId);
      expect((await s.households.byId(id))?.members).to.have.length(2);
      const pushes = await s.pushOutbox.pending(10);
      expect(pushes.map((e) => e.event)).to.deep.equal([{ kind: 'member-joined', memberId: won[0]!.id, displayName: 'Joiner', actorAccountId: won[0]!.accountId }]);
    });

    it('accepting writes the join and its push together, round-tripping the new member', async () => {
      const { owner, id } = await household(s);
      await s.invites.create(invite(id, owner.id));
      const a = await createdAccount(s);
      const u = use('ABCDEFGH2345', a.id, '2026-02-02T08:30:00.125Z', 'Kari');
      const member = await s.invites.accept(u);
      expect(member).to.deep.equal({ ...u.newMember, householdId: id });
      expect(await s.households.memberByAccount(id, a.id)).to.deep.equal(member);
      const [push] = await s.pushOutbox.pending(10);
      expect(push).to.deep.equal(u.joined(member as Member));
    });

    it('claims the named person of a code, or adds a fresh one when that person was claimed meanwhile', async () => {
      const { owner, id } = await household(s);
      const person = await s.households.addMember(id, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: null, createdAt: at('2026-01-02T00:00:00.000Z') });
      await s.invites.create(invite(id, owner.id, { code: 'NAMED0000000', role: 'Junior', memberId: person.id }));
      await s.invites.create(invite(id, owner.id, { code: 'NAMED0000001', role: 'Junior', memberId: person.id }));
      const [a, b] = [newAccount(), newAccount()];
      await s.accounts.create(a);
      await s.accounts.create(b);
      expect(await s.invites.accept(use('NAMED0000000', a.id, '2026-02-02T00:00:00.000Z'))).to.deep.equal({ ...person, accountId: a.id, role: 'Junior' });
      const fresh = await s.invites.accept(use('NAMED0000001', b.id, '2026-02-02T00:00:01.000Z', 'Other'));
      expect(fresh).to.include({ accountId: b.id, displayName: 'Other', role: 'Adult', householdId: id });
      expect((await s.pushOutbox.pending(10)).map((e) => (e.event as { displayName: string }).displayName)).to.deep.equal(['Lille', 'Other']);
    });

    it('writes nothing for a used code, or for an account already in the household', async () => {
      const { owner, id } = await household(s);
      await s.invites.create(invite(id, owner.id));
      expect(await s.invites.accept(use('ABCDEFGH2345', owner.id, '2026-02-02T00:00:00.000Z'))).to.equal('member-already');
      expect((await s.invites.byCode('ABCDEFGH2345'))?.usedAt).to.equal(null);
      const a = await createdAccount(s);
      await s.invites.accept(use('ABCDEFGH2345', a.id, '2026-02-02T00:00:00.000Z'));
      const b = await createdAccount(s);
      expect(await s.invites.accept(use('ABCDEFGH2345', b.id, '2026-02-03T00:00:00.000Z'))).to.equal('code-used');
      expect(await s.invites.accept(use('NOSUCHCODE00', b.id, '2026-02-03T00:00:00.000Z'))).to.equal('code-used');
      expect(await s.households.memberByAccount(id, b.id)).to.equal(null);
      expect(await s.pushOutbox.pending(10)).to.have.length(1);
    });

    it('all or nothing: a push the outbox refuses leaves the code unused and nobody joined', async () => {
      const { owner, id } = await household(s);
      await s.invites.create(invite(id, owner.id));
      const taken = randomUUID();
      await s.pushOutbox.record({ id: taken, householdId: id, event: { kind: 'member-joined', memberId: randomUUID(), displayName: 'X', actorAccountId: owner.id }, createdAt: at('2026-02-01T00:00:00.000Z') });
      const a = await createdAccount(s);
      let refused = false;
      await s.invites.accept(use('ABCDEFGH2345', a.id, '2026-02-02T00:00:00.000Z', 'Joiner', taken)).catch(() => (refused = true));
      expect(refused).to.equal(true);
      expect((await s.invites.byCode('ABCDEFGH2345'))?.usedAt).to.equal(null);
      expect(await s.households.memberByAccount(id, a.id)).to.equal(null);
    });

    it('deletes a code only within its household', async () => {
      const { owner, id } = await household(s);
      const other = await household(s);
      await s.invites.create(invite(id, owner.id));
      expect(await s.invites.delete(other.id, 'ABCDEFGH2345')).to.equal(false);
      expect(await s.invites.delete(id, 'ABCDEFGH2345')).to.equal(true);
      expect(await s.invites.byCode('ABCDEFGH2345')).to.equal(null);
    });

    it('turns a removed person\'s invites into open ones, and drops the inviter\'s codes with the account', async () => {
      const { owner, id } = await household(s);
      const person = await s.households.addMember(id, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: null, createdAt: at('2026-01-02T00:00:00.000Z') });
      await s.invites.create(invite(id, owner.id, { memberId: person.id }));
      await s.invites.unlinkMember(id, person.id);
      await s.households.removeMember(id, person.id);
      expect((await s.invites.byCode('ABCDEFGH2345'))?.memberId).to.equal(null);
      await s.accounts.delete(owner.id);
      expect(await s.invites.byCode('ABCDEFGH2345')).to.equal(null);
    });

    it('lets a named person be claimed once, by an account not yet in the household', async () => {
      const { owner, id } = await household(s);
      const person = await s.households.addMember(id, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: null, createdAt: at('2026-01-02T00:00:00.000Z') });
      const a = newAccount();
      const b = newAccount();
      await s.accounts.create(a);
      await s.accounts.create(b);
      expect(await s.households.claimMember(id, person.id, owner.id, 'Adult')).to.equal(null); // owner is a member already
      const claimed = await s.households.claimMember(id, person.id, a.id, 'Adult');
      expect(claimed).to.deep.equal({ ...person, accountId: a.id, role: 'Adult' });
      expect(await s.households.claimMember(id, person.id, b.id, 'Adult')).to.equal(null);
      expect(await s.households.memberById(id, person.id)).to.deep.equal(claimed);
      expect(await s.households.memberById(randomUUID(), person.id)).to.equal(null);
    });

    it('renames and re-roles a member within its household only', async () => {
      const { id } = await household(s);
      const other = await household(s);
      const person = await s.households.addMember(id, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: null, createdAt: at('2026-01-02T00:00:00.000Z') });
      expect(await s.households.updateMember(other.id, person.id, { displayName: 'X' })).to.equal(null);
      expect(await s.households.updateMember(id, person.id, { displayName: 'Store' })).to.deep.equal({ ...person, displayName: 'Store' });
      expect(await s.households.updateMember(id, person.id, { role: 'Adult' })).to.deep.equal({ ...person, displayName: 'Store', role: 'Adult' });
    });
  });
}

export function pushOutboxContract(backend: Backend): void {
  storeSuite(backend, 'PushOutbox', (s) => {
    it('keeps events until they are marked sent, oldest first, and drops those of a deleted household', async () => {
      const { id } = await household(s);
      const gone = await household(s);
      const entry = (n: number, householdId = id) => ({
        id: randomUUID(),
        householdId,
        event: { kind: 'member-joined' as const, memberId: randomUUID(), displayName: `P${n}`, actorAccountId: randomUUID() },
        createdAt: at(`2026-03-0${n}T00:00:00.000Z`),
      });
      const e2 = entry(2);
      const e1 = entry(1);
      const e3 = entry(3, gone.id);
      for (const e of [e2, e1, e3]) await s.pushOutbox.record(e);
      await s.households.delete(gone.id);
      expect(await s.pushOutbox.pending(10)).to.deep.equal([e1, e2]);
      expect(await s.pushOutbox.pending(1)).to.deep.equal([e1]);
      await s.pushOutbox.markSent([e1.id], at('2026-03-05T00:00:00.000Z'));
      expect(await s.pushOutbox.pending(10)).to.deep.equal([e2]);
    });
  });
}
