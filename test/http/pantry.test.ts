import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { expectStatus, httpSuite } from '../support/http-suite.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const DAY = 86_400_000;

httpSuite('pantry observations and inventory', { now: NOW }, (server) => {
  const { clock } = server;

  async function household() {
    const h = await server.household();
    return { owner: h.owner, base: h.base, inv: `${h.base}/inventory`, obs: `${h.base}/inventory/observations`, join: async (role: 'Adult' | 'Junior') => (await h.join(role)).client };
  }
  const add = async (c: Client, path: string, body: Record<string, unknown>) => {
    const res = await c.post(path, body);
    expectStatus(res, 200);
    return res.json as { observationId: string; item: Record<string, unknown> };
  };
  const list = async (c: Client, inv: string, query = '') => {
    const res = await c.get(`${inv}${query}`);
    expectStatus(res, 200);
    return res.json as { items: { foodKey: string; group: string; [k: string]: unknown }[]; nextCursor: string | null; total: number };
  };

  describe('POST observations', () => {
    it('normalizes the key and answers the row after the observation, with its fields and group', async () => {
      const h = await household();
      const res = await add(h.owner, h.obs, { foodKey: '  Kyllingfileter ', displayName: 'Kyllingfilet', observationType: 'Purchased', quantity: 400, unit: 'g', storageLocation: 'Fridge' });
      expect(res.observationId).to.match(/^[0-9a-f-]{36}$/);
      expect(res.item).to.deep.equal({
        foodKey: 'kyllingfilet',
        displayName: 'Kyllingfilet',
        estimatedQuantity: 400,
        unit: 'g',
        confidence: 1,
        storageLocation: 'Fridge',
        usePriority: 'Normal',
        lastEvidenceAt: NOW.toISOString(),
        aisle: 'Meat',
        asksForDate: true,
        lastEvidenceKind: 'Purchased',
        group: 'LikelyAvailable',
        bestBefore: null,
      });
      // The key comes from displayName when foodKey is left out; property names match in any case.
      const more = await add(h.owner, h.obs, { DisplayName: 'kyllingfilet', ObservationType: 'Used', Quantity: 150 });
      expect(more.item).to.deep.include({ foodKey: 'kyllingfilet', estimatedQuantity: 250, lastEvidenceKind: 'Used', unit: 'g' });
    });

    it('answers an empty row after Gone', async () => {
      const h = await household();
      await add(h.owner, h.obs, { displayName: 'Melk', observationType: 'Purchased', quantity: 2, unit: 'l', storageLocation: 'Fridge' });
      const gone = await add(h.owner, h.obs, { foodKey: 'melk', observationType: 'Gone' });
      expect(gone.item).to.deep.include({ foodKey: 'melk', displayName: 'Melk', estimatedQuantity: 0, usePriority: 'Low', group: 'Aged', asksForDate: false, lastEvidenceKind: 'Gone' });
    });

    it('takes bestBefore: the row stops asking for a date, keeps it until emptied, is UseSoon two days before and ages past it', async () => {
      const h = await household();
      const meat = { foodKey: 'kjøttdeig', displayName: 'Kjøttdeig', storageLocation: 'Fridge' };
      expect((await add(h.owner, h.obs, { ...meat, observationType: 'Purchased', quantity: 400, unit: 'g' })).item).to.deep.include({ asksForDate: true, bestBefore: null });
      const dated = await add(h.owner, h.obs, { ...meat, observationType: 'Seen', bestBefore: '2026-05-09' });
      expect(dated.item).to.deep.include({ asksForDate: false, bestBefore: '2026-05-09', usePriority: 'Normal', group: 'LikelyAvailable' });
      // The pantry's lists and triage follow it: nothing of this row is asked for any more.
      const listed = (await list(h.owner, h.inv)).items.find((i) => i.foodKey === 'kjøttdeig')!;
      expect(listed).to.deep.include({ asksForDate: false, bestBefore: '2026-05-09' });
      expect((await h.owner.get(`${h.inv}/summary`)).json.triage).to.equal(0);
      // Two days before the 9th ends: use soon. Three days after: confidence has halved three times on top.
      clock.set(new Date('2026-05-08T08:00:00.000Z'));
      expect((await list(h.owner, h.inv)).items.find((i) => i.foodKey === 'kjøttdeig')).to.deep.include({ usePriority: 'High' });
      clock.set(new Date('2026-05-13T00:00:00.000Z'));
      expect((await list(h.owner, h.inv, '?group=Aged')).items.map((i) => i.foodKey)).to.include('kjøttdeig');
      clock.set(NOW);
      // Emptied, the row forgets the date; new stock asks again.
      expect((await add(h.owner, h.obs, { foodKey: 'kjøttdeig', observationType: 'Gone' })).item).to.deep.include({ bestBefore: null, asksForDate: false });
      expect((await add(h.owner, h.obs, { ...meat, observationType: 'Purchased', quantity: 400, unit: 'g' })).item).to.deep.include({ bestBefore: null, asksForDate: true });
    });

    it('refuses a bestBefore that is no date, changing nothing', async () => {
      const h = await household();
      for (const bestBefore of ['2026-13-01', '2026-02-30', 'tomorrow', '2026-5-9', 20260509, true]) {
        expectStatus(await h.owner.post(h.obs, { foodKey: 'melk', observationType: 'Purchased', bestBefore }), 400, 'validation_failed');
      }
      // A date-time is longer than any date.
      expectStatus(await h.owner.post(h.obs, { foodKey: 'melk', observationType: 'Purchased', bestBefore: '2026-05-09T00:00:00Z' }), 400, 'value_too_long');
      expect((await list(h.owner, h.inv)).total).to.equal(0);
      expect((await add(h.owner, h.obs, { foodKey: 'melk', observationType: 'Purchased', bestBefore: null })).item).to.deep.include({ bestBefore: null, asksForDate: true });
    });

    it('refuses an empty key, a missing type and values out of bounds', async () => {
      const h = await household();
      const ok = { foodKey: 'ris', observationType: 'Purchased' };
      expectStatus(await h.owner.post(h.obs, { foodKey: ' -!- ', observationType: 'Purchased' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { observationType: 'Purchased' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { foodKey: 'ris' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, observationType: 'Eaten' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, quantity: -1 }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, quantity: 100001 }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, confidence: 1.01 }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, storageLocation: 'Cellar' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, unit: '' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.obs, { ...ok, unit: 'x'.repeat(33) }), 400, 'value_too_long');
      expectStatus(await h.owner.post(h.obs, { ...ok, displayName: 'x'.repeat(201) }), 400, 'value_too_long');
      const edge = await add(h.owner, h.obs, { ...ok, quantity: 100000, confidence: 0, unit: 'x'.repeat(32), displayName: 'x'.repeat(200) });
      expect(edge.item).to.deep.include({ estimatedQuantity: 100000, confidence: 0, group: 'Aged' });
      expect((await list(h.owner, h.inv, '?group=Aged')).total).to.equal(1);
    });

    it('is open to any member, a Junior included, and answers 404 to anyone else', async () => {
      const h = await household();
      const junior = await h.join('Junior');
      await add(junior, h.obs, { foodKey: 'is', observationType: 'Seen', storageLocation: 'Freezer' });
      const stranger = (await server.signedIn('Stranger')).client;
      expectStatus(await stranger.post(h.obs, { foodKey: 'is', observationType: 'Seen' }), 404, 'household_not_found');
      expectStatus(await stranger.get(h.inv), 404, 'household_not_found');
      expectStatus(await stranger.get(`${h.inv}/summary`), 404, 'household_not_found');
    });
  });

  describe('DELETE observations', () => {
    it('taking back an observation returns the row to exactly its earlier state; a stale id is 404 observation_not_found', async () => {
      const h = await household();
      await add(h.owner, h.obs, { displayName: 'Ost', observationType: 'Purchased', quantity: 1, unit: 'stk', storageLocation: 'Fridge' });
      clock.advance(3 * DAY);
      const before = await list(h.owner, h.inv);
      const used = await add(h.owner, h.obs, { foodKey: 'ost', observationType: 'Used', quantity: 1, storageLocation: 'Pantry' });
      expect(used.item).to.deep.include({ estimatedQuantity: 0, group: 'Aged' });
      expectStatus(await h.owner.delete(`${h.obs}/${used.observationId}`), 204);
      expect(await list(h.owner, h.inv)).to.deep.equal(before);
      expect(before.items[0]).to.deep.include({ foodKey: 'ost', group: 'UseSoon', storageLocation: 'Fridge', lastEvidenceAt: NOW.toISOString() });
      expectStatus(await h.owner.delete(`${h.obs}/${used.observationId}`), 404, 'observation_not_found');
      expectStatus(await h.owner.delete(`${h.obs}/${randomUUID()}`), 404, 'observation_not_found');
      expectStatus(await h.owner.delete(`${h.obs}/not-a-uuid`), 400, 'validation_failed');
    });

    it("another household's observation is not found, and stays", async () => {
      const a = await household();
      const b = await household();
      const theirs = await add(b.owner, b.obs, { foodKey: 'egg', observationType: 'Purchased' });
      expectStatus(await a.owner.delete(`${a.obs}/${theirs.observationId}`), 404, 'observation_not_found');
      expect((await list(b.owner, b.inv)).total).to.equal(1);
    });

    it('clearing is for adults; with location it takes every observation of the foods now in that place', async () => {
      const h = await household();
      const junior = await h.join('Junior');
      const adult = await h.join('Adult');
      await add(h.owner, h.obs, { foodKey: 'melk', observationType: 'Purchased', storageLocation: 'Pantry' });
      await add(h.owner, h.obs, { foodKey: 'melk', observationType: 'Seen', storageLocation: 'Fridge' });
      await add(h.owner, h.obs, { foodKey: 'ost', observationType: 'Purchased', storageLocation: 'Fridge' });
      await add(h.owner, h.obs, { foodKey: 'ost', observationType: 'Gone' });
      await add(h.owner, h.obs, { foodKey: 'ris', observationType: 'Purchased', storageLocation: 'Pantry' });
      await add(h.owner, h.obs, { foodKey: 'erter', observationType: 'Purchased', storageLocation: 'Freezer' });
      expectStatus(await junior.delete(h.obs), 403, 'adults_only');
      expectStatus(await junior.delete(`${h.obs}?location=Fridge`), 403, 'adults_only');
      expectStatus(await adult.delete(`${h.obs}?location=Cellar`), 400, 'validation_failed');
      const fridge = await adult.delete(`${h.obs}?location=Fridge`);
      expectStatus(fridge, 200);
      // melk (both, the Pantry one included: the row is in the Fridge now) and ost (empty, still in the Fridge).
      expect(fridge.json).to.deep.equal({ removedObservations: 4 });
      expect((await list(h.owner, h.inv)).items.map((r) => r.foodKey)).to.deep.equal(['ris', 'ert']);
      expect((await adult.delete(`${h.obs}?location=Fridge`)).json).to.deep.equal({ removedObservations: 0 });
      const all = await h.owner.delete(h.obs);
      expect(all.json).to.deep.equal({ removedObservations: 2 });
      expect(await list(h.owner, h.inv)).to.deep.equal({ items: [], nextCursor: null, total: 0 });
    });
  });

  describe('GET inventory and summary', () => {
    async function stocked() {
      const h = await household();
      // Fridge, 3 days old: UseSoon. Pantry: LikelyAvailable. Estimated at 0.3: Uncertain. Gone: Aged.
      await add(h.owner, h.obs, { displayName: 'Yoghurt', observationType: 'Purchased', storageLocation: 'Fridge' });
      clock.advance(3 * DAY);
      for (const name of ['Basmatiris', 'Pasta', 'Havregryn', 'Salt']) await add(h.owner, h.obs, { displayName: name, observationType: 'Purchased', storageLocation: 'Pantry' });
      await add(h.owner, h.obs, { displayName: 'Erter', observationType: 'Purchased', storageLocation: 'Freezer' });
      await add(h.owner, h.obs, { displayName: 'Cherrytomater', observationType: 'Estimated', confidence: 0.3, storageLocation: 'Fridge' });
      await add(h.owner, h.obs, { displayName: 'Smør', observationType: 'Gone', storageLocation: 'Fridge' });
      return h;
    }

    it('lists the live sections in order, pages with a sealed cursor and counts every match', async () => {
      const h = await stocked();
      const all = await list(h.owner, h.inv);
      expect(all.items.map((r) => [r.group, r.foodKey])).to.deep.equal([
        ['UseSoon', 'yoghurt'],
        ['LikelyAvailable', 'basmatiris'],
        ['LikelyAvailable', 'havregryn'],
        ['LikelyAvailable', 'pasta'],
        ['LikelyAvailable', 'salt'],
        ['LikelyAvailable', 'ert'],
        ['Uncertain', 'cherrytomat'],
      ]);
      expect([all.total, all.nextCursor]).to.deep.equal([7, null]);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(h.owner, h.inv, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.total).to.equal(7);
        expect(page.items.length).to.be.at.most(3);
        seen.push(...page.items.map((r) => r.foodKey));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).to.deep.equal(all.items.map((r) => r.foodKey));
      expect((await list(h.owner, h.inv, '?group=Aged')).items.map((r) => r.foodKey)).to.deep.equal(['smør']);
      expect((await list(h.owner, h.inv, '?place=Pantry&q=A')).items.map((r) => r.foodKey)).to.deep.equal(['basmatiris', 'havregryn', 'pasta', 'salt']);
      expect((await list(h.owner, h.inv, '?q=TOMATER')).items.map((r) => r.foodKey)).to.deep.equal(['cherrytomat']);
      expect((await list(h.owner, h.inv, '?q=r&limit=1')).total).to.equal(5);
    });

    it('refuses a cursor of another filter or household, and limits out of 1..100', async () => {
      const h = await stocked();
      const other = await household();
      const page = await list(h.owner, h.inv, '?limit=2');
      const cursor = encodeURIComponent(page.nextCursor!);
      expectStatus(await h.owner.get(`${h.inv}?limit=2&cursor=${cursor}&place=Pantry`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}?limit=2&cursor=${cursor}&group=UseSoon`), 400, 'validation_failed');
      expectStatus(await other.owner.get(`${other.inv}?limit=2&cursor=${cursor}`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}?cursor=garbage`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}?limit=0`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}?limit=101`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.inv}?group=Old`), 400, 'validation_failed');
      expect((await list(h.owner, h.inv, '?limit=100')).total).to.equal(7);
    });

    it('summarizes: byGroup and total follow the filter; byPlace and triage cover the whole pantry', async () => {
      const h = await stocked();
      const whole = await h.owner.get(`${h.inv}/summary`);
      expectStatus(whole, 200);
      const byPlace = { fridge: 2, pantry: 4, freezer: 1, unknown: 0 };
      // yoghurt asks for a date (Dairy in the Fridge); cherrytomat is Uncertain.
      const triage = 2;
      expect(whole.json).to.deep.equal({ byPlace, byGroup: { useSoon: 1, likelyAvailable: 5, uncertain: 1, aged: 1 }, triage, total: 8, matchesByPlace: byPlace });
      const fridge = await h.owner.get(`${h.inv}/summary?place=Fridge`);
      expect(fridge.json).to.deep.equal({
        byPlace,
        byGroup: { useSoon: 1, likelyAvailable: 0, uncertain: 1, aged: 1 },
        triage,
        total: 3,
        matchesByPlace: { fridge: 2, pantry: 0, freezer: 0, unknown: 0 },
      });
      const q = await h.owner.get(`${h.inv}/summary?q=SMØR`);
      expect(q.json).to.deep.include({ total: 1, byGroup: { useSoon: 0, likelyAvailable: 0, uncertain: 0, aged: 1 }, matchesByPlace: { fridge: 0, pantry: 0, freezer: 0, unknown: 0 } });
      expectStatus(await h.owner.get(`${h.inv}/summary?place=Attic`), 400, 'validation_failed');
    });

    it('moves rows between sections as time passes', async () => {
      const h = await stocked();
      // In two steps, so that the session (30 days from its last use) slides along.
      clock.advance(20 * DAY);
      expect((await list(h.owner, h.inv)).total).to.equal(5);
      clock.advance(15 * DAY);
      const s = (await h.owner.get(`${h.inv}/summary`)).json;
      expect(s.byGroup).to.deep.equal({ useSoon: 0, likelyAvailable: 1, uncertain: 4, aged: 3 });
      expect(s.total).to.equal(8);
      expect((await list(h.owner, h.inv)).items.map((r) => [r.group, r.foodKey])).to.deep.equal([
        ['LikelyAvailable', 'ert'],
        ['Uncertain', 'basmatiris'],
        ['Uncertain', 'havregryn'],
        ['Uncertain', 'pasta'],
        ['Uncertain', 'salt'],
      ]);
    });
  });
});
