import { expect } from 'chai';
import type { AccountToken } from '../../ports/account-token-store.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

export function accountTokenStoreContract(backend: Backend): void {
  storeSuite(backend, 'AccountTokenStore', (s) => {
    let accountId: string;
    beforeEach(async () => {
      const a = await createdAccount(s);
      accountId = a.id;
    });

    const token = (over: Partial<AccountToken> = {}): AccountToken => ({
      tokenHash: 'f'.repeat(64),
      accountId,
      purpose: 'reset-password',
      newEmail: null,
      createdAt: at('2026-06-01T10:00:00.123Z'),
      expiresAt: at('2026-06-01T11:00:00.123Z'),
      ...over,
    });

    it('round-trips a token through its single use', async () => {
      const t = token({ purpose: 'change-email', newEmail: 'New@Example.com' });
      await s.accountTokens.issue(t);
      expect(await s.accountTokens.consume(t.tokenHash, 'change-email', at('2026-06-01T10:30:00.000Z'))).to.deep.equal(t);
      expect(await s.accountTokens.consume(t.tokenHash, 'change-email', at('2026-06-01T10:30:00.000Z'))).to.equal(null);
    });

    it('refuses a token of another purpose without using it up', async () => {
      await s.accountTokens.issue(token());
      expect(await s.accountTokens.consume('f'.repeat(64), 'confirm-email', at('2026-06-01T10:30:00.000Z'))).to.equal(null);
      expect(await s.accountTokens.consume('f'.repeat(64), 'reset-password', at('2026-06-01T10:30:00.000Z'))).to.not.equal(null);
    });

    it('refuses an expired token and an unknown one', async () => {
      await s.accountTokens.issue(token());
      expect(await s.accountTokens.consume('f'.repeat(64), 'reset-password', at('2026-06-01T11:00:00.123Z'))).to.equal(null);
      expect(await s.accountTokens.consume('e'.repeat(64), 'reset-password', at('2026-06-01T10:00:00.000Z'))).to.equal(null);
    });

    it('gives a token to exactly one of several simultaneous uses', async () => {
      await s.accountTokens.issue(token());
      const results = await Promise.all(Array.from({ length: 5 }, () => s.accountTokens.consume('f'.repeat(64), 'reset-password', at('2026-06-01T10:30:00.000Z'))));
      expect(results.filter((r) => r !== null)).to.have.length(1);
    });

    it('knows when the newest token of a purpose was issued, and revokes them all', async () => {
      expect(await s.accountTokens.lastIssuedAt(accountId, 'confirm-email')).to.equal(null);
      await s.accountTokens.issue(token({ tokenHash: '1'.repeat(64), purpose: 'confirm-email', createdAt: at('2026-06-01T10:00:00.000Z') }));
      await s.accountTokens.issue(token({ tokenHash: '2'.repeat(64), purpose: 'confirm-email', createdAt: at('2026-06-01T10:04:00.500Z') }));
      await s.accountTokens.issue(token({ tokenHash: '3'.repeat(64), purpose: 'reset-password', createdAt: at('2026-06-01T10:09:00.000Z') }));
      expect(await s.accountTokens.lastIssuedAt(accountId, 'confirm-email')).to.deep.equal(at('2026-06-01T10:04:00.500Z'));
      await s.accountTokens.revokeAll(accountId, 'confirm-email');
      expect(await s.accountTokens.lastIssuedAt(accountId, 'confirm-email')).to.equal(null);
      expect(await s.accountTokens.consume('3'.repeat(64), 'reset-password', at('2026-06-01T10:30:00.000Z'))).to.not.equal(null);
    });

    it('deletes only expired tokens and counts them', async () => {
      await s.accountTokens.issue(token({ tokenHash: '1'.repeat(64), expiresAt: at('2026-06-01T10:00:00.000Z') }));
      await s.accountTokens.issue(token({ tokenHash: '2'.repeat(64), expiresAt: at('2026-06-02T10:00:00.000Z') }));
      expect(await s.accountTokens.deleteExpired(at('2026-06-01T12:00:00.000Z'))).to.equal(1);
      expect(await s.accountTokens.consume('2'.repeat(64), 'reset-password', at('2026-06-01T12:00:00.000Z'))).to.not.equal(null);
    });

    it('drops the tokens of a deleted account', async () => {
      await s.accountTokens.issue(token());
      await s.accounts.delete(accountId);
      expect(await s.accountTokens.consume('f'.repeat(64), 'reset-password', at('2026-06-01T10:30:00.000Z'))).to.equal(null);
    });
  });
}
