import { expect } from 'chai';
import type { LinkedIdentity, SignInCode, SignInFlow } from '../../ports/identity-store.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount, newAccount } from './fixtures.js';

const ISSUER = 'https://accounts.example.com';

export function identityStoreContract(backend: Backend): void {
  storeSuite(backend, 'IdentityStore', (s) => {
    const identity = (accountId: string, over: Partial<LinkedIdentity> = {}): LinkedIdentity => ({
      issuer: ISSUER,
      subject: '1049557729304212345',
      accountId,
      email: 'kari@example.com',
      createdAt: at('2026-04-01T08:00:00.250Z'),
      ...over,
    });

    it('round-trips a link, its date included, found by (issuer, subject)', async () => {
      const account = await createdAccount(s);
      const input = identity(account.id);
      expect(await s.identities.link(input)).to.equal('linked');
      expect(await s.identities.find(ISSUER, input.subject)).to.deep.equal(input);
      expect(await s.identities.identitiesOf(account.id)).to.deep.equal([input]);
    });

    it('keeps a null address', async () => {
      const account = await createdAccount(s);
      await s.identities.link(identity(account.id, { email: null }));
      expect((await s.identities.find(ISSUER, '1049557729304212345'))?.email).to.equal(null);
    });

    it('finds only the exact (issuer, subject)', async () => {
      const account = await createdAccount(s);
      await s.identities.link(identity(account.id));
      expect(await s.identities.find('https://other.example.com', '1049557729304212345')).to.equal(null);
      expect(await s.identities.find(ISSUER, '1049557729304212346')).to.equal(null);
      expect(await s.identities.find(ISSUER.toUpperCase(), '1049557729304212345')).to.equal(null);
    });

    it('links an identity once: a second link of the same (issuer, subject) is taken, for any account', async () => {
      const first = newAccount();
      const second = newAccount();
      await s.accounts.create(first);
      await s.accounts.create(second);
      expect(await s.identities.link(identity(first.id))).to.equal('linked');
      expect(await s.identities.link(identity(second.id))).to.equal('taken');
      expect(await s.identities.link(identity(first.id, { createdAt: at('2026-04-02T00:00:00.000Z') }))).to.equal('taken');
      expect((await s.identities.find(ISSUER, '1049557729304212345'))?.accountId).to.equal(first.id);
      expect(await s.identities.identitiesOf(second.id)).to.deep.equal([]);
    });

    it('lets one account hold several identities, the same subject at two issuers included, oldest first', async () => {
      const account = await createdAccount(s);
      const later = identity(account.id, { issuer: 'https://appleid.example.com', createdAt: at('2026-04-03T00:00:00.000Z') });
      const earlier = identity(account.id, { createdAt: at('2026-04-02T00:00:00.000Z') });
      expect(await s.identities.link(later)).to.equal('linked');
      expect(await s.identities.link(earlier)).to.equal('linked');
      expect(await s.identities.identitiesOf(account.id)).to.deep.equal([earlier, later]);
    });

    it("unlinks only the account's own link, keeps the last one when asked to, and lets the identity be linked anew", async () => {
      const account = newAccount();
      const other = newAccount();
      await s.accounts.create(account);
      await s.accounts.create(other);
      const google = identity(account.id);
      const apple = identity(account.id, { issuer: 'https://appleid.example.com', createdAt: at('2026-04-03T00:00:00.000Z') });
      await s.identities.link(google);
      await s.identities.link(apple);
      expect(await s.identities.unlink(other.id, ISSUER, google.subject, false)).to.equal('none');
      expect(await s.identities.unlink(account.id, ISSUER, 'someone else', false)).to.equal('none');
      expect(await s.identities.unlink(account.id, ISSUER, google.subject, true)).to.equal('unlinked');
      expect(await s.identities.unlink(account.id, apple.issuer, apple.subject, true)).to.equal('last');
      expect(await s.identities.identitiesOf(account.id)).to.deep.equal([apple]);
      expect(await s.identities.unlink(account.id, apple.issuer, apple.subject, false)).to.equal('unlinked');
      expect(await s.identities.identitiesOf(account.id)).to.deep.equal([]);
      expect(await s.identities.link(identity(other.id))).to.equal('linked');
    });

    it('of two removals at once that would leave no link, one is refused', async () => {
      const account = await createdAccount(s);
      const a = identity(account.id);
      const b = identity(account.id, { issuer: 'https://appleid.example.com' });
      await s.identities.link(a);
      await s.identities.link(b);
      const outcomes = await Promise.all([s.identities.unlink(account.id, a.issuer, a.subject, true), s.identities.unlink(account.id, b.issuer, b.subject, true)]);
      expect([...outcomes].sort()).to.deep.equal(['last', 'unlinked']);
      expect(await s.identities.identitiesOf(account.id)).to.have.length(1);
    });

    it('drops the identities of a deleted account, so the identity can be linked anew', async () => {
      const gone = newAccount();
      const next = newAccount();
      await s.accounts.create(gone);
      await s.accounts.create(next);
      await s.identities.link(identity(gone.id));
      await s.accounts.delete(gone.id);
      expect(await s.identities.find(ISSUER, '1049557729304212345')).to.equal(null);
      expect(await s.identities.link(identity(next.id))).to.equal('linked');
    });
  });
}

