import { expect } from 'chai';
import { register } from '../../core/accounts/register.js';
import { login } from '../../core/accounts/login.js';
import { logout } from '../../core/accounts/logout.js';
import { authenticate, SESSION_LIFETIME_MS, startSession } from '../../core/accounts/sessions.js';
import { describeMe, updateMe } from '../../core/households/me.js';
import { isEmailAddress } from '../../core/accounts/email.js';
import { deleteAccount } from '../../core/accounts/delete-account.js';
import { domain } from './support.js';

const DAY = 24 * 60 * 60 * 1000;

async function registered(d = domain(), email = 'kari@example.com') {
  const r = await register(d.deps, { email, password: 'long enough', displayName: '  Kari  ' });
  if (!r.ok || r.value.kind !== 'created') throw new Error('expected a fresh account');
  return { ...d, issued: r.value.issued };
}

describe('accounts (domain)', () => {
  describe('register', () => {
    it('creates an account with a hashed password and a session', async () => {
      const { deps, issued } = await registered();
      const account = await deps.accounts.byEmail('KARI@example.com');
      expect(account?.displayName).to.equal('Kari');
      expect(account?.passwordHash).to.match(/^\$argon2id\$/);
      expect(account?.passwordHash).to.not.contain('long enough');
      expect(issued.session.tokenHash).to.equal(deps.tokens.hash(issued.token));
      expect(issued.token.length).to.be.at.least(22); // >= 128 bits in base64url
    });

    it('answers a known address (any case) without a session and without a second account', async () => {
      const { deps } = await registered();
      const again = await register(deps, { email: ' Kari@Example.COM ', password: 'another password', displayName: 'Imposter' });
      expect(again).to.deep.equal({ ok: true, value: { kind: 'address-known' } });
      expect((await deps.accounts.byEmail('kari@example.com'))?.displayName).to.equal('Kari');
    });

    it('rejects an unusable address or a password under 8 characters', async () => {
      const { deps } = domain();
      for (const email of ['', 'no-at-sign', 'a@b', 'two@@example.com', 'sp ace@example.com', `${'x'.repeat(250)}@example.com`]) {
        expect(await register(deps, { email, password: 'long enough', displayName: 'X' })).to.deep.equal({ ok: false, error: { type: 'signup-rejected', reason: 'email' } });
      }
      expect(await register(deps, { email: 'ok@example.com', password: '1234567', displayName: 'X' })).to.deep.equal({ ok: false, error: { type: 'signup-rejected', reason: 'password' } });
      // Characters, not UTF-16 units: seven emoji are seven characters.
      expect((await register(deps, { email: 'ok@example.com', password: '😀😀😀😀😀😀😀', displayName: 'X' })).ok).to.equal(false);
      expect(await deps.accounts.byEmail('ok@example.com')).to.equal(null);
    });

    it('accepts ordinary addresses', () => {
      for (const e of ['a.b+tag@example.co.uk', 'ola@nordmann.no', 'x@sub-domain.example.org', 'æøå@eksempel.no']) expect(isEmailAddress(e), e).to.equal(true);
    });
  });

  describe('delete', () => {
    it("drops the mail still waiting for the account's address, and only that", async () => {
      const { deps } = await registered();
      const account = (await deps.accounts.byEmail('kari@example.com'))!;
      const waiting = (to: string) => ({ id: deps.ids.newId(), to, subject: 'Bekreft', text: 't', html: 'h', expiresAt: null, createdAt: deps.clock.now() });
      const [hers, ola] = [waiting('Kari@Example.com'), waiting('ola@example.com')];
      await deps.mailOutbox.enqueue(hers);
      await deps.mailOutbox.enqueue(ola);
      expect((await deleteAccount(deps, account)).ok).to.equal(true);
      expect(await deps.mailOutbox.byId(hers.id)).to.include({ state: 'dropped', lastError: 'its account was deleted' });
      expect(await deps.mailOutbox.byId(ola.id)).to.include({ state: 'pending' });
    });
  });

  describe('login', () => {
    it('signs in with the right password, the address in any case', async () => {
      const { deps } = await registered();
      const r = await login(deps, { email: 'KARI@example.com ', password: 'long enough' });
      expect(r.ok).to.equal(true);
      if (r.ok) expect((await authenticate(deps, r.value.issued.token)).ok).to.equal(true);
    });

    it('answers the same failure for a wrong password and an unknown address', async () => {
      const { deps } = await registered();
      const wrong = await login(deps, { email: 'kari@example.com', password: 'wrong password' });
      const unknown = await login(deps, { email: 'nobody@example.com', password: 'long enough' });
      expect(wrong).to.deep.equal({ ok: false, error: { type: 'invalid-credentials' } });
      expect(unknown).to.deep.equal(wrong);
    });

    it('answers the same failure when the account is deleted while its password is being checked', async () => {
      const { deps } = await registered();
      const account = (await deps.accounts.byEmail('kari@example.com'))!;
      // The deletion lands between the password check and the new session.
      const hasher = { ...deps.hasher, verify: async (hash: string, password: string) => {
        const right = await deps.hasher.verify(hash, password);
        await deps.accounts.delete(account.id);
        return right;
      } };
      expect(await login({ ...deps, hasher }, { email: 'kari@example.com', password: 'long enough' })).to.deep.equal({ ok: false, error: { type: 'invalid-credentials' } });
    });
  });

  describe('sessions', () => {
    it('accepts a fresh session and refuses an unknown token', async () => {
      const { deps, issued } = await registered();
      const ok = await authenticate(deps, issued.token);
      expect(ok.ok && ok.value.account.email).to.equal('kari@example.com');
      expect(ok.ok && ok.value.renewed).to.equal(false);
      expect(await authenticate(deps, 'not-a-token')).to.deep.equal({ ok: false, error: { type: 'unauthenticated' } });
    });

    it('slides the expiry once less than half the lifetime is left', async () => {
      const { deps, clock, issued } = await registered();
      clock.advance(16 * DAY);
      const r = await authenticate(deps, issued.token);
      expect(r.ok && r.value.renewed).to.equal(true);
      expect(r.ok && r.value.session.expiresAt.getTime()).to.equal(clock.now().getTime() + SESSION_LIFETIME_MS);
      clock.advance(29 * DAY);
      expect((await authenticate(deps, issued.token)).ok).to.equal(true);
    });

    it('refuses an expired session and forgets it', async () => {
      const { deps, clock, issued } = await registered();
      clock.advance(SESSION_LIFETIME_MS);
      expect((await authenticate(deps, issued.token)).ok).to.equal(false);
      expect(await deps.sessions.lookup(issued.session.tokenHash)).to.equal(null);
    });

    it('logout ends this session and every other session of the account', async () => {
      const { deps, issued } = await registered();
      const other = await login(deps, { email: 'kari@example.com', password: 'long enough' });
      if (!other.ok) throw new Error('login failed');
      const caller = await authenticate(deps, issued.token);
      if (!caller.ok) throw new Error('auth failed');
      await logout(deps, caller.value);
      expect((await authenticate(deps, issued.token)).ok).to.equal(false);
      expect((await authenticate(deps, other.value.issued.token)).ok).to.equal(false);
      // A session started after the logout works.
      const account = (await deps.accounts.byEmail('kari@example.com'))!;
      const fresh = (await startSession(deps, account))!;
      expect((await authenticate(deps, fresh.token)).ok).to.equal(true);
    });
  });

  describe('me', () => {
    it('changes only the display name, trimmed, 1 to 80 characters', async () => {
      const { deps, issued } = await registered();
      const account = (await deps.accounts.byId(issued.session.accountId))!;
      const r = await updateMe(deps, account, { displayName: '  Ola  ' });
      expect(r.ok && r.value.account.displayName).to.equal('Ola');
      expect(r.ok && r.value.account.email).to.equal('kari@example.com');
      expect(await updateMe(deps, account, { displayName: '   ' })).to.deep.equal({ ok: false, error: { type: 'account-name-length' } });
      expect(await updateMe(deps, account, { displayName: 'x'.repeat(81) })).to.deep.equal({ ok: false, error: { type: 'account-name-length' } });
      expect((await updateMe(deps, account, { displayName: '🍲'.repeat(80) })).ok).to.equal(true);
    });

    it('marks platform admins by configured address, case-insensitively', async () => {
      const d = domain(['kari@example.com']);
      const { deps, issued } = await registered(d, 'Kari@Example.com');
      const account = (await deps.accounts.byId(issued.session.accountId))!;
      expect((await describeMe(deps, account)).isPlatformAdmin).to.equal(true);
      const { issued: other } = await registered(d, 'ola@example.com');
      expect((await describeMe(deps, (await deps.accounts.byId(other.session.accountId))!)).isPlatformAdmin).to.equal(false);
    });
  });
});
