import { gzipSync, crc32 } from 'node:zlib';
import { expect } from 'chai';
import { fileTypeFromBuffer } from 'file-type';
import { createOutboundGuard } from '../../adapters/outbound/guard.js';
import { createRecipeImageFetcher, declaredSize, type RecipeImageFetcherOptions } from '../../adapters/recipe-import/image.js';
import { redirectTo, startFeedServer, type Route } from '../calendar/feed-server.js';
import { rebindingLookup } from '../support/rebinding.js';

// Real images, made with ImageMagick and cwebp and checked to decode with djpeg and dwebp.
const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
/** 1×1, red, palette. */
const PNG = bytes('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAMAAAAoyzS7AAAAA1BMVEXAOSuU7d9gAAAACklEQVQI12NgAAAAAgAB4iG8MwAAAABJRU5ErkJggg==');
/** 1×1, grey, baseline (SOF0 at byte 89). */
const JPEG = bytes(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAA//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AR//Z',
);
/** 1×1, lossy (a VP8 chunk). */
const WEBP = bytes('UklGRjQAAABXRUJQVlA4ICgAAACQAQCdASoBAAEAAsBMJaACdLoAA5gA/ulpHr4Ap+z/+Sn+LvvN3aAA');
/** 1×1, lossless (VP8L). */
const WEBP_LOSSLESS = bytes('UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAfQnAJ3pf+BiOh/AAA=');
/** 1×1, lossy with alpha (VP8X canvas, then ALPH and VP8). */
const WEBP_EXTENDED = bytes('UklGRlQAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAIAAAAAgFZQOCAsAAAAkAEAnQEqAQABAALATCWgAnS6AAOYAP7wUx/it9QNFN/9QZ/5Bn/kGfscAAA=');
const GIF = bytes('R0lGODlhAQABAPAAACeuYAAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script><rect width="1" height="1"/></svg>';
const HTML = '<!doctype html><html><body><img src=x onerror=alert(1)></body></html>';

/** The PNG with its IHDR declaring another size, the chunk's CRC made right again so that it stays a valid header. */
function pngSized(width: number, height: number): Buffer {
  const png = Buffer.from(PNG);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** The JPEG with its frame header changed: another SOF marker (0xc0 baseline, 0xca progressive arithmetic) and size. */
function jpegFrame(marker: number, width: number, height: number): Buffer {
  const jpeg = Buffer.from(JPEG);
  jpeg[90] = marker;
  jpeg.writeUInt16BE(height, 94);
  jpeg.writeUInt16BE(width, 96);
  return jpeg;
}

const MAX_BYTES = 64 * 1024;
/** 10 MiB of zeros, gzipped to about 10 KiB: well under the cap, so only counting the decoded bytes stops it. */
const BOMB = gzipSync(Buffer.alloc(10 * 1024 * 1024));
const image =
  (body: Uint8Array | string, type: string): Route =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': type }).end(body);

describe('recipe image fetcher', () => {
  let server: Awaited<ReturnType<typeof startFeedServer>>;
  let other: Awaited<ReturnType<typeof startFeedServer>>;

  before(async () => {
    other = await startFeedServer({ '/red.png': image(PNG, 'image/png') });
    server = await startFeedServer({
      '/red.png': image(PNG, 'image/png'),
      '/grey.jpg': image(JPEG, 'image/jpeg'),
      '/pixel.webp': image(WEBP, 'image/webp'),
      '/png-as-text': image(PNG, 'text/plain; charset=utf-8'),
      '/drawing.svg': image(SVG, 'image/svg+xml'),
      '/svg-as.png': image(SVG, 'image/png'),
      '/page-as.png': image(HTML, 'image/png'),
      '/pixel.gif': image(GIF, 'image/gif'),
      '/huge.png': image(pngSized(10_000, 5_000), 'image/png'),
      '/bad-crc.png': image(Buffer.from(PNG).fill(0, 29, 33), 'image/png'),
      '/big-declared.png': image(Buffer.concat([PNG, Buffer.alloc(MAX_BYTES)]), 'image/png'),
      '/big-streamed.png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG);
        for (let i = 0; i < 70; i++) res.write(Buffer.alloc(1024));
        res.end();
      },
      '/bomb.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(BOMB),
      '/broken.png': (_req, res) => res.writeHead(500).end('oops'),
      // The head and the first bytes, then nothing: the whole-fetch timeout must end it.
      '/slow.png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG.subarray(0, 16));
      },
      '/moved.png': redirectTo('/red.png', 301),
      '/to-other-loopback.png': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${other.port}/red.png` }).end(),
    });
  });

  after(async () => {
    await server.close();
    await other.close();
  });

  const make = (over: Partial<RecipeImageFetcherOptions> = {}) =>
    createRecipeImageFetcher({ allowHosts: [server.host], timeoutMs: 2000, maxBytes: MAX_BYTES, userAgent: 'dinner-planner-test', ...over });

  /** The reason a fetch gave no image, or 'kept' when it gave one. */
  const outcome = async (url: string, over: Partial<RecipeImageFetcherOptions> = {}) => {
    const got = await make(over).fetch(url);
    return got.ok ? 'kept' : got.reason;
  };

  describe('keeping images', () => {
    it('the fixtures sniff as what they are', async () => {
      const sniffed = await Promise.all([PNG, JPEG, WEBP, WEBP_LOSSLESS, WEBP_EXTENDED].map(async (b) => (await fileTypeFromBuffer(b))?.mime));
      expect(sniffed).to.deep.equal(['image/png', 'image/jpeg', 'image/webp', 'image/webp', 'image/webp']);
    });

    for (const [path, mediaType, body] of [
      ['/red.png', 'image/png', PNG],
      ['/grey.jpg', 'image/jpeg', JPEG],
      ['/pixel.webp', 'image/webp', WEBP],
    ] as const) {
      it(`keeps ${mediaType} with its bytes, the address asked for and a strong ETag`, async () => {
        const got = await make().fetch(server.url(path));
        if (!got.ok) throw new Error(`refused: ${got.reason}`);
        expect(got.image).to.deep.include({ sourceUrl: server.url(path), mediaType });
        expect(got.image.bytes).to.deep.equal(body);
        expect(got.image.etag).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      });
    }

    it('tags the same bytes alike on every fetch and different bytes differently', async () => {
      const tag = async (url: string) => {
        const got = await make().fetch(url);
        return got.ok ? got.image.etag : got.reason;
      };
      const [first, again, viaText, jpeg] = await Promise.all([server.url('/red.png'), server.url('/red.png'), server.url('/png-as-text'), server.url('/grey.jpg')].map(tag));
      expect(again).to.equal(first);
      expect(viaText).to.equal(first);
      expect(jpeg).to.not.equal(first);
    });

    it('keeps PNG bytes served as text/plain: the bytes decide, not the declared type', async () => {
      const got = await make().fetch(server.url('/png-as-text'));
      expect(got.ok && got.image.mediaType).to.equal('image/png');
    });

    it('follows a redirect on the allowed server and keeps the address asked for', async () => {
      const got = await make().fetch(server.url('/moved.png'));
      expect(got.ok && got.image.sourceUrl).to.equal(server.url('/moved.png'));
    });
  });

  describe('refusing what is not a JPEG, PNG or WebP', () => {
    for (const [what, path] of [
      ['an SVG served as image/svg+xml', '/drawing.svg'],
      ['an SVG served as image/png', '/svg-as.png'],
      ['an HTML page served as image/png', '/page-as.png'],
      ['a GIF', '/pixel.gif'],
      ['a PNG whose IHDR fails its CRC', '/bad-crc.png'],
    ] as const) {
      it(`${what} is not-an-image`, async () => {
        expect(await outcome(server.url(path))).to.equal('not-an-image');
      });
    }

    it('a PNG whose header declares 10000×5000 is too-many-pixels, though its body is tiny', async () => {
      expect(pngSized(10_000, 5_000).length).to.be.below(100);
      expect(await outcome(server.url('/huge.png'))).to.equal('too-many-pixels');
      expect(await outcome(server.url('/huge.png'), { maxPixels: 50_000_000 })).to.equal('kept');
    });
  });

  describe('failures of the fetch', () => {
    it('a body over maxBytes is too-large, declared or streamed', async () => {
      expect(await outcome(server.url('/big-declared.png'))).to.equal('too-large');
      expect(await outcome(server.url('/big-streamed.png'))).to.equal('too-large');
    });

    it('a gzip bomb is too-large', async () => {
      expect(BOMB.length).to.be.below(MAX_BYTES);
      expect(await outcome(server.url('/bomb.png'))).to.equal('too-large');
    });

    it('an error status is unreachable', async () => {
      expect(await outcome(server.url('/broken.png'))).to.equal('unreachable');
      expect(await outcome(server.url('/nothing-here.png'))).to.equal('unreachable');
    });

    it('a server that stalls is a timeout', async () => {
      const started = Date.now();
      expect(await outcome(server.url('/slow.png'), { timeoutMs: 300 })).to.equal('timeout');
      expect(Date.now() - started).to.be.below(2000);
    });
  });

  describe('the outbound guard', () => {
    for (const [what, url] of [
      ['another port on the allowed loopback address', () => `http://127.0.0.1:${other.port}/red.png`],
      ['localhost', () => 'http://localhost/x.png'],
      ['a private address', () => 'http://10.0.0.1/x.png'],
      ['a redirect from the allowed server to another loopback port', () => server.url('/to-other-loopback.png')],
    ] as const) {
      it(`refuses ${what}`, async () => {
        expect(await outcome(url())).to.equal('forbidden-address');
      });
    }

    it('never reached the other loopback server', () => {
      expect(other.totalHits()).to.equal(0);
    });

    it('refuses at connect a name that resolved public when checked and loopback when fetched (DNS rebinding)', async () => {
      const { lookup, asked } = rebindingLookup();
      // A caller that checked the address first, as the import does, is told it is fine...
      const guard = createOutboundGuard({ allowHosts: [], lookup, dnsTimeoutMs: 1000 });
      expect(await guard.check('http://rebind.example/x.png')).to.deep.equal({ ok: true });
      // ...and the fetch, asking again as it connects, gets loopback and refuses it.
      expect(await outcome('http://rebind.example/x.png', { lookup })).to.equal('forbidden-address');
      expect(asked).to.deep.equal(['rebind.example', 'rebind.example']);
    });
  });

  describe('the declared size, read from the header alone', () => {
    it('reads 1×1 from each kind of image kept', () => {
      expect(declaredSize('image/png', PNG)).to.deep.equal({ width: 1, height: 1 });
      expect(declaredSize('image/jpeg', JPEG)).to.deep.equal({ width: 1, height: 1 });
      for (const webp of [WEBP, WEBP_LOSSLESS, WEBP_EXTENDED]) expect(declaredSize('image/webp', webp)).to.deep.equal({ width: 1, height: 1 });
    });

    it('reads the size a header declares, whatever the body holds', () => {
      expect(declaredSize('image/png', pngSized(10_000, 5_000))).to.deep.equal({ width: 10_000, height: 5_000 });
      expect(declaredSize('image/jpeg', jpegFrame(0xc0, 9_000, 7_000))).to.deep.equal({ width: 9_000, height: 7_000 });
      const canvas = Buffer.from(WEBP_EXTENDED).fill(0xff, 24, 30); // width-1 and height-1 of 2^24-1
      expect(declaredSize('image/webp', canvas)).to.deep.equal({ width: 2 ** 24, height: 2 ** 24 });
      const lossy = Buffer.from(WEBP);
      lossy.writeUInt16LE(16_383, 26);
      lossy.writeUInt16LE(0xc000 | 16_383, 28); // the top two bits are a scale hint, not size
      expect(declaredSize('image/webp', lossy)).to.deep.equal({ width: 16_383, height: 16_383 });
    });

    it('reads the first JPEG frame header of any kind, never a lookalike in the scan data after it', () => {
      // A progressive arithmetic frame of 10000×10000, then scan data holding bytes shaped like a 1×1 baseline frame.
      const big = jpegFrame(0xca, 10_000, 10_000);
      const scan = Buffer.alloc(20_000);
      Buffer.from([0x00, 0x02, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]).copy(scan);
      const sneaky = Buffer.concat([big.subarray(0, JPEG.length - 3), scan, Buffer.from([0xff, 0xd9])]);
      expect(declaredSize('image/jpeg', sneaky)).to.deep.equal({ width: 10_000, height: 10_000 });
    });

    it('gives null for a header it cannot read', () => {
      const sosBeforeFrame = Buffer.concat([JPEG.subarray(0, 20), JPEG.subarray(146)]);
      const cases: [Parameters<typeof declaredSize>[0], Uint8Array][] = [
        ['image/png', PNG.subarray(0, 30)],
        ['image/png', Buffer.from(PNG).fill(0, 29, 33)],
        ['image/jpeg', sosBeforeFrame],
        ['image/jpeg', JPEG.subarray(0, 95)],
        ['image/jpeg', jpegFrame(0xc0, 1, 0)],
        ['image/webp', WEBP.subarray(0, 29)],
        ['image/webp', Buffer.from(WEBP_LOSSLESS).fill(0, 20, 21)],
        ['image/webp', PNG],
      ];
      for (const [type, b] of cases) expect(declaredSize(type, b), `${type} ${Buffer.from(b).toString('hex', 0, 24)}`).to.equal(null);
    });
  });
});