export function signInFlowStoreContract(backend: Backend): void {
  storeSuite(backend, 'SignInFlowStore', (s) => {
    const flow = (over: Partial<SignInFlow> = {}): SignInFlow => ({
      stateHash: 'a'.repeat(64),
      provider: 'Google',
      codeVerifier: 'v'.repeat(43),
      nonce: 'n'.repeat(43),
      returnUrl: '/plans?week=2026-W18',
      app: null,
      createdAt: at('2026-04-01T08:00:00.250Z'),
      expiresAt: at('2026-04-01T08:10:00.250Z'),
      ...over,
    });

    it('round-trips a browser flow and an app flow, dates included', async () => {
      const browser = flow();
      const app = flow({ stateHash: 'b'.repeat(64), returnUrl: '/', app: { redirectUri: 'no.example.dinner:/oauth', codeChallenge: 'c'.repeat(43) } });
      await s.signInFlows.save(browser);
      await s.signInFlows.save(app);
      expect(await s.signInFlows.take(browser.stateHash)).to.deep.equal(browser);
      expect(await s.signInFlows.take(app.stateHash)).to.deep.equal(app);
    });

    it('answers a flow once: taken, it is gone; an unknown state is null', async () => {
      await s.signInFlows.save(flow());
      expect(await s.signInFlows.take('a'.repeat(64))).to.not.equal(null);
      expect(await s.signInFlows.take('a'.repeat(64))).to.equal(null);
      expect(await s.signInFlows.take('f'.repeat(64))).to.equal(null);
    });

    it('gives a flow to exactly one of several concurrent takers', async () => {
      await s.signInFlows.save(flow());
      const answers = await Promise.all(Array.from({ length: 5 }, () => s.signInFlows.take('a'.repeat(64))));
      expect(answers.filter((a) => a !== null)).to.deep.equal([flow()]);
    });

    it('answers an expired flow to take (the caller judges it) and purges only flows expired before now', async () => {
      await s.signInFlows.save(flow({ stateHash: '1'.repeat(64), expiresAt: at('2026-04-01T08:10:00.000Z') }));
      await s.signInFlows.save(flow({ stateHash: '2'.repeat(64), expiresAt: at('2026-04-01T08:20:00.000Z') }));
      await s.signInFlows.save(flow({ stateHash: '3'.repeat(64), expiresAt: at('2026-04-01T08:30:00.000Z') }));
      expect((await s.signInFlows.take('1'.repeat(64)))?.expiresAt).to.deep.equal(at('2026-04-01T08:10:00.000Z'));
      expect(await s.signInFlows.deleteExpired(at('2026-04-01T08:25:00.000Z'))).to.equal(1);
      expect(await s.signInFlows.take('2'.repeat(64))).to.equal(null);
      expect(await s.signInFlows.take('3'.repeat(64))).to.not.equal(null);
      expect(await s.signInFlows.deleteExpired(at('2026-04-01T09:00:00.000Z'))).to.equal(0);
    });
  });
}

export function signInCodeStoreContract(backend: Backend): void {
  storeSuite(backend, 'SignInCodeStore', (s) => {
    const code = (accountId: string, over: Partial<SignInCode> = {}): SignInCode => ({
      codeHash: 'a'.repeat(64),
      accountId,
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      createdAt: at('2026-04-01T08:00:00.250Z'),
      expiresAt: at('2026-04-01T08:02:00.250Z'),
      ...over,
    });

    it('round-trips a code, dates included, and answers it once', async () => {
      const account = await createdAccount(s);
      const input = code(account.id);
      await s.signInCodes.save(input);
      expect(await s.signInCodes.take(input.codeHash)).to.deep.equal(input);
      expect(await s.signInCodes.take(input.codeHash)).to.equal(null);
      expect(await s.signInCodes.take('f'.repeat(64))).to.equal(null);
    });

    it('gives a code to exactly one of two concurrent takers', async () => {
      const account = await createdAccount(s);
      await s.signInCodes.save(code(account.id));
      const [a, b] = await Promise.all([s.signInCodes.take('a'.repeat(64)), s.signInCodes.take('a'.repeat(64))]);
      expect([a, b].filter((x) => x !== null)).to.deep.equal([code(account.id)]);
    });

    it('purges only codes expired before now', async () => {
      const account = await createdAccount(s);
      await s.signInCodes.save(code(account.id, { codeHash: '1'.repeat(64), expiresAt: at('2026-04-01T08:02:00.000Z') }));
      await s.signInCodes.save(code(account.id, { codeHash: '2'.repeat(64), expiresAt: at('2026-04-01T08:04:00.000Z') }));
      expect(await s.signInCodes.deleteExpired(at('2026-04-01T08:03:00.000Z'))).to.equal(1);
      expect(await s.signInCodes.take('1'.repeat(64))).to.equal(null);
      expect((await s.signInCodes.take('2'.repeat(64)))?.accountId).to.equal(account.id);
    });

    it('drops the codes of a deleted account', async () => {
      const account = await createdAccount(s);
      await s.signInCodes.save(code(account.id));
      await s.accounts.delete(account.id);
      expect(await s.signInCodes.take('a'.repeat(64))).to.equal(null);
    });
  });
}
