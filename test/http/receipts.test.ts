import { expect } from 'chai';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import type { FoodProduct } from '../../core/food/types.js';
import { expectStatus, httpSuite } from '../support/http-suite.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

const line = (productName: string, over: Record<string, unknown> = {}) => ({ productName, ean: null, quantity: 1, unitPrice: 19.9, totalPrice: null, ...over });

httpSuite('receipts and purchase classification (Receipt)', { now: NOW }, (server) => {
  const { log } = server;
  let catalogue: FoodProduct[];
  before(async () => {
    catalogue = await server.runtime.deps.foodSource.load();
  });

  async function household() {
    const h = await server.household();
    const junior = (await h.join('Junior')).client;
    const stranger = (await server.signedIn('Stranger')).client;
    return { owner: h.owner, junior, stranger, base: h.base };
  }
  const withNova = (nova: number) => catalogue.filter((p) => p.novaGroup === nova && p.ean !== null);

  it('a fresh server has synced the sample catalogue into the food table, and the scheduled job syncs again', async () => {
    expect(await server.runtime.deps.foodTable.count()).to.equal(catalogue.length);
    expect(catalogue.length).to.be.at.least(200);
    expect(await server.runtime.deps.foodTable.lastSyncedAt()).to.deep.equal(NOW);
    expect(log.lines.some((l) => l['msg'] === 'food table synced at start')).to.equal(true);
    const job = jobsOf(server.runtime).find((j) => j.name === 'sync-food-table');
    expect(job).to.not.equal(undefined);
    expect(new Set(jobsOf(server.runtime).map((j) => j.lockKey)).size).to.equal(jobsOf(server.runtime).length);
    expect(await runExclusive(server.runtime.db, server.runtime.logger, job!)).to.equal(true);
    expect(await server.runtime.deps.foodTable.count()).to.equal(catalogue.length);
  });

  it('records a receipt for any member, recognising lines by EAN and by name', async () => {
    const h = await household();
    const [byEan, byName] = catalogue.filter((p) => p.ean !== null);
    const res = await h.junior.post(`${h.base}/receipts`, {
      purchasedAt: '2026-05-03T15:30:00Z',
      chain: 'Kiwi',
      lines: [line('KVITTERINGSNAVN', { ean: byEan!.ean }), line(byName!.name.toUpperCase(), { quantity: 0.5, unitPrice: null, totalPrice: 12 }), line('Pant', { unitPrice: null })],
    });
    expectStatus(res, 201);
    expect(Object.keys(res.json).sort()).to.deep.equal(['id', 'linesRecognised', 'linesTotal']);
    expect(res.json).to.include({ linesRecognised: 2, linesTotal: 3 });
    const page = await h.owner.get(`${h.base}/receipts`);
    expectStatus(page, 200);
    expect(page.json).to.deep.equal({
      items: [{ id: res.json.id, purchasedAt: '2026-05-03T15:30:00.000Z', chain: 'Kiwi', linesTotal: 3, linesRecognised: 2 }],
      nextCursor: null,
      total: 1,
    });
  });

  it('pages receipts newest first with a cursor, and keeps them to the household', async () => {
    const h = await household();
    const other = await household();
    for (const day of [3, 1, 2]) expectStatus(await h.owner.post(`${h.base}/receipts`, { purchasedAt: daysAgo(day), chain: 'Rema 1000', lines: [line('Brus')] }), 201);
    const first = await h.owner.get(`${h.base}/receipts?limit=2`);
    expect(first.json.items.map((r: { purchasedAt: string }) => r.purchasedAt)).to.deep.equal([daysAgo(1), daysAgo(2)]);
    expect(first.json.total).to.equal(3);
    const second = await h.owner.get(`${h.base}/receipts?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect(second.json.items.map((r: { purchasedAt: string }) => r.purchasedAt)).to.deep.equal([daysAgo(3)]);
    expect(second.json.nextCursor).to.equal(null);
    // Another household's cursor and list.
    expectStatus(await other.owner.get(`${other.base}/receipts?cursor=${encodeURIComponent(first.json.nextCursor)}`), 400, 'validation_failed');
    expect((await other.owner.get(`${other.base}/receipts`)).json).to.deep.equal({ items: [], nextCursor: null, total: 0 });
  });

  it('answers 400 to a receipt outside the limits', async () => {
    const h = await household();
    const ok = { purchasedAt: '2026-05-03T15:30:00Z', chain: 'Kiwi', lines: [line('Brus')] };
    const bad: Record<string, unknown>[] = [
      { ...ok, purchasedAt: 'yesterday' },
      { ...ok, chain: ' ' },
      { ...ok, lines: [] },
      { ...ok, lines: Array.from({ length: 201 }, () => line('Brus')) },
      { ...ok, lines: [line('')] },
      { ...ok, lines: [line('x'.repeat(201))] },
      { ...ok, lines: [line('Brus', { quantity: 0 })] },
      { ...ok, lines: [line('Brus', { quantity: 100_001 })] },
      { ...ok, lines: [line('Brus', { unitPrice: -1 })] },
      { ...ok, lines: [line('Brus', { totalPrice: -0.01 })] },
      { ...ok, lines: [line('Brus', { ean: 'abc' })] },
    ];
    for (const body of bad) expect((await h.owner.post(`${h.base}/receipts`, body)).status, JSON.stringify(body).slice(0, 200)).to.equal(400);
    expectStatus(await h.owner.post(`${h.base}/receipts`, { ...ok, lines: Array.from({ length: 200 }, () => line('Brus', { quantity: 100_000, unitPrice: 0 })) }), 201);
    for (const q of ['limit=0', 'limit=101', 'limit=x', 'cursor=forged']) expectStatus(await h.owner.get(`${h.base}/receipts?${q}`), 400, 'validation_failed');
  });

  it('answers 404 household_not_found to a caller outside the household', async () => {
    const h = await household();
    expectStatus(await h.stranger.post(`${h.base}/receipts`, { purchasedAt: '2026-05-03T15:30:00Z', chain: 'Kiwi', lines: [line('Brus')] }), 404, 'household_not_found');
    expectStatus(await h.stranger.get(`${h.base}/receipts`), 404, 'household_not_found');
    expectStatus(await h.stranger.get(`${h.base}/shopping/purchase-classification`), 404, 'household_not_found');
  });

  it('classifies the distinct priced lines of the last days by NOVA group', async () => {
    const h = await household();
    const other = await household();
    const heavy = withNova(4).slice(0, 3);
    const processed = withNova(3)[0]!;
    const light = withNova(1)[0]!;
    const lines = [
      ...heavy.map((p) => line(p.name, { ean: p.ean })),
      line(heavy[0]!.name), // the same product by name: one line
      line(processed.name, { ean: processed.ean }),
      line(light.name, { ean: light.ean }),
      line('Ukjent vare'),
      line('Pant', { unitPrice: null }), // unpriced
    ];
    expectStatus(await h.owner.post(`${h.base}/receipts`, { purchasedAt: daysAgo(2), chain: 'Kiwi', lines }), 201);
    expectStatus(await h.owner.post(`${h.base}/receipts`, { purchasedAt: daysAgo(45), chain: 'Kiwi', lines: [line('Gammel vare')] }), 201);
    expectStatus(await other.owner.post(`${other.base}/receipts`, { purchasedAt: daysAgo(1), chain: 'Kiwi', lines: [line(light.name)] }), 201);
    const res = await h.junior.get(`${h.base}/shopping/purchase-classification`);
    expectStatus(res, 200);
    const examples = heavy
      .map((p) => ({ productName: p.name, novaGroup: 4, nutriScore: p.nutriScore }))
      .sort((a, b) => (a.productName < b.productName ? -1 : a.productName > b.productName ? 1 : 0));
    expect(res.json).to.deep.equal({ days: 30, linesTotal: 6, linesRecognised: 5, heavilyProcessed: 3, processed: 1, lightlyProcessed: 1, processingUnknown: 1, examples });
    expect((await h.owner.get(`${h.base}/shopping/purchase-classification?days=365`)).json).to.include({ days: 365, linesTotal: 7, processingUnknown: 2 });
    expect((await other.owner.get(`${other.base}/shopping/purchase-classification?days=1`)).json).to.include({ linesTotal: 1, lightlyProcessed: 1, heavilyProcessed: 0 });
    for (const q of ['days=0', 'days=366', 'days=abc', 'days=1.5', 'days=-1']) expectStatus(await h.owner.get(`${h.base}/shopping/purchase-classification?${q}`), 400, 'validation_failed');
  });

  it('drops the receipts with the household', async () => {
    const h = await household();
    const created = await h.owner.post(`${h.base}/receipts`, { purchasedAt: daysAgo(1), chain: 'Kiwi', lines: [line('Brus')] });
    expectStatus(created, 201);
    const householdId = h.base.split('/').pop()!;
    await server.runtime.deps.households.delete(householdId);
    expect(await server.runtime.deps.receipts.page(householdId, { after: null, limit: 10 })).to.deep.equal({ items: [], more: false, total: 0 });
    const rows = await server.runtime.db.knex('receipt_lines').where({ receipt_id: created.json.id }).count({ n: '*' }).first();
    expect(Number((rows as { n: number | string }).n)).to.equal(0);
  });
});
