import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { freshEmail, type Client } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';

const CODE = /^[0-9A-HJKMNP-TV-Z]{10,}$/;

httpSuite('household reference data over HTTP', { env: { REFERRAL_CODES_PER_HOUSEHOLD: '4' } }, (server) => {
  async function householdOf(client: Client, body: Record<string, unknown> = { name: 'Hansen' }): Promise<string> {
    const res = await client.post('/api/v1/households', body);
    expect(res.status, res.text).to.equal(201);
    return res.json.id;
  }
  /** Billing is not built yet: the plan is set where billing will set it. */
  const upgrade = (householdId: string) => server.runtime.db.knex('households').where({ id: householdId }).update({ plan: 'Plus' });
  async function join(householdId: string, who: Client, role: 'Adult' | 'Junior') {
    const me = (await who.get('/api/v1/me')).json;
    await server.runtime.deps.households.addMember(householdId, { id: randomUUID(), displayName: me.user.displayName, role, accountId: me.user.id, createdAt: new Date() });
  }

  describe('loyalty programmes', () => {
    it("lists the programmes of a Norwegian household's country to any member", async () => {
      const { client: owner } = await server.signedIn();
      const { client: junior } = await server.signedIn();
      const h = await householdOf(owner);
      await join(h, junior, 'Junior');
      for (const c of [owner, junior]) {
        const res = await c.get(`/api/v1/households/${h}/loyalty-programs`);
        expect(res.status).to.equal(200);
        expect(res.json).to.deep.equal([
          { id: 'trumf', name: 'Trumf', chains: ['Meny', 'Kiwi', 'Spar', 'Joker'], country: 'NO' },
          { id: 'coop-medlem', name: 'Coop medlem', chains: ['Coop Extra', 'Coop Mega', 'Coop Prix', 'Coop Obs'], country: 'NO' },
          { id: 'ae', name: 'Æ', chains: ['Rema 1000'], country: 'NO' },
        ]);
      }
    });

    it('answers 404 loyalty_programs_unavailable for a country without reference data', async () => {
      const { client } = await server.signedIn();
      const h = await householdOf(client, { name: 'Svensson', country: 'SE', timeZoneId: 'Europe/Stockholm' });
      const res = await client.get(`/api/v1/households/${h}/loyalty-programs`);
      expect(res.status).to.equal(404);
      expect(res.json.code).to.equal('loyalty_programs_unavailable');
    });

    it('answers 404 household_not_found to someone who is not a member', async () => {
      const { client: owner } = await server.signedIn();
      const { client: stranger } = await server.signedIn();
      const h = await householdOf(owner);
      const res = await stranger.get(`/api/v1/households/${h}/loyalty-programs`);
      expect(res.status).to.equal(404);
      expect(res.json.code).to.equal('household_not_found');
      expect((await stranger.get(`/api/v1/households/${randomUUID()}/loyalty-programs`)).json.code).to.equal('household_not_found');
    });
  });

  describe('referral codes', () => {
    it('gives a household on the free plan an empty list', async () => {
      const { client } = await server.signedIn();
      const h = await householdOf(client);
      const res = await client.get(`/api/v1/households/${h}/referral-codes`);
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal([]);
    });

    it('mints exactly the configured count for a household on Plus, the same codes on every read and for every member', async () => {
      const { client: owner } = await server.signedIn();
      const { client: junior } = await server.signedIn();
      const h = await householdOf(owner);
      await join(h, junior, 'Junior');
      await upgrade(h);
      const first = await owner.get(`/api/v1/households/${h}/referral-codes`);
      expect(first.status).to.equal(200);
      expect(first.json).to.have.length(4);
      for (const c of first.json) {
        expect(Object.keys(c).sort()).to.deep.equal(['code', 'createdAt', 'usedAt']);
        expect(c.code).to.match(CODE);
        expect(c.usedAt).to.equal(null);
        expect(new Date(c.createdAt).toISOString()).to.equal(c.createdAt);
      }
      expect(new Set(first.json.map((c: { code: string }) => c.code)).size).to.equal(4);
      expect((await owner.get(`/api/v1/households/${h}/referral-codes`)).json).to.deep.equal(first.json);
      expect((await junior.get(`/api/v1/households/${h}/referral-codes`)).json).to.deep.equal(first.json);
    });

    /** Registers a fresh address with `referralCode` (as given: it may be absent): the answer and the new client. */
    async function registerWith(referralCode: unknown, email = freshEmail('referred')) {
      const client = server.client();
      const body = { email, password: 'correct horse battery', displayName: 'Ny', ...(referralCode === undefined ? {} : { referralCode }) };
      return { res: await client.post('/api/v1/auth/register', body), client };
    }
    async function codesOfPlus() {
      const { client: owner } = await server.signedIn();
      const h = await householdOf(owner);
      await upgrade(h);
      const codes = (await owner.get(`/api/v1/households/${h}/referral-codes`)).json as { code: string; usedAt: string | null }[];
      return { owner, h, codes, list: async () => (await owner.get(`/api/v1/households/${h}/referral-codes`)).json as { code: string; usedAt: string | null }[] };
    }
    const usedBy = async (code: string) => ((await server.runtime.db.knex('referral_codes').where({ code }).first('used_by')) as { used_by: string | null }).used_by;

    it("is spent by the new account that registers with it (case, spaces and hyphens ignored): usedAt in the household's list, the slot refilled", async () => {
      const { codes, list } = await codesOfPlus();
      const code = codes[1]!.code;
      const typed = ` ${code.slice(0, 4).toLowerCase()}-${code.slice(4, 8)} ${code.slice(8)} `;
      const { res, client } = await registerWith(typed);
      expect(res.status, res.text).to.equal(200);
      expect(client.cookie).to.be.a('string');
      const me = (await client.get('/api/v1/me')).json;
      expect(await usedBy(code)).to.equal(me.user.id);
      const after = await list();
      expect(after).to.have.length(5);
      expect(after.find((c) => c.code === code)!.usedAt).to.be.a('string');
      expect(after.filter((c) => c.usedAt === null)).to.have.length(4);
      expect(after.filter((c) => c.code !== code)).to.deep.include.members(codes.filter((c) => c.code !== code));
    });

    it('never fails registration on an unknown or spent code, and a known address spends nothing', async () => {
      const { codes, list } = await codesOfPlus();
      const first = await registerWith(codes[0]!.code);
      expect(first.res.status).to.equal(200);
      const owner = await usedBy(codes[0]!.code);
      // Spent already: the second account is made, the code stays the first one's.
      const second = await registerWith(codes[0]!.code);
      expect([second.res.status, typeof second.client.cookie]).to.deep.equal([200, 'string']);
      expect(await usedBy(codes[0]!.code)).to.equal(owner);
      for (const unknown of ['NOSUCHCODE00', '', '   ', null]) {
        const r = await registerWith(unknown);
        expect([r.res.status, typeof r.client.cookie], String(unknown)).to.deep.equal([200, 'string']);
      }
      // A known address: 200 as always, no new account and no code spent.
      const { email } = await server.signedIn();
      const known = await registerWith(codes[2]!.code, email);
      expect([known.res.status, known.client.cookie]).to.deep.equal([200, undefined]);
      expect(await usedBy(codes[2]!.code)).to.equal(null);
      expect((await list()).filter((c) => c.usedAt !== null).map((c) => c.code)).to.deep.equal([codes[0]!.code]);
    });

    it('refuses a referralCode that is no string (400 validation_failed) or over 64 characters (400 value_too_long), creating no account', async () => {
      const { codes } = await codesOfPlus();
      for (const [referralCode, code] of [
        [42, 'validation_failed'],
        [{ code: codes[0]!.code }, 'validation_failed'],
        ['A'.repeat(65), 'value_too_long'],
      ] as const) {
        const email = freshEmail('refused');
        const { res, client } = await registerWith(referralCode, email);
        expect([res.status, res.json.code], JSON.stringify(referralCode)).to.deep.equal([400, code]);
        expect(client.cookie).to.equal(undefined);
        expect(await server.runtime.db.knex('accounts').where({ email }).first('id')).to.equal(undefined);
      }
      expect(await usedBy(codes[0]!.code)).to.equal(null);
    });

    it('is spent once when several accounts register with it at the same time; every registration succeeds', async () => {
      const { codes, list } = await codesOfPlus();
      const code = codes[3]!.code;
      const all = await Promise.all(Array.from({ length: 6 }, () => registerWith(code)));
      for (const { res, client } of all) expect([res.status, typeof client.cookie]).to.deep.equal([200, 'string']);
      const ids = await Promise.all(all.map(async ({ client }) => (await client.get('/api/v1/me')).json.user.id as string));
      expect(ids).to.include(await usedBy(code));
      expect((await list()).filter((c) => c.usedAt !== null).map((c) => c.code)).to.deep.equal([code]);
    });

    it('still holds exactly the count when many reads mint at once', async () => {
      const { client } = await server.signedIn();
      const h = await householdOf(client);
      await upgrade(h);
      const answers = await Promise.all(Array.from({ length: 8 }, () => client.get(`/api/v1/households/${h}/referral-codes`)));
      const stored = await server.runtime.db.knex('referral_codes').where({ household_id: h }).select('code');
      expect(stored).to.have.length(4);
      const codes = stored.map((r: { code: string }) => r.code).sort();
      for (const a of answers) {
        expect(a.status).to.equal(200);
        expect(a.json.map((c: { code: string }) => c.code).sort()).to.deep.equal(codes);
      }
    });

    it('ties the codes to their household and answers 404 to a non-member', async () => {
      const { client: a } = await server.signedIn();
      const { client: b } = await server.signedIn();
      const ha = await householdOf(a);
      const hb = await householdOf(b);
      await upgrade(ha);
      await upgrade(hb);
      const codesA = (await a.get(`/api/v1/households/${ha}/referral-codes`)).json.map((c: { code: string }) => c.code);
      const codesB = (await b.get(`/api/v1/households/${hb}/referral-codes`)).json.map((c: { code: string }) => c.code);
      expect(codesA.filter((c: string) => codesB.includes(c))).to.deep.equal([]);
      const res = await b.get(`/api/v1/households/${ha}/referral-codes`);
      expect(res.status).to.equal(404);
      expect(res.json.code).to.equal('household_not_found');
    });
  });
});
