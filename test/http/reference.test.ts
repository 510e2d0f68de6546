import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { signedInClient, type Client } from '../support/client.js';

const CODE = /^[0-9A-HJKMNP-TV-Z]{10,}$/;

for (const kind of databaseKinds()) {
  describe(`household reference data over HTTP [${kind.name}]`, function () {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind, { REFERRAL_CODES_PER_HOUSEHOLD: '4' });
    });
    after(async () => server.stop());

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
        const { client: owner } = await signedInClient(server.url);
        const { client: junior } = await signedInClient(server.url);
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
        const { client } = await signedInClient(server.url);
        const h = await householdOf(client, { name: 'Svensson', country: 'SE', timeZoneId: 'Europe/Stockholm' });
        const res = await client.get(`/api/v1/households/${h}/loyalty-programs`);
        expect(res.status).to.equal(404);
        expect(res.json.code).to.equal('loyalty_programs_unavailable');
      });

      it('answers 404 household_not_found to someone who is not a member', async () => {
        const { client: owner } = await signedInClient(server.url);
        const { client: stranger } = await signedInClient(server.url);
        const h = await householdOf(owner);
        const res = await stranger.get(`/api/v1/households/${h}/loyalty-programs`);
        expect(res.status).to.equal(404);
        expect(res.json.code).to.equal('household_not_found');
        expect((await stranger.get(`/api/v1/households/${randomUUID()}/loyalty-programs`)).json.code).to.equal('household_not_found');
      });
    });

    describe('referral codes', () => {
      it('gives a household on the free plan an empty list', async () => {
        const { client } = await signedInClient(server.url);
        const h = await householdOf(client);
        const res = await client.get(`/api/v1/households/${h}/referral-codes`);
        expect(res.status).to.equal(200);
        expect(res.json).to.deep.equal([]);
      });

      it('mints exactly the configured count for a household on Plus, the same codes on every read and for every member', async () => {
        const { client: owner } = await signedInClient(server.url);
        const { client: junior } = await signedInClient(server.url);
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

      it('still holds exactly the count when many reads mint at once', async () => {
        const { client } = await signedInClient(server.url);
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
        const { client: a } = await signedInClient(server.url);
        const { client: b } = await signedInClient(server.url);
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
}
