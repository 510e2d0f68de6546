import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  ACCESS_TOKEN_DAYS,
  ACCESS_TOKENS_MAX_LIVE,
  accessTokenCaller,
  accessTokensOf,
  bearerCredentials,
  createAccessToken,
  revokeAccessToken,
  tokenMayWrite,
} from '../../core/households/access-tokens.js';
import { createHousehold } from '../../core/households/households.js';
import { acceptInvite, createInvite } from '../../core/households/invites.js';
import { removeMember } from '../../core/households/members.js';
import { error, householdAt, person, value } from './support.js';

const DAY = 24 * 60 * 60 * 1000;

async function setUp() {
  const { deps, clock, owner, h } = await householdAt('2026-05-04T09:00:00.000Z');
  const make = (over: Partial<Parameters<typeof createAccessToken>[2]> = {}) => createAccessToken(deps, owner, { name: ' Kjøkkenskjermen ', householdId: h.id, scope: 'read', ...over });
  return { deps, clock, owner, h, make };
}

describe('personal access tokens', () => {
  it('makes a dp_pat_ secret shown once and keeps only its SHA-256, for 90 days unless said', async () => {
    const { deps, owner, h, make } = await setUp();
    const made = value(await make());
    expect(made.secret).to.match(/^dp_pat_[A-Za-z0-9_-]{43}$/);
    expect(made.token).to.include({ name: 'Kjøkkenskjermen', householdId: h.id, householdName: 'Hjem', scope: 'read', member: true, lastUsedAt: null });
    expect(made.token.expiresAt.getTime() - made.token.createdAt.getTime()).to.equal(ACCESS_TOKEN_DAYS.default * DAY);
    expect(made.token).to.not.have.property('tokenHash');
    const found = await deps.accessTokens.lookup(createHash('sha256').update(made.secret).digest('hex'));
    expect(found?.token.id).to.equal(made.token.id);
    const listed = await accessTokensOf(deps, owner);
    expect(listed.map((t) => t.id)).to.deep.equal([made.token.id]);
    expect(JSON.stringify(listed)).to.not.include(made.secret.slice(7));
    const week = value(await make({ expiresInDays: 7 }));
    expect(week.token.expiresAt.getTime() - week.token.createdAt.getTime()).to.equal(7 * DAY);
  });

  it('answers household-not-found for a household the person is not a member of', async () => {
    const { deps, make } = await setUp();
    const other = person('annen');
    await deps.accounts.create(other);
    const theirs = value(await createHousehold(deps, other, { name: 'Deres', timeZoneId: 'Europe/Oslo' }));
    expect(error(await make({ householdId: theirs.id }))).to.equal('household-not-found');
    expect(error(await make({ householdId: '00000000-0000-4000-8000-000000000000' }))).to.equal('household-not-found');
  });

  it('holds an account to its live tokens; an expired one frees its place', async () => {
    const { clock, make } = await setUp();
    value(await make({ expiresInDays: 1 }));
    for (let i = 1; i < ACCESS_TOKENS_MAX_LIVE; i++) value(await make());
    const refused = await make();
    expect(refused.ok ? null : refused.error).to.deep.equal({ type: 'access-token-limit', max: ACCESS_TOKENS_MAX_LIVE });
    clock.set(new Date(clock.now().getTime() + DAY));
    expect(error(await make())).to.equal('ok');
  });

  it("tells the token's person, household and scope from the Authorization header, and why not", async () => {
    const { deps, clock, owner, h, make } = await setUp();
    const made = value(await make({ scope: 'read-write' }));
    const caller = value(await accessTokenCaller(deps, `Bearer ${made.secret}`));
    expect(caller.account.id).to.equal(owner.id);
    expect(caller.token).to.include({ householdId: h.id, scope: 'read-write' });
    expect(tokenMayWrite(caller.token)).to.equal(true);
    expect(value(await accessTokenCaller(deps, `bearer  ${made.secret}`)).token.id, 'the scheme in any case').to.equal(made.token.id);
    expect(error(await accessTokenCaller(deps, undefined))).to.equal('token-missing');
    expect(error(await accessTokenCaller(deps, `Basic ${made.secret}`))).to.equal('token-missing');
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret}x`))).to.equal('token-invalid');
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret.slice(7)}`)), 'without its prefix').to.equal('token-invalid');
    expect(error(await accessTokenCaller(deps, 'Bearer dp_pat_short'))).to.equal('token-invalid');
    clock.set(made.token.expiresAt);
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret}`))).to.equal('token-expired');
  });

  it('fails once revoked, and revokes only the caller\'s own', async () => {
    const { deps, owner, make } = await setUp();
    const made = value(await make());
    const other = person('annen');
    await deps.accounts.create(other);
    expect(error(await revokeAccessToken(deps, other, made.token.id))).to.equal('access-token-not-found');
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret}`))).to.equal('ok');
    expect(error(await revokeAccessToken(deps, owner, made.token.id))).to.equal('ok');
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret}`))).to.equal('token-invalid');
    expect(error(await revokeAccessToken(deps, owner, made.token.id))).to.equal('access-token-not-found');
  });

  it('stops working when its person leaves the household', async () => {
    const { deps, owner, h } = await setUp();
    const kari = person('kari');
    await deps.accounts.create(kari);
    const invite = value(await createInvite(deps, owner, h.id, { role: 'Adult' }));
    const joined = value(await acceptInvite(deps, kari, { code: invite.code }));
    const made = value(await createAccessToken(deps, kari, { name: 'Kari', householdId: h.id, scope: 'read' }));
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret}`))).to.equal('ok');
    value(await removeMember(deps, owner, h.id, joined.memberId));
    expect(error(await accessTokenCaller(deps, `Bearer ${made.secret}`))).to.equal('token-invalid');
    expect((await accessTokensOf(deps, kari)).map((t) => t.member)).to.deep.equal([false]);
  });

  it('notes its last use at most once a minute', async () => {
    const { deps, clock, owner, make } = await setUp();
    const made = value(await make());
    const lastUse = async () => (await accessTokensOf(deps, owner))[0]!.lastUsedAt?.toISOString() ?? null;
    const start = clock.now().getTime();
    await accessTokenCaller(deps, `Bearer ${made.secret}`);
    expect(await lastUse()).to.equal(new Date(start).toISOString());
    clock.set(new Date(start + 59_000));
    await accessTokenCaller(deps, `Bearer ${made.secret}`);
    expect(await lastUse()).to.equal(new Date(start).toISOString());
    clock.set(new Date(start + 60_000));
    await accessTokenCaller(deps, `Bearer ${made.secret}`);
    expect(await lastUse()).to.equal(new Date(start + 60_000).toISOString());
  });

  it('reads Bearer credentials only from the Bearer scheme', () => {
    expect(bearerCredentials('Bearer abc')).to.equal('abc');
    expect(bearerCredentials('BEARER abc ')).to.equal('abc');
    expect(bearerCredentials('Bearer')).to.equal(null);
    expect(bearerCredentials('Bearer a b')).to.equal(null);
    expect(bearerCredentials('Token abc')).to.equal(null);
    expect(bearerCredentials('')).to.equal(null);
    expect(tokenMayWrite({ scope: 'read' })).to.equal(false);
  });
});
