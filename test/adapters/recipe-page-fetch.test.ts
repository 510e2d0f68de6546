import { expect } from 'chai';
import type { HostLookup } from '../../adapters/outbound/guard.js';
import { createRecipePageReader } from '../../adapters/recipe-import/reader.js';
import { serve, startFeedServer } from '../calendar/feed-server.js';

// The page reader's own SSRF cases, as test/calendar/fetcher.test.ts has them for feeds: what the HTTP tests cannot
// play (DNS answers) is played here with an injected resolver. No request may reach the loopback server.
const PAGE = '<!doctype html><html><head><meta property="og:title" content="Taco"></head><body></body></html>';

describe('recipe page reader: the outbound guard', () => {
  let server: Awaited<ReturnType<typeof startFeedServer>>;
  before(async () => {
    server = await startFeedServer({ '/taco': serve(PAGE, 'text/html; charset=utf-8') });
  });
  after(async () => server.close());

  const reader = (lookup: HostLookup, allowHosts: readonly string[] = []) => createRecipePageReader({ allowHosts, lookup, timeoutMs: 2000, maxBytes: 1_000_000, userAgent: 'test' });

  it('refuses at connect a name that resolves to loopback (DNS rebinding), and one with any forbidden answer among public ones', async () => {
    const port = server.port;
    for (const answers of [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }],
      [{ address: '::ffff:127.0.0.1', family: 6 }],
    ]) {
      const read = await reader(async () => answers).fromUrl(`http://recipes.example:${port}/taco`);
      // The port is not standard: the form check refuses before DNS. On port 80 the connect-time check does.
      expect(read, JSON.stringify(answers)).to.deep.equal({ ok: false, reason: 'forbidden-address' });
      const standard = await reader(async () => answers).fromUrl('http://recipes.example/taco');
      expect(standard, JSON.stringify(answers)).to.deep.equal({ ok: false, reason: 'forbidden-address' });
    }
    expect(server.totalHits()).to.equal(0);
  });

  it('refuses special-use names without asking DNS, and reads a listed host through the injected resolver', async () => {
    const asked: string[] = [];
    const r = reader(async (name) => (asked.push(name), [{ address: '93.184.216.34', family: 4 }]));
    for (const url of ['http://localhost/x', 'http://LOCALHOST./x', 'http://router.local/x', 'http://nas.home.arpa/x', 'http://db.internal/x']) {
      expect(await r.fromUrl(url), url).to.deep.equal({ ok: false, reason: 'forbidden-address' });
    }
    expect(asked).to.deep.equal([]);
    const listed = reader(async () => [{ address: '127.0.0.1', family: 4 }], [`recipes.test:${server.port}`]);
    const read = await listed.fromUrl(`http://recipes.test:${server.port}/taco`);
    expect(read.ok && read.recipe.title).to.equal('Taco');
    expect(server.hits('/taco')).to.equal(1);
  });
});
