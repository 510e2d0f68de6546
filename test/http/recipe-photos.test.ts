import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import sharp from 'sharp';
import { expectProblem, httpSuite } from '../support/http-suite.js';
import type { Client } from '../support/client.js';

// A household's own photo of a recipe (PUT/DELETE .../recipes/{id}/image): every picture is drawn here with sharp.

/** Each picture is drawn once for the file, at its first use. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

const RED = { r: 200, g: 30, b: 30 };
const BLUE = { r: 30, g: 30, b: 200 };

/**
 * A 3000×2000 JPEG, red on its left half and blue on its right, whose EXIF says "turn 90° clockwise to show"
 * (orientation 6, as a phone held upright writes it): shown right, it is 2000 wide and 3000 high, red above blue.
 */
const sidewaysJpeg = once(() =>
  sharp({ create: { width: 3000, height: 2000, channels: 3, background: RED } })
    .composite([{ input: { create: { width: 1500, height: 2000, channels: 3, background: BLUE } }, left: 1500, top: 0 }])
    .jpeg({ quality: 70 })
    .withMetadata({ orientation: 6 })
    .toBuffer(),
);

/** A small PNG with transparency, and a wide WebP. */
const png = once(() => sharp({ create: { width: 400, height: 300, channels: 4, background: { ...BLUE, alpha: 0.5 } } }).png().toBuffer());
const webp = once(() => sharp({ create: { width: 2400, height: 600, channels: 3, background: RED } }).webp().toBuffer());

