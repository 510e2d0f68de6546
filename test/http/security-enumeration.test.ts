import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { argon2Hasher } from '../../adapters/crypto/argon2-hasher.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import { eachDatabase, httpService } from '../support/http-suite.js';
import { freshEmail, type Answer } from '../support/client.js';
import { linkIn } from '../support/smtp.js';

/*
 * Account enumeration and stored secrets (docs/security.md): whether an address has an account must show neither
 * in the answers of login, register and forgot-password nor in the work they do. The work is proved by counting
 * argon2 calls (the cost that dwarfs the rest), not by timing; scripts/bench/login-timing.ts measures the time.
 */

const PUBLIC = 'https://dinner.example';
const PASSWORD = 'correct horse battery';

/** The real argon2id hasher, counting what each request spends. */
function countingHasher(): { hasher: PasswordHasher; counts: Record<'hash' | 'verify' | 'verifyNothing', number> } {
  const inner = argon2Hasher();
  const counts = { hash: 0, verify: 0, verifyNothing: 0 };
  return {
    counts,
    hasher: {
      hash: (p) => (counts.hash++, inner.hash(p)),
      verify: (phc, p) => (counts.verify++, inner.verify(phc, p)),
      needsRehash: (phc) => inner.needsRehash(phc),
      verifyNothing: (p) => (counts.verifyNothing++, inner.verifyNothing(p)),
    },
  };
}

/** What a caller can compare: status, content type, body without the per-request trace id, and whether a cookie came. */
const visible = (res: Answer) => ({
  status: res.status,
  type: res.headers.get('content-type'),
  body: res.json === undefined ? res.text : { ...res.json, traceId: undefined },
  cookie: res.headers.getSetCookie().some((c) => c.startsWith('app_session=')),
});

