import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { WEB_CSP } from '../../adapters/http/web-app.js';
import { httpSuite } from '../support/http-suite.js';
import { startTestServer } from '../support/server.js';

/** A built web app as Vite lays it out: index.html naming hashed assets. */
function builtApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dinner-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  writeFileSync(join(dir, 'assets', 'index-def456.css'), 'body{margin:0}');
  return dir;
}

let dir: string;
httpSuite('the web app at /', { env: () => ({ WEB_DIR: (dir = builtApp()) }) }, (server) => {
  after(() => rmSync(dir, { recursive: true, force: true }));
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

  it('serves index.html at / and for every client route, no-cache, with the CSP and no inline script allowed', async () => {
    for (const path of ['/', '/week', '/confirm-email?userId=1&token=2', '/households/abc/list']) {
      const res = await get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(res.headers.get('content-security-policy')).to.equal(WEB_CSP);
      expect(await res.text()).to.include('<div id="app">');
    }
    expect(WEB_CSP).to.include("script-src 'self'").and.not.include('unsafe-inline');
    expect(WEB_CSP).to.include("frame-ancestors 'none'");
  });

  it('serves hashed assets immutable for a year, gzipped when asked, with an ETag that answers 304', async () => {
    const plain = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'identity' });
    expect(plain.status).to.equal(200);
    expect(plain.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    const body = await plain.text();
    const etag = plain.headers.get('etag')!;
    expect(etag).to.match(/^"[\w-]{27}"$/);
    const gz = await new Promise<{ encoding: string | undefined; etag: string | undefined; bytes: Buffer }>((resolve, reject) => {
      // fetch would undo the gzip itself: read the bytes as they come.
      import('node:http').then(({ get: raw }) =>
        raw(`${server.url}/assets/index-abc123.js`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], etag: res.headers.etag, bytes: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });
    expect(gz.encoding).to.equal('gzip');
    expect(gz.bytes.length).to.be.below(Buffer.byteLength(body));
    expect(gunzipSync(gz.bytes).toString()).to.equal(body);
    expect(gz.etag, 'the gzipped bytes are a representation of their own').to.equal(`${etag.slice(0, -1)}-gz"`);
    const again = await get('/assets/index-abc123.js', { 'If-None-Match': etag, 'Accept-Encoding': 'identity' });
    expect([again.status, await again.text()]).to.deep.equal([304, '']);
    // A list, a weak form and * all match; the gzip tag does not match the plain bytes.
    for (const header of [`"other", ${etag}`, `W/${etag}`, '*']) expect((await get('/assets/index-abc123.js', { 'If-None-Match': header, 'Accept-Encoding': 'identity' })).status, header).to.equal(304);
    expect((await get('/assets/index-abc123.js', { 'If-None-Match': gz.etag!, 'Accept-Encoding': 'identity' })).status).to.equal(200);
    expect((await get('/assets/index-def456.css')).headers.get('content-type')).to.equal('text/css; charset=utf-8');
  });

  it('answers HEAD with the headers of GET and no body, for the app\'s routes and its files', async () => {
    for (const path of ['/', '/week/2026-11-23', '/assets/index-abc123.js']) {
      const [head, full] = [await fetch(`${server.url}${path}`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } }), await get(path, { 'Accept-Encoding': 'identity' })];
      expect(head.status, path).to.equal(200);
      for (const h of ['content-type', 'cache-control', 'etag', 'content-security-policy', 'content-length']) expect(head.headers.get(h), `${path} ${h}`).to.equal(full.headers.get(h));
      expect(await head.text(), path).to.equal('');
    }
    // HEAD of an API path is the API's answer, not the app.
    const api = await fetch(`${server.url}/api/v1/nope`, { method: 'HEAD' });
    expect(api.headers.get('content-type')).to.not.include('text/html');
  });

  it('leaves /api, /health and robots.txt to the service: an unknown /api path is still problem+json 404', async () => {
    for (const path of ['/api/v1/nothing', '/api', '/API/V1/Me', '/health/nothing']) {
      const res = await get(path);
      expect(res.status, path).to.equal(404);
      expect(res.headers.get('content-type'), path).to.match(/^application\/problem\+json/);
    }
    expect((await get('/health')).headers.get('content-type')).to.match(/json/);
    expect(await (await get('/robots.txt')).text()).to.include('User-agent');
    // A missing file is a 404, not the app; other methods are not the app's either.
    expect((await get('/assets/gone-000000.js')).status).to.equal(404);
    expect((await fetch(`${server.url}/week`, { method: 'POST' })).status).to.equal(404);
  });

  it('says so, as a page, when the web app is not built', async () => {
    const bare = await startTestServer(server.kind, { WEB_DIR: join(dir, 'nowhere') });
    try {
      const res = await fetch(`${bare.url}/`);
      expect(res.status).to.equal(503);
      expect(await res.text()).to.include('npm run build:web');
      expect((await fetch(`${bare.url}/api/v1/nothing`)).status).to.equal(404);
    } finally {
      await bare.stop();
    }
  });
});
