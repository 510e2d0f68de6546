import { expect } from 'chai';
import { argon2Hasher } from '../../adapters/crypto/argon2-hasher.js';
import { register } from '../../core/accounts/register.js';
import { login } from '../../core/accounts/login.js';
import { authenticate, SESSION_ABSOLUTE_MS, SESSION_LIFETIME_MS } from '../../core/accounts/sessions.js';
import { composeAccountMail, links } from '../../core/accounts/mails.js';
import { domain } from './support.js';

const DAY = 86_400_000;

describe('account security (domain)', () => {
  it('upgrades a hash made with other argon2 parameters at the next sign-in', async () => {
    const { deps } = domain();
    const old = await argon2Hasher({ memoryCost: 2048, timeCost: 1, parallelism: 1 }).hash('an old password');
    const created = await deps.accounts.create({ id: crypto.randomUUID(), email: 'old@example.com', emailConfirmed: true, displayName: 'Old', language: 'nb', passwordHash: old, securityStamp: 's', createdAt: deps.clock.now() });
    if (created === 'email-taken') throw new Error('taken');
    expect(deps.hasher.needsRehash(old)).to.equal(true);
    expect((await login(deps, { email: 'old@example.com', password: 'an old password' })).ok).to.equal(true);
    const upgraded = (await deps.accounts.byId(created.id))!.passwordHash!;
    expect(upgraded).to.match(/m=1024,t=1,p=1/);
    expect(deps.hasher.needsRehash(upgraded)).to.equal(false);
    expect((await login(deps, { email: 'old@example.com', password: 'an old password' })).ok).to.equal(true);
  });

  it('ends a session 90 days after sign-in however often it is used', async () => {
    const { deps, clock } = domain();
    const r = await register(deps, { email: 'kari@example.com', password: 'long enough', displayName: 'Kari' });
    if (!r.ok || r.value.kind !== 'created') throw new Error('register failed');
    const { token } = r.value.issued;
    let last: Date | undefined;
    for (let day = 20; day < 90; day += 20) {
      clock.advance(20 * DAY);
      const a = await authenticate(deps, token);
      expect(a.ok, `day ${day}`).to.equal(true);
      if (a.ok) last = a.value.session.expiresAt;
    }
    // The last renewal stops at the cap, not 30 days on.
    expect(last!.getTime()).to.be.at.most(r.value.issued.session.createdAt.getTime() + SESSION_ABSOLUTE_MS);
    expect(SESSION_LIFETIME_MS).to.equal(30 * DAY);
    clock.set(new Date(r.value.issued.session.createdAt.getTime() + SESSION_ABSOLUTE_MS));
    expect((await authenticate(deps, token)).ok).to.equal(false);
  });

  it('locks after the configured run of wrong passwords and unlocks when the lock runs out', async () => {
    const { deps, clock } = domain(); // lockout 3 within 15 min, 5 min lock
    await register(deps, { email: 'kari@example.com', password: 'long enough', displayName: 'Kari' });
    const attempt = (password: string) => login(deps, { email: 'KARI@example.com', password });
    for (let i = 0; i < 3; i++) expect(await attempt('wrong one')).to.deep.equal({ ok: false, error: { type: 'invalid-credentials' } });
    expect(await attempt('long enough')).to.deep.equal({ ok: false, error: { type: 'account-locked' } });
    clock.advance(5 * 60_000);
    expect((await attempt('long enough')).ok).to.equal(true);
  });

  it('does not count failures older than the window', async () => {
    const { deps, clock } = domain();
    await register(deps, { email: 'kari@example.com', password: 'long enough', displayName: 'Kari' });
    await login(deps, { email: 'kari@example.com', password: 'wrong one' });
    await login(deps, { email: 'kari@example.com', password: 'wrong one' });
    clock.advance(15 * 60_000);
    expect(await login(deps, { email: 'kari@example.com', password: 'wrong one' })).to.deep.equal({ ok: false, error: { type: 'invalid-credentials' } });
    expect((await login(deps, { email: 'kari@example.com', password: 'long enough' })).ok).to.equal(true);
  });

  it('builds the confirm-email, confirm-email-change and reset-password links and mails in both languages', () => {
    expect(links.confirmEmail('https://d.example', 'u-1', 'tok')).to.equal('https://d.example/confirm-email?userId=u-1&token=tok');
    expect(links.confirmEmailChange('https://d.example', 'u-1', 'a+b@example.com', 'tok')).to.equal('https://d.example/confirm-email-change?userId=u-1&newEmail=a%2Bb%40example.com&token=tok');
    expect(links.resetPassword('https://d.example', 'a@example.com', 'tok')).to.equal('https://d.example/reset-password?email=a%40example.com&token=tok');
    const nb = composeAccountMail('a@example.com', 'Kari <3', 'nb', { kind: 'reset-password', link: 'https://d.example/x?a=1&b=2' });
    const en = composeAccountMail('a@example.com', 'Kari', 'en', { kind: 'reset-password', link: 'https://d.example/x' });
    expect(nb.subject).to.equal('Lag nytt passord');
    expect(en.subject).to.equal('Reset your password');
    expect(nb.text).to.contain('https://d.example/x?a=1&b=2');
    expect(nb.html).to.contain('href="https://d.example/x?a=1&amp;b=2"');
    expect(nb.html).to.contain('Kari &lt;3');
  });
});
