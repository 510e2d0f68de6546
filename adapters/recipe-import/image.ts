import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { RECIPE_IMAGE_TYPES, type RecipeImageFailure, type RecipeImageFetcher, type RecipeImageType } from '../../ports/recipe-image.js';
import { createOutboundGuard, type HostLookup } from '../outbound/guard.js';
import { OutboundFetchFailed, outboundFetch } from '../outbound/http-get.js';
import { FETCH_FAILURES } from './reader.js';
import { sniffedMediaType } from '../first-use.js';

export interface RecipeImageFetcherOptions {
  /** host:port pairs let through although loopback or private: tests only (OUTBOUND_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** The whole fetch, redirects included, first connect to last byte. */
  timeoutMs: number;
  /** Bytes of the image, counted after any gzip or brotli is undone. */
  maxBytes: number;
  /** Sent as User-Agent: sites refuse a fetch that does not say who it is. */
  userAgent: string;
  lookup?: HostLookup;
  /** The most pixels an image's header may declare; 40 megapixels when not given. */
  maxPixels?: number;
}

/** The most pixels a kept picture's header may declare, fetched or uploaded. */
export const DEFAULT_MAX_PIXELS = 40_000_000;


const isKept = (mime: string | undefined): mime is RecipeImageType => (RECIPE_IMAGE_TYPES as readonly string[]).includes(mime ?? '');

/** A strong tag of the bytes: 162 bits of their SHA-256. */
export const etagOf = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** Fetches a recipe's image through the outbound guard; keeps it only when its bytes are a JPEG, PNG or WebP of sane size. */
export function createRecipeImageFetcher(o: RecipeImageFetcherOptions): RecipeImageFetcher {
  const guard = createOutboundGuard({ allowHosts: o.allowHosts, lookup: o.lookup, dnsTimeoutMs: o.timeoutMs });
  const maxPixels = o.maxPixels ?? DEFAULT_MAX_PIXELS;
  const fetchOptions = {
    timeoutMs: o.timeoutMs,
    maxBytes: o.maxBytes,
    maxRedirects: 5,
    accept: 'image/avif,image/webp,image/png,image/jpeg;q=0.9,*/*;q=0.1',
    userAgent: o.userAgent,
    decompress: true,
  };
  const refuse = (reason: RecipeImageFailure) => ({ ok: false, reason }) as const;
  return {
    async fetch(url) {
      let body: Buffer;
      try {
        body = (await outboundFetch(guard, url, fetchOptions)).body;
      } catch (e) {
        if (e instanceof OutboundFetchFailed) return refuse(FETCH_FAILURES[e.reason]);
        throw e;
      }
      const inspected = await inspectImage(body, maxPixels);
      if (!inspected.ok) return refuse(inspected.reason);
      // A copy: a small Buffer can be a view into Node's shared pool, whose other bytes must not travel with it.
      const bytes = new Uint8Array(body);
      return { ok: true, image: { sourceUrl: url, mediaType: inspected.mediaType, bytes, etag: etagOf(bytes) } };
    },
  };
}

/**
 * What a recipe's picture is by its bytes, and its tag: a JPEG, PNG or WebP whose header is well formed and
 * declares at most `maxPixels`. The declared Content-Type (or a file's own word) is not asked: what the bytes are
 * decides, so HTML or SVG sent as image/png stays out. The recipe fetcher and the household import both judge so.
 */
export async function inspectImage(
  bytes: Uint8Array,
  maxPixels = DEFAULT_MAX_PIXELS,
): Promise<{ readonly ok: true; readonly mediaType: RecipeImageType; readonly etag: string } | { readonly ok: false; readonly reason: 'not-an-image' | 'too-many-pixels' }> {
  const mediaType = await sniffedMediaType(bytes);
  if (!isKept(mediaType)) return { ok: false, reason: 'not-an-image' };
  const size = declaredSize(mediaType, bytes);
  if (!size) return { ok: false, reason: 'not-an-image' };
  if (size.width * size.height > maxPixels) return { ok: false, reason: 'too-many-pixels' };
  return { ok: true, mediaType, etag: etagOf(bytes) };
}

export interface DeclaredSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The width and height an image's header declares, read the way a decoder finds them and nothing decoded; null
 * when the header is not there or not well formed, since a decoder would then read it some other way or not at all.
 */
export function declaredSize(type: RecipeImageType, bytes: Uint8Array): DeclaredSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (type) {
    case 'image/png':
      return pngSize(bytes, view);
    case 'image/jpeg':
      return jpegSize(bytes, view);
    case 'image/webp':
      return webpSize(bytes, view);
  }
}

const sized = (width: number, height: number): DeclaredSize | null => (width > 0 && height > 0 ? { width, height } : null);
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** PNG: the IHDR chunk, which must come first, be 13 bytes long and pass its CRC (decoders refuse it otherwise). */
function pngSize(bytes: Uint8Array, view: DataView): DeclaredSize | null {
  if (bytes.length < 33 || view.getUint32(8) !== 13 || ascii(bytes, 12, 4) !== 'IHDR') return null;
  if (crc32(bytes.subarray(12, 29)) !== view.getUint32(29)) return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width <= 0x7fffffff && height <= 0x7fffffff ? sized(width, height) : null;
}

/**
 * JPEG: the first frame header (SOF0..SOF15 less DHT, JPG and DAC), found by walking the segments by their lengths
 * from the start, as a decoder does. Scan data is never searched: bytes in it that look like a small frame header
 * must not speak for the real one before it. A scan or the end before any frame header is unreadable.
 */
function jpegSize(bytes: Uint8Array, view: DataView): DeclaredSize | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    while (bytes[at] === 0xff) at++; // fill bytes may pad a marker
    const marker = bytes[at++];
    if (marker === undefined || marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) return null;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // standalone: no length follows
    if (at + 2 > bytes.length) return null;
    const length = view.getUint16(at);
    if (length < 2 || at + length > bytes.length) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      // precision (1), height (2), width (2), components (1). A height of 0 waits for a DNL marker: not read here.
      return length >= 8 ? sized(view.getUint16(at + 5), view.getUint16(at + 3)) : null;
    }
    at += length;
  }
  return null;
}

/**
 * WebP: the first chunk, as libwebp reads it. VP8X declares the canvas, which a still image must match and every
 * frame of an animation must fit in; VP8 (lossy) and VP8L (lossless) declare the one image they hold.
 */
function webpSize(bytes: Uint8Array, view: DataView): DeclaredSize | null {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return null;
  const chunk = ascii(bytes, 12, 4);
  const uint24 = (at: number) => view.getUint16(at, true) | (bytes[at + 2]! << 16);
  switch (chunk) {
    case 'VP8X':
      return sized(1 + uint24(24), 1 + uint24(27));
    case 'VP8 ': {
      // A key frame (bit 0 of the frame tag clear), then the start code 9d 01 2a, then 14-bit sizes (2 bits of scale above).
      const keyFrame = (bytes[20]! & 1) === 0 && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a;
      return keyFrame ? sized(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff) : null;
    }
    case 'VP8L': {
      // The signature 0x2f, then width-1 and height-1 in 14 bits each, the alpha hint, and a 3-bit version that must be 0.
      if (bytes[20] !== 0x2f) return null;
      const bits = view.getUint32(21, true);
      if (bits >>> 29 !== 0) return null;
      return sized(1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff));
    }
    default:
      return null;
  }
}
