import { expect } from 'chai';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, newAccount } from './fixtures.js';

export function accountStoreContract(backend: Backend): void {
  storeSuite(backend, 'AccountStore', (s) => {
    it('round-trips an account, dates and booleans included', async () => {
      const input = newAccount({ email: 'Kari@Example.com' });
      const created = await s.accounts.create(input);
      const expected = { ...input, updatedAt: input.createdAt };
      expect(created).to.deep.equal(expected);
      expect(await s.accounts.byId(input.id)).to.deep.equal(expected);
    });

    it('keeps a null e-mail and a null password hash (social-only account)', async () => {
      const input = newAccount({ email: null, passwordHash: null });
      await s.accounts.create(input);
      const back = await s.accounts.byId(input.id);
      expect(back?.email).to.equal(null);
      expect(back?.passwordHash).to.equal(null);
      // Two accounts without an address do not collide.
      expect(await s.accounts.create(newAccount({ email: null }))).to.not.equal('email-taken');
    });

    it('finds by e-mail case-insensitively and refuses a second account for the same address', async () => {
      const input = newAccount({ email: 'Per@Example.com' });
      await s.accounts.create(input);
      expect((await s.accounts.byEmail('per@example.COM'))?.id).to.equal(input.id);
      expect(await s.accounts.create(newAccount({ email: 'PER@example.com' }))).to.equal('email-taken');
      expect(await s.accounts.byEmail('nobody@example.com')).to.equal(null);
    });

    it('answers null for an unknown id', async () => {
      expect(await s.accounts.byId('5b0f0c1e-0000-4000-8000-000000000000')).to.equal(null);
    });

    it('changes the display name and the security stamp, stamping updatedAt', async () => {
      const input = newAccount();
      await s.accounts.create(input);
      const renamed = await s.accounts.setDisplayName(input.id, 'Ola', at('2026-03-02T00:00:00.001Z'));
      expect(renamed?.displayName).to.equal('Ola');
      expect(renamed?.updatedAt).to.deep.equal(at('2026-03-02T00:00:00.001Z'));
      await s.accounts.setSecurityStamp(input.id, 'new-stamp', at('2026-03-03T00:00:00.000Z'));
      const back = await s.accounts.byId(input.id);
      expect(back?.securityStamp).to.equal('new-stamp');
      expect(back?.displayName).to.equal('Ola');
      expect(back?.updatedAt).to.deep.equal(at('2026-03-03T00:00:00.000Z'));
    });

    it('round-trips a confirmed English account', async () => {
      const input = newAccount({ emailConfirmed: true, language: 'en' });
      await s.accounts.create(input);
      expect(await s.accounts.byId(input.id)).to.deep.equal({ ...input, updatedAt: input.createdAt });
    });

    it('marks the address confirmed', async () => {
      const input = newAccount();
      await s.accounts.create(input);
      await s.accounts.markEmailConfirmed(input.id, at('2026-03-04T00:00:00.000Z'));
      const back = await s.accounts.byId(input.id);
      expect(back?.emailConfirmed).to.equal(true);
      expect(back?.updatedAt).to.deep.equal(at('2026-03-04T00:00:00.000Z'));
    });

    it('sets a password, rotating the stamp only when one is given', async () => {
      const input = newAccount({ passwordHash: null });
      await s.accounts.create(input);
      await s.accounts.setPassword(input.id, 'hash-1', null, at('2026-03-05T00:00:00.000Z'));
      expect(await s.accounts.byId(input.id)).to.include({ passwordHash: 'hash-1', securityStamp: input.securityStamp });
      await s.accounts.setPassword(input.id, 'hash-2', 'stamp-2', at('2026-03-06T00:00:00.000Z'));
      expect(await s.accounts.byId(input.id)).to.include({ passwordHash: 'hash-2', securityStamp: 'stamp-2' });
    });

    it('moves the login to a new address, confirmed, unless another account holds it', async () => {
      const a = newAccount({ email: 'a@example.com' });
      const b = newAccount({ email: 'b@example.com' });
      await s.accounts.create(a);
      await s.accounts.create(b);
      expect(await s.accounts.setEmail(a.id, 'B@example.com', 'x', at('2026-03-07T00:00:00.000Z'))).to.equal('email-taken');
      expect((await s.accounts.byId(a.id))?.email).to.equal('a@example.com');
      const moved = await s.accounts.setEmail(a.id, 'New@Example.com', 'stamp-3', at('2026-03-07T00:00:00.000Z'));
      expect(moved).to.include({ email: 'New@Example.com', emailConfirmed: true, securityStamp: 'stamp-3' });
      expect((await s.accounts.byEmail('new@example.com'))?.id).to.equal(a.id);
      expect(await s.accounts.byEmail('a@example.com')).to.equal(null);
      expect(await s.accounts.setEmail('5b0f0c1e-0000-4000-8000-000000000009', 'z@example.com', 'x', at('2026-03-07T00:00:00.000Z'))).to.equal(null);
    });

    it('deletes an account with its sessions, freeing the address', async () => {
      const input = newAccount({ email: 'gone@example.com' });
      await s.accounts.create(input);
      await s.sessions.create({ tokenHash: 'c'.repeat(64), accountId: input.id, securityStamp: input.securityStamp, createdAt: input.createdAt, expiresAt: at('2027-01-01T00:00:00.000Z') });
      await s.accounts.delete(input.id);
      expect(await s.accounts.byId(input.id)).to.equal(null);
      expect(await s.sessions.lookup('c'.repeat(64))).to.equal(null);
      expect(await s.accounts.create(newAccount({ email: 'gone@example.com' }))).to.not.equal('email-taken');
    });

    it('answers null when renaming an account that does not exist', async () => {
      expect(await s.accounts.setDisplayName('5b0f0c1e-0000-4000-8000-000000000001', 'X', at('2026-01-01T00:00:00Z'))).to.equal(null);
    });
  });
}
