import { expect } from 'chai';
import type { Backend, Stores } from './backends.js';
import { at, newAccount } from './fixtures.js';

export function accountStoreContract(backend: Backend): void {
  describe(`AccountStore [${backend.name}]`, () => {
    let s: Stores;
    beforeEach(async () => {
      s = await backend.open();
    });
    afterEach(async () => s.close());

    it('round-trips an account, dates and booleans included', async () => {
      const input = newAccount({ email: 'Kari@Example.com' });
      const created = await s.accounts.create(input);
      const expected = { ...input, emailConfirmed: false, updatedAt: input.createdAt };
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

    it('answers null when renaming an account that does not exist', async () => {
      expect(await s.accounts.setDisplayName('5b0f0c1e-0000-4000-8000-000000000001', 'X', at('2026-01-01T00:00:00Z'))).to.equal(null);
    });
  });
}
