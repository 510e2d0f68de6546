import { expect } from 'chai';
import type { Session } from '../../core/accounts/types.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

export function sessionStoreContract(backend: Backend): void {
  storeSuite(backend, 'SessionStore', (s) => {
    const session = (accountId: string, over: Partial<Session> = {}): Session => ({
      tokenHash: 'a'.repeat(64),
      accountId,
      securityStamp: 'stamp-1',
      createdAt: at('2026-04-01T08:00:00.250Z'),
      expiresAt: at('2026-05-01T08:00:00.250Z'),
      ...over,
    });

    it('round-trips a session together with its account in one lookup', async () => {
      const account = await createdAccount(s);
      const input = session(account.id);
      expect(await s.sessions.create(input)).to.equal(true);
      const found = await s.sessions.lookup(input.tokenHash);
      expect(found?.session).to.deep.equal(input);
      expect(found?.account).to.deep.equal({ ...account, updatedAt: account.createdAt });
    });

    it('makes no session for an account that is gone (deleted while it signed in), and says so', async () => {
      const account = await createdAccount(s);
      await s.accounts.delete(account.id);
      expect(await s.sessions.create(session(account.id))).to.equal(false);
      expect(await s.sessions.lookup('a'.repeat(64))).to.equal(null);
    });

    it('answers null for an unknown token hash and after delete', async () => {
      const account = await createdAccount(s);
      await s.sessions.create(session(account.id));
      expect(await s.sessions.lookup('b'.repeat(64))).to.equal(null);
      await s.sessions.delete('a'.repeat(64));
      expect(await s.sessions.lookup('a'.repeat(64))).to.equal(null);
    });

    it('shows the account as it is now, so a rotated stamp is seen', async () => {
      const account = await createdAccount(s);
      await s.sessions.create(session(account.id, { securityStamp: account.securityStamp }));
      await s.accounts.setSecurityStamp(account.id, 'rotated', at('2026-04-02T00:00:00Z'));
      const found = await s.sessions.lookup('a'.repeat(64));
      expect(found?.account.securityStamp).to.equal('rotated');
      expect(found?.session.securityStamp).to.equal(account.securityStamp);
    });

    it('extends the expiry', async () => {
      const account = await createdAccount(s);
      await s.sessions.create(session(account.id));
      await s.sessions.extend('a'.repeat(64), at('2026-06-01T00:00:00.999Z'));
      expect((await s.sessions.lookup('a'.repeat(64)))?.session.expiresAt).to.deep.equal(at('2026-06-01T00:00:00.999Z'));
    });

    it('re-stamps one session', async () => {
      const account = await createdAccount(s);
      await s.sessions.create(session(account.id));
      await s.sessions.setSecurityStamp('a'.repeat(64), 'stamp-2');
      expect((await s.sessions.lookup('a'.repeat(64)))?.session.securityStamp).to.equal('stamp-2');
    });

    it('deletes only sessions that expired before now and counts them', async () => {
      const account = await createdAccount(s);
      await s.sessions.create(session(account.id, { tokenHash: '1'.repeat(64), expiresAt: at('2026-04-10T00:00:00.000Z') }));
      await s.sessions.create(session(account.id, { tokenHash: '2'.repeat(64), expiresAt: at('2026-04-20T00:00:00.000Z') }));
      expect(await s.sessions.deleteExpired(at('2026-04-15T00:00:00.000Z'))).to.equal(1);
      expect(await s.sessions.lookup('1'.repeat(64))).to.equal(null);
      expect(await s.sessions.lookup('2'.repeat(64))).to.not.equal(null);
    });
  });
}
