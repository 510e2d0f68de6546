import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { embeddedFoodSource } from '../../adapters/foodtable/embedded-source.js';
import { publishedMonths } from '../../core/dinnerprices/publish.js';
import { httpSuite } from '../support/http-suite.js';
import { TEST_RATE_LIMITS } from '../support/server.js';

const JSON_PATH = '/api/v1/data/dinner-prices.json';
const CSV_PATH = '/api/v1/data/dinner-prices.csv';
const HEADER = 'month,householdType,medianWeekPrice,p10WeekPrice,p90WeekPrice,pricePerPortion,coverage,chains,source,recipeSetVersion';
const ROW_KEYS = ['month', 'householdType', 'medianWeekPrice', 'p10WeekPrice', 'p90WeekPrice', 'pricePerPortion', 'coverage', 'chains', 'weeksMeasured'];
// Monday 2 March 2026, 05:00 in Oslo.
const START = new Date('2026-03-02T04:00:00.000Z');
const DAY = 86_400_000;

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += c;
  }
  expect(field, 'every record ends with CRLF').to.equal('');
  return records;
}

httpSuite('dinner prices', { now: START, keepTime: true }, (server) => {
  const { clock, runJob } = server;
  const anonymous = () => server.client();

  it('answers an empty document and the CSV header row before anything is published', async () => {
    const json = await anonymous().get(JSON_PATH);
    expect(json.status).to.equal(200);
    expect(json.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(json.json).to.deep.equal({ generatedAt: null, currency: 'NOK', recipeSetVersion: null, months: [] });
    const csv = await anonymous().get(CSV_PATH);
    expect([csv.status, csv.headers.get('content-type'), csv.text]).to.deep.equal([200, 'text/csv; charset=utf-8', `${HEADER}\r\n`]);
    // A measured week shows nothing until its month has ended.
    await runJob('measure-dinner-prices');
    await runJob('publish-dinner-prices');
    expect((await anonymous().get(JSON_PATH)).json.months).to.deep.equal([]);
    expect((await anonymous().get(CSV_PATH)).text).to.equal(`${HEADER}\r\n`);
  });

  it('publishes the ended month from the weekly measurements: JSON and CSV agree, totals only', async () => {
    // The weekly job runs daily: each Monday measures its week, the other days find it measured.
    for (let day = 1; day < 35; day++) {
      clock.set(new Date(START.getTime() + day * DAY));
      await runJob('measure-dinner-prices');
    }
    const measured = await server.runtime.deps.dinnerPrices.measurementsBefore('2026-04-06');
    expect(measured.map((m) => `${m.weekStart} ${m.householdType}`)).to.have.length(15);
    expect(new Set(measured.map((m) => m.recipeSetVersion))).to.deep.equal(new Set([await server.runtime.deps.recipeLibrary.version()]));
    expect(measured.every((m) => m.recipesDrawn === 1000 && m.weeksDrawn === 142 && m.medianWeekPrice !== null && m.weeksPriced > 0)).to.equal(true);

    clock.set(new Date('2026-04-01T04:00:00.000Z')); // 06:00 on 1 April in Oslo: March has ended
    await runJob('publish-dinner-prices');
    const json = await anonymous().get(JSON_PATH);
    expect(json.json.generatedAt).to.equal('2026-04-01T04:00:00.000Z');
    expect(json.json.recipeSetVersion).to.equal(await server.runtime.deps.recipeLibrary.version());
    const rows = publishedMonths(measured, '2026-04');
    expect(json.json.months).to.deep.equal(rows.map(({ recipeSetVersion: _v, ...r }) => r));
    expect(json.json.months.map((r: { month: string; householdType: string; weeksMeasured: number }) => `${r.month} ${r.householdType} ${r.weeksMeasured}`)).to.deep.equal([
      '2026-03 single 5',
      '2026-03 couple 5',
      '2026-03 family 5',
    ]);
    for (const r of json.json.months) {
      expect(Object.keys(r)).to.deep.equal(ROW_KEYS);
      expect(r.p10WeekPrice <= r.medianWeekPrice && r.medianWeekPrice <= r.p90WeekPrice).to.equal(true);
    }

    const csv = await anonymous().get(CSV_PATH);
    const records = parseCsv(csv.text);
    expect(records[0]!.join(',')).to.equal(HEADER);
    expect(records.slice(1)).to.deep.equal(
      rows.map((r) => [r.month, r.householdType, r.medianWeekPrice.toFixed(2), r.p10WeekPrice.toFixed(2), r.p90WeekPrice.toFixed(2), r.pricePerPortion.toFixed(2), String(r.coverage), String(r.chains), 'food table chain list prices', r.recipeSetVersion]),
    );

    // No chain and no product is named, in either file.
    const products = await embeddedFoodSource().load();
    const names = new Set([...products.flatMap((p) => p.prices.map((c) => c.chain)), ...products.map((p) => p.name), ...products.flatMap((p) => (p.ean ? [p.ean] : []))]);
    for (const text of [json.text, csv.text]) for (const name of names) expect(text, name).to.not.include(name);
  });

  it('serves the stored bytes with a strong ETag; If-None-Match answers 304; an unchanged month keeps them', async () => {
    const first = await anonymous().get(JSON_PATH);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"[0-9a-f]{64}"$/);
    expect(first.headers.get('cache-control')).to.equal('public, max-age=3600, no-transform');
    // fetch sends Cache-Control: no-cache with a conditional request: the answer is 304 all the same.
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await anonymous().get(JSON_PATH, { headers: { 'If-None-Match': inm } });
      expect([again.status, again.text, again.headers.get('etag')], inm).to.deep.equal([304, '', etag]);
    }
    const stale = await anonymous().get(JSON_PATH, { headers: { 'If-None-Match': '"0000"' } });
    expect([stale.status, stale.text]).to.deep.equal([200, first.text]);
    expect(first.headers.get('last-modified')).to.equal('Wed, 01 Apr 2026 04:00:00 GMT');
    const csv = await anonymous().get(CSV_PATH);
    expect(csv.headers.get('etag')).to.not.equal(etag);
    expect((await anonymous().get(CSV_PATH, { headers: { 'If-None-Match': csv.headers.get('etag')! } })).status).to.equal(304);

    // Another day of April: a new week is measured, March stands, the files and their ETag stay.
    clock.set(new Date('2026-04-13T04:00:00.000Z'));
    await runJob('measure-dinner-prices');
    await runJob('publish-dinner-prices');
    const later = await anonymous().get(JSON_PATH);
    expect([later.headers.get('etag'), later.text]).to.deep.equal([etag, first.text]);
    expect(etag).to.equal(`"${createHash('sha256').update(first.text, 'utf8').digest('hex')}"`);

    // May: April is published, the files change, and their ETag is the hash of the new bytes (not the last one kept).
    clock.set(new Date('2026-05-02T04:00:00.000Z'));
    await runJob('measure-dinner-prices');
    await runJob('publish-dinner-prices');
    const may = await anonymous().get(JSON_PATH);
    expect(may.text).to.not.equal(first.text);
    expect(may.headers.get('etag')).to.equal(`"${createHash('sha256').update(may.text, 'utf8').digest('hex')}"`);
    expect((await anonymous().get(JSON_PATH, { headers: { 'If-None-Match': etag } })).status).to.equal(200);
  });

  it('is documented in the OpenAPI document as public routes in the data-per-ip class', async () => {
    const doc = (await anonymous().get('/api/v1/openapi.json')).json;
    for (const path of [JSON_PATH, CSV_PATH]) {
      const op = doc.paths[path].get;
      expect(op.security, path).to.deep.equal([]);
      expect(op['x-rate-limit-class'], path).to.equal('data-per-ip');
      expect(Object.keys(op.responses), path).to.include.members(['200', '304', '429']);
      expect(op.description, path).to.match(/linear interpolation between closest ranks/);
    }
    expect(Object.keys(doc.paths[CSV_PATH].get.responses['200'].content)).to.deep.equal(['text/csv']);
  });
});

httpSuite('dinner prices rate limit', { env: { RATE_LIMITS: TEST_RATE_LIMITS.replace('data-per-ip=10000/60', 'data-per-ip=3/60') }, now: START }, (server) => {

  it('counts both files per client IP in the data class: past the limit 429 with Retry-After', async () => {
    const reader = server.client();
    expect((await reader.get(JSON_PATH)).status).to.equal(200);
    expect((await reader.get(CSV_PATH)).status).to.equal(200);
    expect((await reader.get(JSON_PATH)).status).to.equal(200);
    const limited = await reader.get(CSV_PATH);
    expect([limited.status, limited.json.code]).to.deep.equal([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
  });
});
