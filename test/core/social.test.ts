import { expect } from 'chai';
import { authenticate, startSession } from '../../core/accounts/sessions.js';
import {
  beginSocialSignIn,
  completeSocialSignIn,
  exchangeSignInCode,
  listSocialProviders,
  siteRelativePath,
  SIGN_IN_CODE_LIFETIME_MS,
  SIGN_IN_FLOW_LIFETIME_MS,
  type CallbackOutcome,
  type ChallengeInput,
} from '../../core/accounts/social.js';
import { accountForIdentity, displayNameFrom } from '../../core/accounts/social-accounts.js';
import { signInWithNativeToken } from '../../core/accounts/social-native.js';
import { s256Pkce } from '../../adapters/oidc/pkce.js';
import type { AuthorizationSecrets, ExternalIdentity, NativeIdentityTokens, SocialSignIn } from '../../ports/identity-provider.js';
import type { NewAccount } from '../../ports/account-store.js';
import { domain } from './support.js';

const ISSUER = 'https://idp.example.com';
const APP_URI = 'no.example.dinner:/oauth';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';

const person = (over: Partial<ExternalIdentity> = {}): ExternalIdentity => ({
  issuer: ISSUER,
  subject: 'sub-kari',
  email: 'kari@example.com',
  emailVerified: true,
  name: 'Kari Nordmann',
  ...over,
});

/**
 * A provider that answers the callback code it was told to with an identity, and only for the secrets of a
 * request it started (as a real provider's state, nonce and PKCE checks would).
 */
function fakeProvider() {
  const started = new Map<string, AuthorizationSecrets>();
  const answers = new Map<string, ExternalIdentity>();
  const social: SocialSignIn = {
    providers: [
      { scheme: 'Google', displayName: 'Google' },
      { scheme: 'idporten', displayName: 'ID-porten' },
    ],
    async authorizationUrl(scheme, secrets) {
      started.set(secrets.state, secrets);
      return `${ISSUER}/authorize?provider=${scheme}&state=${secrets.state}`;
    },
    async completeSignIn(_scheme, params, secrets) {
      const sent = started.get(secrets.state);
      if (!sent || sent.nonce !== secrets.nonce || sent.codeVerifier !== secrets.codeVerifier || params['state'] !== secrets.state) return null;
      return answers.get(params['code'] ?? '') ?? null;
    },
  };
  return { social, answer: (code: string, identity: ExternalIdentity) => answers.set(code, identity) };
}

function world() {
  const d = domain();
  const provider = fakeProvider();
  const deps = { ...d.deps, social: provider.social, pkce: s256Pkce, appRedirectUris: new Set([APP_URI]) };

  /** Challenge, then the provider's redirect back with `code`, in the same browser. */
  async function signIn(code: string, challenge: Partial<ChallengeInput> = {}): Promise<CallbackOutcome> {
    const started = await beginSocialSignIn(deps, { provider: 'Google', ...challenge });
    if (!started.ok) throw new Error(`challenge failed: ${started.error.type}`);
    const state = started.value.state;
    return completeSocialSignIn(deps, { state, browserState: started.value.flow === 'browser' ? state : undefined, callbackParams: { code, state } });
  }
  /** An account made straight in the store, before any sign-in; 'email-taken' when its address is held already. */
  const made = (o: Omit<NewAccount, 'id' | 'securityStamp' | 'createdAt'>) => deps.accounts.create({ id: deps.ids.newId(), ...o, securityStamp: 'stamp', createdAt: deps.clock.now() });
  /** A password account made in the store, signed in on its own; then the provider signs Kari in. */
  async function signInOver(o: Omit<NewAccount, 'id' | 'securityStamp' | 'createdAt' | 'passwordHash'>) {
    const held = await made({ ...o, passwordHash: PASSWORD_HASH });
    if (held === 'email-taken') throw new Error('unexpected');
    const session = (await startSession(deps, held))!;
    provider.answer('c1', person());
    return { held, session, o: signedIn(await signIn('c1')) };
  }
  return { ...d, deps, provider, signIn, made, signInOver };
}