/** A 1×1 PNG whose header says 10000×5000 (50 megapixels), its CRC right: only the header tells. */
function hugePngHeader(): Buffer {
  const bytes = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAMAAAAoyzS7AAAAA1BMVEXAOSuU7d9gAAAACklEQVQI12NgAAAAAgAB4iG8MwAAAABJRU5ErkJggg==', 'base64');
  bytes.writeUInt32BE(10_000, 16);
  bytes.writeUInt32BE(5_000, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');

httpSuite('recipe photos', {}, function (server) {
  this.timeout(20_000);

  const put = (client: Client, path: string, bytes: Uint8Array, type: string, headers: Record<string, string> = {}) =>
    client.request('PUT', `${path}/image`, { rawBody: bytes, headers: { 'Content-Type': type, ...headers } });

  async function recipe(title = 'Fiskesuppe', extra: Record<string, unknown> = {}) {
    const h = await server.household();
    const res = await h.owner.post(`${h.base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], ...extra });
    expect(res.status, res.text).to.equal(201);
    return { h, path: `${h.base}/recipes/${res.json.id}`, created: res.json };
  }

  /** The picture the recipe serves, decoded: its size, its type and metadata, and the colour at a point. */
  async function served(owner: Client, href: string) {
    const res = await fetch(server.url + href, { headers: { Cookie: `app_session=${owner.cookie}` } });
    expect(res.status).to.equal(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => {
      const i = (Math.round(y) * info.width + Math.round(x)) * 3;
      return data[i]! > data[i + 2]! ? 'red' : 'blue';
    };
    return { contentType: res.headers.get('content-type'), etag: res.headers.get('etag'), meta, at };
  }

  it('keeps a large sideways JPEG upright and at most 1600 px, as WebP without EXIF, in place of an imported picture', async () => {
    const { h, path } = await recipe('Fiskesuppe', { imageUrl: 'https://img.example/fiskesuppe.png' });
    const res = await put(h.owner, path, await sidewaysJpeg(), 'image/jpeg');
    expect(res.status, res.text).to.equal(200);
    expect(res.json.imageUrl).to.equal(null);
    expect(res.json.image).to.deep.include({ href: `${path}/image`, mediaType: 'image/webp' });
    const pic = await served(h.owner, res.json.image.href);
    expect([pic.contentType, pic.etag, pic.meta.format, pic.meta.width, pic.meta.height]).to.deep.equal(['image/webp', res.json.image.etag, 'webp', 1067, 1600]);
    expect([pic.meta.exif, pic.meta.orientation]).to.deep.equal([undefined, undefined]);
    // Turned right: the left half, red, is on top now.
    expect([pic.at(533, 100), pic.at(533, 1500)]).to.deep.equal(['red', 'blue']);
    expect((await h.owner.get(path)).json.image.etag).to.equal(res.json.image.etag);

    // A save from the form (no imageUrl), or one that clears it, keeps the photo: nothing is fetched over it.
    const { id: _id, createdAt: _c, updatedAt: _u, image: _i, imageUrl: _a, sourceUrl: _s, ingredients: _l, ...content } = res.json;
    const saved = await h.owner.put(path, { ...content, ingredients: [], title: 'Fiskesuppe med safran' });
    expect([saved.status, saved.json.image?.etag]).to.deep.equal([200, res.json.image.etag]);
    const cleared = await h.owner.put(path, { ...content, ingredients: [], imageUrl: null });
    expect(cleared.json.image?.etag).to.equal(res.json.image.etag);
  });

  it('takes a PNG (never enlarged) and a WebP (shrunk), each a new ETag; DELETE takes the picture away', async () => {
    const { h, path } = await recipe();
    const first = await put(h.owner, path, await png(), 'image/png');
    expect(first.status, first.text).to.equal(200);
    const small = await served(h.owner, first.json.image.href);
    expect([small.meta.width, small.meta.height, small.meta.hasAlpha]).to.deep.equal([400, 300, true]);

    const second = await put(h.owner, path, await webp(), 'image/webp');
    expect(second.status, second.text).to.equal(200);
    expect(second.json.image.etag).not.to.equal(first.json.image.etag);
    const wide = await served(h.owner, second.json.image.href);
    expect([wide.etag, wide.meta.width, wide.meta.height]).to.deep.equal([second.json.image.etag, 1600, 400]);

    const removed = await h.owner.delete(`${path}/image`);
    expect([removed.status, removed.text]).to.deep.equal([204, '']);
    const after = (await h.owner.get(path)).json;
    expect([after.image, after.imageUrl]).to.deep.equal([null, null]);
    expectProblem(await h.owner.get(`${path}/image`), 404, 'recipe_image_not_found');
    // Again, with none: the same answer.
    expect((await h.owner.delete(`${path}/image`)).status).to.equal(204);
  });

  it('refuses what is not a photo by its bytes, too many pixels, too many bytes and other types, and changes nothing', async () => {
    const { h, path } = await recipe();
    const kept = (await put(h.owner, path, await png(), 'image/png')).json;
    const refusals: [Uint8Array, string, number, string][] = [
      [SVG, 'image/png', 422, 'recipe_photo_not_an_image'],
      [Buffer.from('Dette er ikke et bilde, bare tekst i en fil som heter suppe.jpg\n'), 'image/jpeg', 422, 'recipe_photo_not_an_image'],
      [hugePngHeader(), 'image/png', 422, 'recipe_photo_too_many_pixels'],
      // A JPEG cut off after its header: of a kept type, but it does not decode.
      [(await sidewaysJpeg()).subarray(0, 3000), 'image/jpeg', 422, 'recipe_photo_unreadable'],
      [await png(), 'image/svg+xml', 415, 'unsupported_media_type'],
      [await png(), 'application/octet-stream', 415, 'unsupported_media_type'],
      [new Uint8Array(15 * 1024 * 1024 + 1), 'image/jpeg', 413, 'payload_too_large'],
    ];
    for (const [bytes, type, status, code] of refusals) expectProblem(await put(h.owner, path, bytes, type), status, code);
    const after = (await h.owner.get(path)).json;
    expect([after.image, after.updatedAt]).to.deep.equal([kept.image, kept.updatedAt]);
  });

  it('is for adults of the household: a Junior is refused, another household finds no recipe', async () => {
    const { h, path } = await recipe();
    const bytes = await png();
    const junior = await h.join('Junior');
    expectProblem(await put(junior.client, path, bytes, 'image/png'), 403, 'adults_only');
    expectProblem(await junior.client.delete(`${path}/image`), 403, 'adults_only');
    const other = await server.household('Andre');
    const theirs = path.replace(h.base, other.base);
    expectProblem(await put(other.owner, theirs, bytes, 'image/png'), 404, 'recipe_not_found');
    expectProblem(await other.owner.delete(`${theirs}/image`), 404, 'recipe_not_found');
    expectProblem(await put(other.owner, path, bytes, 'image/png'), 404, 'household_not_found');
    expect((await h.owner.get(path)).json.image).to.equal(null);
  });

  it('answers a repeat under one Idempotency-Key once, and travels in the household export as the household\'s own', async () => {
    const { h, path } = await recipe();
    const bytes = await png();
    const key = { 'Idempotency-Key': 'photo-1' };
    const first = await put(h.owner, path, bytes, 'image/png', key);
    const repeat = await put(h.owner, path, bytes, 'image/png', key);
    expect([repeat.status, repeat.headers.get('idempotent-replayed'), repeat.json]).to.deep.equal([200, 'true', first.json]);
    expectProblem(await put(h.owner, path, await webp(), 'image/webp', key), 422, 'idempotency_key_reused');

    const doc = (await h.owner.get(`${h.base}/export`)).json;
    expect(doc.recipes[0].image).to.deep.include({ sourceUrl: null, mediaType: 'image/webp' });
    const someone = await server.signedIn('Per');
    const made = await someone.client.request('POST', '/api/v1/households/import', { rawBody: JSON.stringify(doc), headers: { 'Content-Type': 'application/json' } });
    expect(made.status, made.text).to.equal(201);
    const base = `/api/v1/households/${made.json.id}`;
    const [copy] = (await someone.client.get(`${base}/recipes`)).json.items;
    expect(copy.image.etag).to.equal(first.json.image.etag);
  });
});
