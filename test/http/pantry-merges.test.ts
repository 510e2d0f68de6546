import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectStatus, httpSuite } from '../support/http-suite.js';
import { oneBought } from '../support/pantry.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const LATER = new Date('2026-05-05T09:00:00.000Z');

httpSuite('pantry merges and unit weights (Merge, UnitWeight)', { now: NOW }, (server) => {
  const { clock } = server;

  async function household() {
    const h = await server.household();
    const inv = `${h.base}/inventory`;
    const join = async (role: 'Adult' | 'Junior') => (await h.join(role)).client;
    const buy = async (displayName: string) => {
      const res = await h.owner.post(`${inv}/observations`, oneBought(displayName));
      expect(res.status, res.text).to.equal(200);
      return res.json.item;
    };
    const stranger = (await server.signedIn('Stranger')).client;
    return { owner: h.owner, inv, join, buy, stranger };
  }

  describe('GET merge-suggestions', () => {
    it('answers up to three pairs of rows in the documented order, for any member', async () => {
      const h = await household();
      for (const name of ['Tomater', 'Hakkede tomater', 'Cherrytomater', 'Ris', 'Basmatiris', 'Tomatsaus']) await h.buy(name);
      const junior = await h.join('Junior');
      const res = await junior.get(`${h.inv}/merge-suggestions`);
      expectStatus(res, 200);
      expect(res.json.map((s: { from: { foodKey: string }; to: { foodKey: string }; signal: string }) => [s.from.foodKey, s.to.foodKey, s.signal])).to.deep.equal([
        ['basmatiris', 'ris', 'ContainedTokens'],
        ['cherrytomat', 'tomat', 'ContainedTokens'],
        ['hakkede-tomat', 'tomat', 'ContainedTokens'],
      ]);
      expect(Object.keys(res.json[0]).sort()).to.deep.equal(['from', 'signal', 'to']);
      expect(res.json[0].from).to.include({ foodKey: 'basmatiris', displayName: 'Basmatiris', estimatedQuantity: 1, unit: 'stk', storageLocation: 'Pantry' });
    });

    it('leaves out rejected and merged pairs', async () => {
      const h = await household();
      for (const name of ['Tomater', 'Hakkede tomater', 'Cherrytomater']) await h.buy(name);
      expectStatus(await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'tomat', keyB: 'hakkede-tomat' }), 204);
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'cherrytomat', toKey: 'tomat', source: 'Suggestion' }), 200);
      const res = await h.owner.get(`${h.inv}/merge-suggestions`);
      expectStatus(res, 200);
      expect(res.json).to.deep.equal([]);
    });

    it('is 404 household_not_found for a non-member', async () => {
      const h = await household();
      expectStatus(await h.stranger.get(`${h.inv}/merge-suggestions`), 404, 'household_not_found');
    });
  });

  describe('POST merges', () => {
    it('merges normalized keys and answers the surviving row', async () => {
      const h = await household();
      await h.buy('Cherrytomater');
      await h.buy('Tomat');
      const res = await h.owner.post(`${h.inv}/merges`, { fromKey: 'Cherrytomater', toKey: 'Tomater', source: 'Manual' });
      expectStatus(res, 200);
      expect(Object.keys(res.json).sort()).to.deep.equal(['fromKey', 'item', 'toKey']);
      expect([res.json.fromKey, res.json.toKey]).to.deep.equal(['cherrytomat', 'tomat']);
      expect(res.json.item).to.include({ foodKey: 'tomat', displayName: 'Tomat', estimatedQuantity: 2 });
      const again = await h.owner.post(`${h.inv}/merges`, { fromKey: 'cherrytomat', toKey: 'tomat', source: 'Suggestion' });
      expectStatus(again, 200);
      expect(again.json).to.deep.equal(res.json);
      const list = await h.owner.get(`${h.inv}/merges`);
      expect(list.json).to.deep.equal({
        items: [{ fromKey: 'cherrytomat', fromDisplayName: 'Cherrytomater', toKey: 'tomat', toDisplayName: 'Tomat', mergedAt: NOW.toISOString() }],
        nextCursor: null,
        total: 1,
      });
    });

    it('is 400 same_food, 409 mutual_merge, 404 pantry_food_not_found, 400 on a blank key', async () => {
      const h = await household();
      await h.buy('Cherrytomater');
      await h.buy('Tomat');
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'Tomater', toKey: 'tomat', source: 'Manual' }), 400, 'same_food');
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: '--', toKey: 'tomat', source: 'Manual' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'tomat' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'agurk', toKey: 'slangeagurk', source: 'Manual' }), 404, 'pantry_food_not_found');
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'cherrytomat', toKey: 'tomat', source: 'Manual' }), 200);
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'tomat', toKey: 'cherrytomat', source: 'Manual' }), 409, 'mutual_merge');
    });

    it('resolves chains to the last key (A→B then B→C: A→C)', async () => {
      const h = await household();
      for (const name of ['eple', 'pære', 'plomme']) await h.buy(name);
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'eple', toKey: 'pære', source: 'Manual' }), 200);
      const res = await h.owner.post(`${h.inv}/merges`, { fromKey: 'pære', toKey: 'plomme', source: 'Manual' });
      expectStatus(res, 200);
      expect(res.json.item).to.include({ foodKey: 'plomme', estimatedQuantity: 3 });
      const list = (await h.owner.get(`${h.inv}/merges`)).json;
      expect(list.items.map((m: { fromKey: string; toKey: string }) => `${m.fromKey}→${m.toKey}`)).to.deep.equal(['eple→plomme', 'pære→plomme']);
    });

    it('overrides a stored rejection of the pair', async () => {
      const h = await household();
      await h.buy('Cherrytomater');
      await h.buy('Tomat');
      expectStatus(await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'tomat', keyB: 'cherrytomat' }), 204);
      expectStatus(await h.owner.post(`${h.inv}/merges`, { fromKey: 'cherrytomat', toKey: 'tomat', source: 'Manual' }), 200);
      expect((await h.owner.get(`${h.inv}/merge-rejections`)).json).to.deep.equal({ items: [], nextCursor: null, total: 0 });
    });

    it('is 403 adults_only for a Junior and 404 household_not_found for a non-member', async () => {
      const h = await household();
      await h.buy('Cherrytomater');
      await h.buy('Tomat');
      const junior = await h.join('Junior');
      const body = { fromKey: 'cherrytomat', toKey: 'tomat', source: 'Manual' };
      expectStatus(await junior.post(`${h.inv}/merges`, body), 403, 'adults_only');
      expectStatus(await h.stranger.post(`${h.inv}/merges`, body), 404, 'household_not_found');
      const adult = await h.join('Adult');
      expectStatus(await adult.post(`${h.inv}/merges`, body), 200);
    });
  });

  describe('GET merges', () => {
    it('pages by toKey, then newest first, with a sealed cursor and total', async () => {
      const h = await household();
      for (const name of ['a', 'b', 'c', 'x', 'y']) await h.buy(`food ${name}`);
      await h.owner.post(`${h.inv}/merges`, { fromKey: 'food a', toKey: 'food y', source: 'Manual' });
      clock.set(LATER);
      await h.owner.post(`${h.inv}/merges`, { fromKey: 'food b', toKey: 'food y', source: 'Manual' });
      await h.owner.post(`${h.inv}/merges`, { fromKey: 'food c', toKey: 'food x', source: 'Manual' });
      const junior = await h.join('Junior');
      const first = await junior.get(`${h.inv}/merges?limit=2`);
      expectStatus(first, 200);
      expect(first.json.total).to.equal(3);
      const second = await junior.get(`${h.inv}/merges?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`);
      expectStatus(second, 200);
      expect(second.json.nextCursor).to.equal(null);
      expect([...first.json.items, ...second.json.items].map((m: { fromKey: string; mergedAt: string }) => [m.fromKey, m.mergedAt])).to.deep.equal([
        ['food-c', LATER.toISOString()],
        ['food-b', LATER.toISOString()],
        ['food-a', NOW.toISOString()],
      ]);
    });

    it('is 400 on a limit out of range or a foreign cursor, 404 for a non-member', async () => {
      const h = await household();
      for (const name of ['a', 'b', 'c']) await h.buy(`food ${name}`);
      await h.owner.post(`${h.inv}/merges`, { fromKey: 'food a', toKey: 'food c', source: 'Manual' });
      await h.owner.post(`${h.inv}/merges`, { fromKey: 'food b', toKey: 'food c', source: 'Manual' });
      for (const limit of ['0', '101', 'x']) expectStatus(await h.owner.get(`${h.inv}/merges?limit=${limit}`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}/merges?limit=100`), 200);
      const cursor = (await h.owner.get(`${h.inv}/merges?limit=1`)).json.nextCursor;
      expectStatus(await h.owner.get(`${h.inv}/merge-rejections?cursor=${encodeURIComponent(cursor)}`), 400, 'validation_failed');
      const other = await household();
      const foreign = await other.owner.get(`${other.inv}/merges?cursor=${encodeURIComponent(cursor)}`);
      expectStatus(foreign, 400, 'validation_failed');
      expect(foreign.json.detail).to.equal('the cursor was not handed out by this list for this household; start again without one');
      expectStatus(await h.owner.get(`${h.inv}/merges?cursor=not-a-cursor`), 400, 'validation_failed');
      expectStatus(await h.stranger.get(`${h.inv}/merges`), 404, 'household_not_found');
    });
  });

  describe('DELETE merges/{fromKey}', () => {
    it('splits, remembers the pair as different, and is 404 merge_not_found after', async () => {
      const h = await household();
      await h.buy('Hakkede tomater');
      await h.buy('Tomat');
      await h.owner.post(`${h.inv}/merges`, { fromKey: 'hakkede-tomat', toKey: 'tomat', source: 'Suggestion' });
      const junior = await h.join('Junior');
      expectStatus(await junior.delete(`${h.inv}/merges/hakkede-tomat`), 403, 'adults_only');
      expectStatus(await h.stranger.delete(`${h.inv}/merges/hakkede-tomat`), 404, 'household_not_found');
      clock.set(LATER);
      expectStatus(await h.owner.delete(`${h.inv}/merges/${encodeURIComponent('Hakkede tomater')}`), 204);
      expectStatus(await h.owner.delete(`${h.inv}/merges/hakkede-tomat`), 404, 'merge_not_found');
      expect((await h.owner.get(`${h.inv}/merges`)).json.total).to.equal(0);
      expect((await h.owner.get(`${h.inv}/merge-rejections`)).json.items).to.deep.equal([
        { keyA: 'hakkede-tomat', keyADisplayName: 'Hakkede tomater', keyB: 'tomat', keyBDisplayName: 'Tomat', decidedAt: LATER.toISOString() },
      ]);
      expect((await h.owner.get(`${h.inv}/merge-suggestions`)).json).to.deep.equal([]);
      expectStatus(await h.owner.delete(`${h.inv}/merges/${'x'.repeat(201)}`), 400, 'value_too_long');
    });
  });

  describe('merge-rejections', () => {
    it('stores an unordered pair once, newest first, and pages with a cursor', async () => {
      const h = await household();
      await h.buy('Tomat');
      expectStatus(await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'tomat', keyB: 'Cherrytomater' }), 204);
      clock.set(LATER);
      expectStatus(await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'cherrytomat', keyB: 'tomat' }), 204);
      expectStatus(await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'agurk', keyB: 'slangeagurk' }), 204);
      const junior = await h.join('Junior');
      const first = await junior.get(`${h.inv}/merge-rejections?limit=1`);
      expectStatus(first, 200);
      expect(first.json.total).to.equal(2);
      const second = await junior.get(`${h.inv}/merge-rejections?limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`);
      expect([...first.json.items, ...second.json.items]).to.deep.equal([
        { keyA: 'agurk', keyADisplayName: 'agurk', keyB: 'slangeagurk', keyBDisplayName: 'slangeagurk', decidedAt: LATER.toISOString() },
        { keyA: 'cherrytomat', keyADisplayName: 'Cherrytomater', keyB: 'tomat', keyBDisplayName: 'Tomat', decidedAt: NOW.toISOString() },
      ]);
      expect(second.json.nextCursor).to.equal(null);
    });

    it('answers 400 on a bad limit, cursor or same food, 403 for a Junior, 404 for a non-member', async () => {
      const h = await household();
      const junior = await h.join('Junior');
      expectStatus(await h.owner.get(`${h.inv}/merge-rejections?limit=0`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}/merge-rejections?limit=101`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}/merge-rejections?cursor=abc`), 400, 'validation_failed');
      expectStatus(await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'Tomater', keyB: 'tomat' }), 400, 'same_food');
      expectStatus(await junior.post(`${h.inv}/merge-rejections`, { keyA: 'a', keyB: 'b' }), 403, 'adults_only');
      expectStatus(await h.stranger.get(`${h.inv}/merge-rejections`), 404, 'household_not_found');
      expectStatus(await h.stranger.post(`${h.inv}/merge-rejections`, { keyA: 'a', keyB: 'b' }), 404, 'household_not_found');
    });

    it('DELETE sorts the keys, makes the pair suggestible again, and is 404 merge_rejection_not_found when none', async () => {
      const h = await household();
      await h.buy('Tomat');
      await h.buy('Cherrytomater');
      await h.owner.post(`${h.inv}/merge-rejections`, { keyA: 'tomat', keyB: 'cherrytomat' });
      expect((await h.owner.get(`${h.inv}/merge-suggestions`)).json).to.deep.equal([]);
      const junior = await h.join('Junior');
      expectStatus(await junior.delete(`${h.inv}/merge-rejections/tomat/cherrytomat`), 403, 'adults_only');
      expectStatus(await h.stranger.delete(`${h.inv}/merge-rejections/tomat/cherrytomat`), 404, 'household_not_found');
      expectStatus(await h.owner.delete(`${h.inv}/merge-rejections/tomat/cherrytomat`), 204);
      expectStatus(await h.owner.delete(`${h.inv}/merge-rejections/cherrytomat/tomat`), 404, 'merge_rejection_not_found');
      expect((await h.owner.get(`${h.inv}/merge-suggestions`)).json).to.have.length(1);
    });
  });

  describe('unit weights', () => {
    it('PUT upserts one weight per food and unit; GET lists and narrows; any member reads', async () => {
      const h = await household();
      await h.buy('Løk');
      const first = await h.owner.put(`${h.inv}/unit-weights/${encodeURIComponent('Løker')}/Stk`, { grams: 100 });
      expectStatus(first, 200);
      expect(first.json).to.deep.equal({ foodKey: 'løk', unit: 'stk', displayName: 'Løk', grams: 100, updatedAt: NOW.toISOString() });
      clock.set(LATER);
      const second = await h.owner.put(`${h.inv}/unit-weights/${encodeURIComponent('løk')}/stk`, { grams: 112.5 });
      expect(second.json).to.deep.equal({ foodKey: 'løk', unit: 'stk', displayName: 'Løk', grams: 112.5, updatedAt: LATER.toISOString() });
      await h.owner.put(`${h.inv}/unit-weights/tomat/boks`, { grams: 400 });
      const junior = await h.join('Junior');
      const all = await junior.get(`${h.inv}/unit-weights`);
      expectStatus(all, 200);
      expect(all.json.map((w: { foodKey: string; unit: string; grams: number }) => [w.foodKey, w.unit, w.grams])).to.deep.equal([
        ['løk', 'stk', 112.5],
        ['tomat', 'boks', 400],
      ]);
      const one = await junior.get(`${h.inv}/unit-weights?foodKey=Tomater`);
      expect(one.json.map((w: { foodKey: string }) => w.foodKey)).to.deep.equal(['tomat']);
    });

    it('keeps one row when the same PUT is sent several times at once', async () => {
      const h = await household();
      const answers = await Promise.all([1, 2, 3, 4].map(() => h.owner.put(`${h.inv}/unit-weights/løk/stk`, { grams: 110 })));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
      expect((await h.owner.get(`${h.inv}/unit-weights`)).json).to.deep.equal([{ foodKey: 'løk', unit: 'stk', displayName: 'løk', grams: 110, updatedAt: NOW.toISOString() }]);
    });

    it('is 400 for grams out of (0, 10000], and accepts exactly 10000', async () => {
      const h = await household();
      for (const grams of [0, -5, 10000.01, '100', null]) expectStatus(await h.owner.put(`${h.inv}/unit-weights/løk/stk`, { grams }), 400, 'validation_failed');
      expectStatus(await h.owner.put(`${h.inv}/unit-weights/løk/stk`, { grams: 10000 }), 200);
      expectStatus(await h.owner.put(`${h.inv}/unit-weights/${encodeURIComponent('!!')}/stk`, { grams: 1 }), 400, 'validation_failed');
    });

    it('DELETE removes, then 404 unit_weight_not_found; writes are adults-only; non-members get 404', async () => {
      const h = await household();
      await h.owner.put(`${h.inv}/unit-weights/løk/stk`, { grams: 110 });
      const junior = await h.join('Junior');
      expectStatus(await junior.put(`${h.inv}/unit-weights/løk/stk`, { grams: 120 }), 403, 'adults_only');
      expectStatus(await junior.delete(`${h.inv}/unit-weights/løk/stk`), 403, 'adults_only');
      expectStatus(await h.stranger.get(`${h.inv}/unit-weights`), 404, 'household_not_found');
      expectStatus(await h.stranger.put(`${h.inv}/unit-weights/løk/stk`, { grams: 120 }), 404, 'household_not_found');
      expectStatus(await h.stranger.delete(`${h.inv}/unit-weights/løk/stk`), 404, 'household_not_found');
      expectStatus(await h.owner.delete(`${h.inv}/unit-weights/${encodeURIComponent('Løker')}/STK`), 204);
      expectStatus(await h.owner.delete(`${h.inv}/unit-weights/løk/stk`), 404, 'unit_weight_not_found');
      expect((await h.owner.get(`${h.inv}/unit-weights`)).json).to.deep.equal([]);
    });

    it('is 404 household_not_found for an unknown household id', async () => {
      const h = await household();
      expectStatus(await h.owner.get(`/api/v1/households/${randomUUID()}/inventory/unit-weights`), 404, 'household_not_found');
    });
  });
});