eachDatabase('account enumeration and stored secrets', (kind) => {
  const counting = countingHasher();
  const server = httpService(kind, { mail: true, env: { PUBLIC_BASE_URL: PUBLIC, LOCKOUT: '2/900/300' }, runtime: { hasher: counting.hasher } });

  /** The argon2 calls one request made, and its answer. */
  async function spent(request: () => Promise<Answer>): Promise<{ res: Answer; calls: { hash: number; verify: number; verifyNothing: number } }> {
    const before = { ...counting.counts };
    const res = await request();
    const calls = { hash: counting.counts.hash - before.hash, verify: counting.counts.verify - before.verify, verifyNothing: counting.counts.verifyNothing - before.verifyNothing };
    return { res, calls };
  }
  const login = (email: string, password: string) => () => server.client().post('/api/v1/auth/login', { email, password });

  it('spends exactly one argon2 verification on every failed sign-in, known address or not, locked or not, and answers alike', async () => {
    const { email } = await server.signedIn();
    const stranger = freshEmail('nobody');

    const wrong = await spent(login(email, 'wrong password'));
    const unknown = await spent(login(stranger, 'wrong password'));
    expect(wrong.calls).to.deep.equal({ hash: 0, verify: 1, verifyNothing: 0 });
    expect(unknown.calls).to.deep.equal({ hash: 0, verify: 0, verifyNothing: 1 });
    expect(visible(wrong.res)).to.deep.equal(visible(unknown.res));
    expect(wrong.res.json.code).to.equal('invalid_credentials');

    // The second failure locks both addresses (LOCKOUT=2/900/300); the right password is refused alike.
    await login(email, 'wrong password')();
    await login(stranger, 'wrong password')();
    const lockedKnown = await spent(login(email, PASSWORD));
    const lockedUnknown = await spent(login(stranger, PASSWORD));
    expect(lockedKnown.calls).to.deep.equal({ hash: 0, verify: 1, verifyNothing: 0 });
    expect(lockedUnknown.calls).to.deep.equal({ hash: 0, verify: 0, verifyNothing: 1 });
    expect(visible(lockedKnown.res)).to.deep.equal(visible(lockedUnknown.res));
    expect(lockedKnown.res.json.code).to.equal('account_locked');
    expect(lockedKnown.res.status).to.equal(423);
  });

  it('hashes the password once on register whether or not the address is known; only the fresh sign-up gets a cookie', async () => {
    const email = freshEmail();
    const fresh = await spent(() => server.client().post('/api/v1/auth/register', { email, password: PASSWORD, displayName: 'Kari' }));
    const known = await spent(() => server.client().post('/api/v1/auth/register', { email: email.toUpperCase(), password: 'another password', displayName: 'Eve' }));
    expect(fresh.calls).to.deep.equal({ hash: 1, verify: 0, verifyNothing: 0 });
    expect(known.calls).to.deep.equal(fresh.calls);
    // POST /api/v1/auth/register: 200 with no body either way, the session cookie only for a fresh sign-up.
    expect({ ...visible(known.res), cookie: undefined }).to.deep.equal({ ...visible(fresh.res), cookie: undefined });
    expect([visible(fresh.res).cookie, visible(known.res).cookie]).to.deep.equal([true, false]);
  });

  it('answers forgot-password 204 with no body alike for a known, a repeated, an unknown and a malformed address', async () => {
    const { email } = await server.signedIn();
    const answers = [
      await server.client().post('/api/v1/auth/forgot-password', { email }),
      await server.client().post('/api/v1/auth/forgot-password', { email }),
      await server.client().post('/api/v1/auth/forgot-password', { email: freshEmail('nobody') }),
      await server.client().post('/api/v1/auth/forgot-password', { email: 'not an address' }),
    ].map(visible);
    expect(answers[0]).to.deep.equal({ status: 204, type: null, body: '', cookie: false });
    for (const a of answers) expect(a).to.deep.equal(answers[0]);
  });

  it('shows the same Server-Timing query count on forgot-password for a known, an unknown and a malformed address, and still mails the known one', async () => {
    const { email } = await server.signedIn();
    const queries = async (address: string) => {
      const res = await server.client().post('/api/v1/auth/forgot-password', { email: address });
      expect(res.status).to.equal(204);
      return /desc="(\d+) queries"/.exec(res.headers.get('server-timing') ?? '')?.[1];
    };
    const counts = [await queries(email), await queries(freshEmail('nobody')), await queries('not an address')];
    expect(counts[0]).to.be.a('string');
    expect(counts).to.deep.equal([counts[0], counts[0], counts[0]]);
    // The lookup happened after the answer: the known address got its link all the same.
    await server.runtime.mailer.drain();
    expect(server.smtp.to(email).filter((m) => m.text.includes('/reset-password?'))).to.have.length(1);
  });

  it('shows the same Server-Timing query count on POST /me/email for a free and a taken address', async () => {
    const taken = await server.signedIn();
    const me = await server.signedIn();
    const queries = async (newEmail: string) => {
      const res = await me.client.post('/api/v1/me/email', { newEmail });
      expect(res.status).to.equal(204);
      return /desc="(\d+) queries"/.exec(res.headers.get('server-timing') ?? '')?.[1];
    };
    // The session comes from the read cache from the second signed-in request on: one first, so that both
    // compared requests find it there.
    expect((await me.client.get('/api/v1/me')).status).to.equal(200);
    const free = freshEmail('free');
    const counts = [await queries(free), await queries(taken.email)];
    expect(counts[0]).to.be.a('string');
    expect(counts[1]).to.equal(counts[0]);
    await server.runtime.mailer.drain();
    expect(server.smtp.to(free)).to.have.length(1);
    expect(server.smtp.to(taken.email).filter((m) => m.text.includes('/confirm-email-change?'))).to.have.length(0);
  });

  it('keeps mail-link tokens only as their SHA-256: the confirmation and the reset link', async () => {
    const email = freshEmail();
    expect((await server.client().post('/api/v1/auth/register', { email, password: PASSWORD, displayName: 'Kari' })).status).to.equal(200);
    const confirm = linkIn(await server.smtp.waitFor(email), `${PUBLIC}/confirm-email?`).searchParams.get('token')!;
    expect((await server.client().post('/api/v1/auth/forgot-password', { email })).status).to.equal(204);
    const reset = linkIn(await server.smtp.waitFor(email, (m) => m.text.includes('/reset-password?')), `${PUBLIC}/reset-password?`).searchParams.get('token')!;

    const rows = (await server.runtime.db.knex('account_tokens')) as Record<string, unknown>[];
    const stored = rows.flatMap((r) => Object.values(r).map((v) => String(v)));
    for (const token of [confirm, reset]) {
      expect(token.length).to.be.at.least(22);
      expect(stored.some((v) => v.includes(token)), 'the token itself is stored').to.equal(false);
      expect(rows.map((r) => r['token_hash'])).to.include(createHash('sha256').update(token).digest('hex'));
    }
  });
});
