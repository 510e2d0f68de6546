import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { embeddedFoodSource } from '../../adapters/foodtable/embedded-source.js';
import { embeddedRecipeLibrary } from '../../adapters/library/embedded-library.js';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import { isShareAlike } from '../../core/publicdata/derived-documents.js';
import type { FoodProduct } from '../../core/food/types.js';
import type { FoodSource } from '../../ports/food-source.js';
import { eachDatabase, httpService } from '../support/http-suite.js';
import { captureLog, TEST_RATE_LIMITS } from '../support/server.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const FOOD_DB = '/api/v1/data/food-db-derived.jsonl.gz';
const LIBRARY = '/api/v1/data/library-derived.jsonl.gz';

interface Download {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

async function download(server: { url: string }, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Download> {
  const res = await fetch(server.url + path, { method, headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const linesOf = (d: Download) => gunzipSync(d.bytes).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const problemOf = (d: Download) => JSON.parse(d.bytes.toString('utf8')) as Record<string, unknown>;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A food source the test switches on: empty at first, so that the start-up sync fails and the table stays unsynced. */
function switchableSource(): FoodSource & { products: FoodProduct[] } {
  const source = { products: [] as FoodProduct[], load: async () => structuredClone(source.products) };
  return source;
}

function expectFile(d: Download) {
  expect(d.status, d.bytes.toString('utf8').slice(0, 300)).to.equal(200);
  expect(d.headers.get('content-type')).to.equal('application/gzip');
  expect(d.headers.get('content-encoding')).to.equal(null);
  expect(Number(d.headers.get('content-length'))).to.equal(d.bytes.length);
  expect(d.headers.get('etag')).to.equal(`"${sha256(d.bytes)}"`);
  expect(d.headers.get('cache-control')).to.equal('public, max-age=3600, no-transform');
  expect(d.headers.get('last-modified')).to.equal(NOW.toUTCString());
}

eachDatabase('public data downloads', (kind) => {
  describe('with the embedded library, before and after the first sync', () => {
    const source = switchableSource();
    const log = captureLog();
    const server = httpService(kind, { now: NOW, runtime: { foodSource: source, logger: log.logger } });

    it('answers 404 food_db_not_built while the food table has never been synced', async () => {
      expect(await server.runtime.deps.foodTable.lastSyncedAt()).to.equal(null);
      const res = await download(server, FOOD_DB);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(problemOf(res)).to.include({ status: 404, code: 'food_db_not_built' });
    });

    it('serves the library from the start: the share-alike recipes after a header naming licence, sources and attribution', async () => {
      const res = await download(server, LIBRARY);
      expectFile(res);
      const lines = linesOf(res);
      const shareAlike = (await embeddedRecipeLibrary().all()).filter((r) => isShareAlike(r.licence));
      expect(lines[0]).to.include({ type: 'header', file: 'library-derived.jsonl.gz', licence: 'CC-BY-SA-4.0', recipes: shareAlike.length });
      expect(lines[0]!['sources']).to.be.an('array').that.is.not.empty;
      expect(String(lines[0]!['attribution'])).to.not.equal('');
      expect(lines.slice(1).map((l) => l['id'])).to.deep.equal(shareAlike.map((r) => r.id));
      for (const l of lines.slice(1)) expect(l).to.include({ type: 'recipe', licence: 'CC-BY-SA-4.0' });
    });

    it('after the sync job: every product row and barcode mapping, the ETag being the SHA-256 of the bytes', async () => {
      const catalogue = await embeddedFoodSource().load();
      source.products = catalogue;
      const job = jobsOf(server.runtime).find((j) => j.name === 'sync-food-table')!;
      expect(await runExclusive(server.runtime.db, server.runtime.logger, job)).to.equal(true);
      expect(log.lines.filter((l) => l['msg'] === 'public data file built').map((l) => [l['name'], l['state']])).to.deep.include.members([
        ['food-db-derived.jsonl.gz', 'written'],
        ['library-derived.jsonl.gz', 'unchanged'],
      ]);

      const res = await download(server, FOOD_DB);
      expectFile(res);
      const lines = linesOf(res);
      expect(lines[0]).to.include({ type: 'header', file: 'food-db-derived.jsonl.gz', licence: 'CC-BY-4.0', products: catalogue.length });
      expect(lines[0]!['sources']).to.be.an('array').with.length(1);
      expect(String(lines[0]!['attribution'])).to.contain('sample food catalogue');
      const products = lines.filter((l) => l['type'] === 'product');
      expect(products.map((p) => p['id'])).to.deep.equal(catalogue.map((p) => p.id).sort());
      const first = catalogue.find((p) => p.id === products[0]!['id'])!;
      expect(products[0]).to.deep.equal({ type: 'product', ...first, prices: first.prices.map((c) => ({ ...c })) });
      const barcodes = lines.filter((l) => l['type'] === 'barcode');
      const eans = new Set(catalogue.filter((p) => p.ean !== null).map((p) => `${p.ean} ${p.foodKey}`));
      expect(barcodes.map((b) => `${b['ean']} ${b['foodKey']}`).sort()).to.deep.equal([...eans].sort());
      expect(lines[0]).to.include({ barcodes: eans.size });
    });

    it('answers 304 without a body to If-None-Match naming the current file, 200 to another', async () => {
      for (const path of [FOOD_DB, LIBRARY]) {
        const full = await download(server, path);
        const etag = full.headers.get('etag')!;
        for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const cached = await download(server, path, { 'If-None-Match': inm });
          expect(cached.status, `${path} ${inm}`).to.equal(304);
          expect(cached.bytes.length).to.equal(0);
          expect(cached.headers.get('etag')).to.equal(etag);
        }
        const stale = await download(server, path, { 'If-None-Match': '"0000"' });
        expectFile(stale);
        expect(stale.bytes.equals(full.bytes)).to.equal(true);
        // Without If-None-Match, If-Modified-Since decides (against when the bytes were built).
        expect((await download(server, path, { 'If-Modified-Since': full.headers.get('last-modified')! })).status).to.equal(304);
        expectFile(await download(server, path, { 'If-Modified-Since': new Date(NOW.getTime() - 1000).toUTCString() }));
        expectFile(await download(server, path, { 'If-None-Match': '"0000"', 'If-Modified-Since': full.headers.get('last-modified')! }));
      }
    });

    it('answers HEAD with the headers of the file and no body', async () => {
      const full = await download(server, FOOD_DB);
      const head = await download(server, FOOD_DB, {}, 'HEAD');
      expect(head.status).to.equal(200);
      expect(head.bytes.length).to.equal(0);
      for (const h of ['etag', 'content-type', 'content-length', 'cache-control']) expect(head.headers.get(h), h).to.equal(full.headers.get(h));
    });

    it('keeps the ETag when a later sync brings the same catalogue', async () => {
      const before = (await download(server, FOOD_DB)).headers.get('etag');
      const job = jobsOf(server.runtime).find((j) => j.name === 'sync-food-table')!;
      expect(await runExclusive(server.runtime.db, server.runtime.logger, job)).to.equal(true);
      expect((await download(server, FOOD_DB)).headers.get('etag')).to.equal(before);
    });

    it('documents both downloads in OpenAPI: public, data-per-ip, application/gzip, 304', async () => {
      const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const path of [FOOD_DB, LIBRARY]) {
        const op = doc.paths[path]!['get'];
        expect(op.security, path).to.deep.equal([]);
        expect(op['x-rate-limit-class'], path).to.equal('data-per-ip');
        expect(Object.keys(op.responses[200].content), path).to.deep.equal(['application/gzip']);
        expect(Object.keys(op.responses), path).to.include.members(['200', '304', '429']);
      }
      expect(doc.paths[FOOD_DB]!['get'].responses[404].description).to.contain('food_db_not_built');
    });
  });

  describe('with RECIPE_LIBRARY=none', () => {
    const server = httpService(kind, { now: NOW, env: { RECIPE_LIBRARY: 'none' } });

    it('answers 200 with the header line alone', async () => {
      const res = await download(server, LIBRARY);
      expectFile(res);
      const lines = linesOf(res);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ type: 'header', licence: 'CC-BY-SA-4.0', recipes: 0 });
      expect(lines[0]!['sources']).to.deep.equal([]);
      expect(String(lines[0]!['attribution'])).to.not.equal('');
    });

    it('serves the food db at once when the start-up sync filled the table', async () => {
      expectFile(await download(server, FOOD_DB));
    });
  });

  describe('per-IP data limit', () => {
    const server = httpService(kind, { now: NOW, env: { RATE_LIMITS: TEST_RATE_LIMITS.replace('data-per-ip=10000/60', 'data-per-ip=3/60'), TRUST_PROXY: 'true' } });

    it('counts both downloads per client IP: past the limit 429 with Retry-After, another IP unaffected', async () => {
      const ip = { 'X-Forwarded-For': '203.0.113.7' };
      expect((await download(server, FOOD_DB, ip)).status).to.equal(200);
      expect((await download(server, LIBRARY, ip)).status).to.equal(200);
      const etag = (await download(server, FOOD_DB, { 'X-Forwarded-For': '203.0.113.8' })).headers.get('etag')!;
      expect((await download(server, FOOD_DB, { ...ip, 'If-None-Match': etag })).status).to.equal(304);
      const limited = await download(server, LIBRARY, ip);
      expect(limited.status).to.equal(429);
      expect(problemOf(limited)).to.include({ code: 'rate_limited' });
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
      expect((await download(server, FOOD_DB, { 'X-Forwarded-For': '203.0.113.9' })).status).to.equal(200);
    });
  });
});
