import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { AccessToken } from '../../core/households/types.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const NOW = at('2026-06-01T10:00:00.123Z');

export function accessTokenStoreContract(backend: Backend): void {
  storeSuite(backend, 'AccessTokenStore', (s) => {
    let household: Awaited<ReturnType<typeof ownedHousehold>>;
    beforeEach(async () => {
      household = await ownedHousehold(s);
    });

    let n = 0;
    const token = (over: Partial<AccessToken> = {}): AccessToken => ({
      id: randomUUID(),
      accountId: household.owner.id,
      householdId: household.id,
      name: 'Kjøkkenskjermen',
      scope: 'read',
      tokenHash: (++n).toString(16).padStart(64, '0'),
      createdAt: at('2026-06-01T09:00:00.123Z'),
      expiresAt: at('2026-08-30T09:00:00.456Z'),
      lastUsedAt: null,
      ...over,
    });
    const limit = { maxLive: 3, now: NOW };

    it('round-trips a token with its account and membership, dates to the millisecond', async () => {
      const t = token({ scope: 'read-write', lastUsedAt: at('2026-06-01T09:30:00.789Z') });
      expect(await s.accessTokens.create(t, limit)).to.equal('created');
      const found = await s.accessTokens.lookup(t.tokenHash);
      expect(found?.token).to.deep.equal(t);
      expect(found?.account.id).to.equal(household.owner.id);
      expect(found?.account.securityStamp).to.equal(household.owner.securityStamp);
      expect(found?.member).to.equal(true);
      expect(await s.accessTokens.lookup('e'.repeat(64))).to.equal(null);
    });

    it("lists an account's tokens newest first with the household's name, and no hash", async () => {
      const older = token({ createdAt: at('2026-05-01T00:00:00.000Z'), expiresAt: at('2026-05-02T00:00:00.000Z') });
      const newer = token({ scope: 'read-write', name: 'Hjemmeautomasjon' });
      await s.accessTokens.create(older, limit);
      await s.accessTokens.create(newer, limit);
      const other = await ownedHousehold(s);
      await s.accessTokens.create(token({ accountId: other.owner.id, householdId: other.id }), limit);
      const listed = await s.accessTokens.listOf(household.owner.id);
      const { tokenHash: _a, ...newerShown } = newer;
      const { tokenHash: _b, ...olderShown } = older;
      expect(listed).to.deep.equal([
        { ...newerShown, householdName: 'Hansen', member: true },
        { ...olderShown, householdName: 'Hansen', member: true },
      ]);
      expect(await s.accessTokens.listOf(randomUUID())).to.deep.equal([]);
    });

    it('refuses a token past the live limit, counting only unexpired ones', async () => {
      await s.accessTokens.create(token({ expiresAt: at('2026-06-01T10:00:00.123Z') }), limit);
      for (let i = 0; i < 3; i++) expect(await s.accessTokens.create(token(), limit)).to.equal('created');
      expect(await s.accessTokens.create(token(), limit)).to.equal('limit');
      expect(await s.accessTokens.listOf(household.owner.id)).to.have.length(4);
    });

    it('lets exactly the limit through when tokens are made at the same time', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => s.accessTokens.create(token(), limit)));
      expect(answers.filter((a) => a === 'created')).to.have.length(3);
      expect(answers.filter((a) => a === 'limit')).to.have.length(3);
    });

    it("answers 'gone' for a household or account that is not there", async () => {
      expect(await s.accessTokens.create(token({ householdId: randomUUID() }), limit)).to.equal('gone');
      expect(await s.accessTokens.create(token({ accountId: randomUUID() }), limit)).to.equal('gone');
    });

    it("revokes only the account's own token", async () => {
      const t = token();
      await s.accessTokens.create(t, limit);
      const other = await ownedHousehold(s);
      expect(await s.accessTokens.revoke(other.owner.id, t.id)).to.equal(false);
      expect(await s.accessTokens.lookup(t.tokenHash)).to.not.equal(null);
      expect(await s.accessTokens.revoke(household.owner.id, t.id)).to.equal(true);
      expect(await s.accessTokens.lookup(t.tokenHash)).to.equal(null);
      expect(await s.accessTokens.revoke(household.owner.id, t.id)).to.equal(false);
    });

    it('notes a use only when none was noted since notBefore', async () => {
      const t = token();
      await s.accessTokens.create(t, limit);
      await s.accessTokens.touch(t.id, at('2026-06-01T10:00:00.123Z'), at('2026-06-01T09:59:00.123Z'));
      expect((await s.accessTokens.lookup(t.tokenHash))?.token.lastUsedAt).to.deep.equal(at('2026-06-01T10:00:00.123Z'));
      await s.accessTokens.touch(t.id, at('2026-06-01T10:00:30.000Z'), at('2026-06-01T09:59:30.000Z'));
      expect((await s.accessTokens.lookup(t.tokenHash))?.token.lastUsedAt).to.deep.equal(at('2026-06-01T10:00:00.123Z'));
      await s.accessTokens.touch(t.id, at('2026-06-01T10:01:00.123Z'), at('2026-06-01T10:00:00.123Z'));
      expect((await s.accessTokens.lookup(t.tokenHash))?.token.lastUsedAt).to.deep.equal(at('2026-06-01T10:01:00.123Z'));
    });

    it('says when the account is no longer a member of the household, and lists it so', async () => {
      const t = token();
      await s.accessTokens.create(t, limit);
      await s.households.removeMember(household.id, household.ownerMemberId);
      expect((await s.accessTokens.lookup(t.tokenHash))?.member).to.equal(false);
      expect((await s.accessTokens.listOf(household.owner.id)).map((x) => x.member)).to.deep.equal([false]);
    });

    it('drops the tokens of a deleted household and of a deleted account', async () => {
      const t = token();
      await s.accessTokens.create(t, limit);
      await s.households.delete(household.id);
      expect(await s.accessTokens.lookup(t.tokenHash)).to.equal(null);
      expect(await s.accessTokens.listOf(household.owner.id)).to.deep.equal([]);
      const other = await ownedHousehold(s);
      const u = token({ accountId: other.owner.id, householdId: other.id });
      await s.accessTokens.create(u, limit);
      await s.accounts.delete(other.owner.id);
      expect(await s.accessTokens.lookup(u.tokenHash)).to.equal(null);
    });

    it('deletes only the tokens that expired before the instant, and counts them', async () => {
      const gone = token({ expiresAt: at('2026-05-01T00:00:00.000Z') });
      const kept = token({ expiresAt: at('2026-05-03T00:00:00.000Z') });
      await s.accessTokens.create(gone, limit);
      await s.accessTokens.create(kept, limit);
      expect(await s.accessTokens.deleteExpired(at('2026-05-02T00:00:00.000Z'))).to.equal(1);
      expect((await s.accessTokens.listOf(household.owner.id)).map((x) => x.id)).to.deep.equal([kept.id]);
    });
  });
}