const signedIn = (o: CallbackOutcome) => {
  if (o.kind !== 'signed-in') throw new Error(`expected a sign-in, got ${o.kind}`);
  return o;
};

describe('social sign-in (domain)', () => {
  describe('providers and challenge', () => {
    it('lists the configured providers by scheme and display name', () => {
      const { deps } = world();
      expect(listSocialProviders(deps)).to.deep.equal([
        { scheme: 'Google', displayName: 'Google' },
        { scheme: 'idporten', displayName: 'ID-porten' },
      ]);
    });

    it('answers the provider URL and keeps the flow under the hash of its state for ten minutes', async () => {
      const { deps, clock } = world();
      const r = await beginSocialSignIn(deps, { provider: 'google', returnUrl: '/plans' });
      expect(r.ok).to.equal(true);
      if (!r.ok) return;
      expect(r.value.flow).to.equal('browser');
      expect(r.value.authorizationUrl).to.equal(`${ISSUER}/authorize?provider=Google&state=${r.value.state}`);
      const flow = await deps.signInFlows.take(deps.tokens.hash(r.value.state));
      expect(flow).to.include({ provider: 'Google', returnUrl: '/plans', app: null });
      expect(flow?.expiresAt.getTime()).to.equal(clock.now().getTime() + SIGN_IN_FLOW_LIFETIME_MS);
      expect(await deps.signInFlows.take(r.value.state)).to.equal(null); // not stored under the state itself
    });

    it('refuses an unknown provider', async () => {
      const { deps } = world();
      expect(await beginSocialSignIn(deps, { provider: 'facebook' })).to.deep.equal({ ok: false, error: { type: 'unknown-login-provider' } });
    });

    it('wants both codeChallenge and an allow-listed redirectUri for the app flow', async () => {
      const { deps } = world();
      const incomplete = { ok: false, error: { type: 'app-signin-incomplete' } };
      expect(await beginSocialSignIn(deps, { provider: 'Google', codeChallenge: CHALLENGE })).to.deep.equal(incomplete);
      expect(await beginSocialSignIn(deps, { provider: 'Google', redirectUri: APP_URI })).to.deep.equal(incomplete);
      expect(await beginSocialSignIn(deps, { provider: 'Google', redirectUri: 'https://evil.example/cb', codeChallenge: CHALLENGE })).to.deep.equal(incomplete);
      expect(await beginSocialSignIn(deps, { provider: 'Google', redirectUri: `${APP_URI}/`, codeChallenge: CHALLENGE })).to.deep.equal(incomplete);
      expect(await beginSocialSignIn(deps, { provider: 'Google', redirectUri: APP_URI, codeChallenge: 'short' })).to.deep.equal(incomplete);
      const app = await beginSocialSignIn(deps, { provider: 'Google', redirectUri: APP_URI, codeChallenge: CHALLENGE, returnUrl: '' });
      expect(app.ok && app.value.flow).to.equal('app');
      // Empty parameters count as absent: a browser flow.
      const browser = await beginSocialSignIn(deps, { provider: 'Google', redirectUri: '', codeChallenge: '' });
      expect(browser.ok && browser.value.flow).to.equal('browser');
    });

    it('keeps only site-relative return paths', () => {
      for (const ok of ['/', '/plans', '/plans?week=18#top', '/a/b/c']) expect(siteRelativePath(ok), ok).to.equal(ok);
      for (const bad of [undefined, '', 'plans', '//evil.example', '/\\evil.example', 'https://evil.example/', '/\t/evil.example', 'javascript:alert(1)', `/${'x'.repeat(2048)}`]) {
        expect(siteRelativePath(bad), String(bad)).to.equal('/');
      }
    });
  });

  describe('callback', () => {
    it('creates an account for a new identity: no password, address confirmed, named by the provider, Norwegian', async () => {
      const { deps, provider, signIn } = world();
      provider.answer('c1', person());
      const o = signedIn(await signIn('c1', { returnUrl: '/plans' }));
      expect(o.returnUrl).to.equal('/plans');
      expect(o.account).to.include({ email: 'kari@example.com', emailConfirmed: true, displayName: 'Kari Nordmann', language: 'nb', passwordHash: null });
      expect((await authenticate(deps, o.issued.token)).ok).to.equal(true);
      expect(await deps.identities.identitiesOf(o.account.id)).to.have.length(1);
    });

    it('signs the same identity in to the same account next time, whatever the address says now', async () => {
      const { provider, signIn } = world();
      provider.answer('c1', person());
      provider.answer('c2', person({ email: 'kari.new@example.com', name: 'Kari N.' }));
      const first = signedIn(await signIn('c1'));
      const second = signedIn(await signIn('c2'));
      expect(second.account.id).to.equal(first.account.id);
      expect(second.account.displayName).to.equal('Kari Nordmann');
    });

    it('links a verified address to the account that holds it, without touching a confirmed account\'s sessions', async () => {
      const { deps, signInOver } = world();
      const { held: existing, session: before, o } = await signInOver({ email: 'Kari@Example.com', emailConfirmed: true, displayName: 'Kari', language: 'en' });
      expect(o.account.id).to.equal(existing.id);
      expect(o.account.passwordHash).to.equal(existing.passwordHash);
      expect((await deps.identities.find(ISSUER, 'sub-kari'))?.accountId).to.equal(existing.id);
      expect((await authenticate(deps, before.token)).ok).to.equal(true);
    });

    it('confirms an unconfirmed address it links to and ends the sessions opened before (a squatter\'s, maybe)', async () => {
      const { deps, signInOver } = world();
      const { held: squatted, session: squatterSession, o } = await signInOver({ email: 'kari@example.com', emailConfirmed: false, displayName: 'Not Kari', language: 'nb' });
      expect(o.account.id).to.equal(squatted.id);
      expect(o.account.emailConfirmed).to.equal(true);
      expect(o.account.passwordHash).to.equal(null);
      expect((await authenticate(deps, squatterSession.token)).ok).to.equal(false);
      expect((await authenticate(deps, o.issued.token)).ok).to.equal(true);
    });

    it('never joins an account by an address the provider did not verify: the new account goes without it', async () => {
      const { deps, provider, signIn, made } = world();
      const holder = await made({ email: 'kari@example.com', emailConfirmed: true, displayName: 'Kari', language: 'nb', passwordHash: null });
      provider.answer('c1', person({ subject: 'other', emailVerified: false, name: null }));
      const o = signedIn(await signIn('c1'));
      expect(o.account.id).to.not.equal(holder !== 'email-taken' && holder.id);
      expect(o.account).to.include({ email: null, emailConfirmed: false, displayName: 'kari' });
    });

    it('keeps an unverified address that nobody holds, unconfirmed', async () => {
      const { provider, signIn } = world();
      provider.answer('c1', person({ emailVerified: false }));
      expect(signedIn(await signIn('c1')).account).to.include({ email: 'kari@example.com', emailConfirmed: false });
    });

    it('completes a flow once, and not after ten minutes', async () => {
      const { deps, clock, provider } = world();
      provider.answer('c1', person());
      const started = await beginSocialSignIn(deps, { provider: 'Google' });
      if (!started.ok) throw new Error('challenge failed');
      const { state } = started.value;
      const input = { state, browserState: state, callbackParams: { code: 'c1', state } };
      expect((await completeSocialSignIn(deps, input)).kind).to.equal('signed-in');
      expect(await completeSocialSignIn(deps, input)).to.deep.equal({ kind: 'failed' });

      const late = await beginSocialSignIn(deps, { provider: 'Google' });
      if (!late.ok) throw new Error('challenge failed');
      clock.advance(SIGN_IN_FLOW_LIFETIME_MS);
      const s = late.value.state;
      expect(await completeSocialSignIn(deps, { state: s, browserState: s, callbackParams: { code: 'c1', state: s } })).to.deep.equal({ kind: 'failed' });
    });

    it('ends a browser flow only in the browser that started it', async () => {
      const { deps, provider } = world();
      provider.answer('c1', person());
      const started = await beginSocialSignIn(deps, { provider: 'Google' });
      if (!started.ok) throw new Error('challenge failed');
      const { state } = started.value;
      expect(await completeSocialSignIn(deps, { state, browserState: undefined, callbackParams: { code: 'c1', state } })).to.deep.equal({ kind: 'failed' });
      const other = await beginSocialSignIn(deps, { provider: 'Google' });
      if (!other.ok) throw new Error('challenge failed');
      const s = other.value.state;
      expect(await completeSocialSignIn(deps, { state: s, browserState: state, callbackParams: { code: 'c1', state: s } })).to.deep.equal({ kind: 'failed' });
    });

    it('fails without a state, with an unknown one, or when the provider says no', async () => {
      const { deps, signIn } = world();
      expect(await completeSocialSignIn(deps, { state: undefined, browserState: undefined, callbackParams: {} })).to.deep.equal({ kind: 'failed' });
      expect(await completeSocialSignIn(deps, { state: 'made-up', browserState: 'made-up', callbackParams: { code: 'c1', state: 'made-up' } })).to.deep.equal({ kind: 'failed' });
      expect(await signIn('refused')).to.deep.equal({ kind: 'failed' });
      expect(await signIn('refused', { redirectUri: APP_URI, codeChallenge: CHALLENGE })).to.deep.equal({ kind: 'app-failed', redirectUri: APP_URI });
    });

    it('makes one account when the same new identity signs in twice at once', async () => {
      const { deps } = world();
      const [a, b] = await Promise.all([accountForIdentity(deps, person(), 'Kari'), accountForIdentity(deps, person(), 'Kari')]);
      expect(a.ok && b.ok && a.value.id === b.value.id).to.equal(true);
      const holder = await deps.accounts.byEmail('kari@example.com');
      expect(a.ok && holder?.id).to.equal(a.ok && a.value.id);
    });
  });

  describe('app flow and exchange', () => {
    async function appCode(w: ReturnType<typeof world>) {
      w.provider.answer('c1', person());
      const o = await w.signIn('c1', { redirectUri: APP_URI, codeChallenge: CHALLENGE, returnUrl: '/ignored' });
      if (o.kind !== 'app-code') throw new Error(`expected a code, got ${o.kind}`);
      expect(o.redirectUri).to.equal(APP_URI);
      return o.code;
    }

    it('gives the app a code, not a session, and the code with the right verifier a session', async () => {
      const w = world();
      const code = await appCode(w);
      const r = await exchangeSignInCode(w.deps, { code, codeVerifier: VERIFIER });
      expect(r.ok).to.equal(true);
      if (!r.ok) return;
      expect(r.value.account.email).to.equal('kari@example.com');
      expect((await authenticate(w.deps, r.value.issued.token)).ok).to.equal(true);
    });

    it('takes a code once, and a wrong verifier uses it up', async () => {
      const w = world();
      const spent = { ok: false, error: { type: 'signin-code-spent' } };
      const once = await appCode(w);
      expect((await exchangeSignInCode(w.deps, { code: once, codeVerifier: VERIFIER })).ok).to.equal(true);
      expect(await exchangeSignInCode(w.deps, { code: once, codeVerifier: VERIFIER })).to.deep.equal(spent);
      const guessed = await appCode(w);
      expect(await exchangeSignInCode(w.deps, { code: guessed, codeVerifier: `${VERIFIER}x` })).to.deep.equal(spent);
      expect(await exchangeSignInCode(w.deps, { code: guessed, codeVerifier: VERIFIER })).to.deep.equal(spent);
      expect(await exchangeSignInCode(w.deps, { code: 'never-issued', codeVerifier: VERIFIER })).to.deep.equal(spent);
    });

    it('refuses a code two minutes old, and one whose account is gone', async () => {
      const w = world();
      const spent = { ok: false, error: { type: 'signin-code-spent' } };
      const late = await appCode(w);
      w.clock.advance(SIGN_IN_CODE_LIFETIME_MS - 1);
      const inTime = await appCode(w);
      expect((await exchangeSignInCode(w.deps, { code: inTime, codeVerifier: VERIFIER })).ok).to.equal(true);
      w.clock.advance(1);
      expect(await exchangeSignInCode(w.deps, { code: late, codeVerifier: VERIFIER })).to.deep.equal(spent);

      const orphan = await appCode(w);
      const account = await w.deps.accounts.byEmail('kari@example.com');
      await w.deps.accounts.delete(account!.id);
      expect(await exchangeSignInCode(w.deps, { code: orphan, codeVerifier: VERIFIER })).to.deep.equal(spent);
    });
  });

  describe('native identity token', () => {
    const tokens = new Map<string, ExternalIdentity>([
      ['apple-kari', person({ issuer: 'https://appleid.example.com', subject: 'apple.001', name: null })],
      ['apple-anon', person({ issuer: 'https://appleid.example.com', subject: 'apple.002', email: null, emailVerified: false, name: null })],
    ]);
    const native: NativeIdentityTokens = {
      async verify(token, rawNonce) {
        return rawNonce === 'wrong' ? null : (tokens.get(token) ?? null);
      },
    };

    it('is unavailable when not configured', async () => {
      const { deps } = world();
      expect(await signInWithNativeToken({ ...deps, nativeIdp: null }, { identityToken: 'apple-kari' })).to.deep.equal({ ok: false, error: { type: 'idp-signin-unavailable' } });
    });

    it('rejects a token the verifier refuses', async () => {
      const { deps } = world();
      const rejected = { ok: false, error: { type: 'idp-signin-rejected' } };
      expect(await signInWithNativeToken({ ...deps, nativeIdp: native }, { identityToken: 'forged' })).to.deep.equal(rejected);
      expect(await signInWithNativeToken({ ...deps, nativeIdp: native }, { identityToken: 'apple-kari', rawNonce: 'wrong' })).to.deep.equal(rejected);
    });

    it('creates an account named from the given and family names, then finds it by subject', async () => {
      const { deps } = world();
      const d = { ...deps, nativeIdp: native };
      const first = await signInWithNativeToken(d, { identityToken: 'apple-kari', givenName: ' Kari ', familyName: 'Nordmann' });
      expect(first.ok && first.value.account).to.include({ displayName: 'Kari Nordmann', email: 'kari@example.com', emailConfirmed: true, passwordHash: null });
      const again = await signInWithNativeToken(d, { identityToken: 'apple-kari', givenName: null, familyName: null });
      expect(again.ok && first.ok && again.value.account.id === first.value.account.id).to.equal(true);
      expect(again.ok && (await authenticate(deps, again.value.issued.token)).ok).to.equal(true);
    });

    it('names a new account from the address, else "Dinner user"; an address only the app sent stays unconfirmed', async () => {
      const { deps } = world();
      const d = { ...deps, nativeIdp: native };
      const fromBody = await signInWithNativeToken(d, { identityToken: 'apple-anon', email: 'ola@example.com' });
      expect(fromBody.ok && fromBody.value.account).to.include({ displayName: 'ola', email: 'ola@example.com', emailConfirmed: false });

      const w = world();
      const bare = await signInWithNativeToken({ ...w.deps, nativeIdp: native }, { identityToken: 'apple-anon', email: 'not an address' });
      expect(bare.ok && bare.value.account).to.include({ displayName: 'Dinner user', email: null });
    });

    it('does not join an account by an address only the app sent', async () => {
      const { deps, made } = world();
      const holder = await made({ email: 'ola@example.com', emailConfirmed: true, displayName: 'Ola', language: 'nb', passwordHash: null });
      const r = await signInWithNativeToken({ ...deps, nativeIdp: native }, { identityToken: 'apple-anon', email: 'ola@example.com' });
      expect(r.ok && r.value.account.id).to.not.equal(holder !== 'email-taken' && holder.id);
      expect(r.ok && r.value.account.email).to.equal(null);
    });
  });

  describe('display names', () => {
    it('takes the name, else the address\'s local part, cut to 80 characters', () => {
      expect(displayNameFrom('  Kari  ', 'x@example.com')).to.equal('Kari');
      expect(displayNameFrom('   ', 'ola.nordmann@example.com')).to.equal('ola.nordmann');
      expect(displayNameFrom(null, null)).to.equal('Dinner user');
      expect([...displayNameFrom('😀'.repeat(100), null)]).to.have.length(80);
    });
  });
});
