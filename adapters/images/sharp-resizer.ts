import type { Sharp, SharpOptions } from 'sharp';
import type { FittedImage, ImageResizer } from '../../ports/image-resizer.js';
import { DEFAULT_MAX_PIXELS, etagOf, inspectImage } from '../recipe-import/image.js';

export interface SharpResizerOptions {
  /** The most pixels a photo's header may declare; 40 megapixels when not given (as for fetched pictures). */
  readonly maxPixels?: number;
  /** WebP quality, 1..100; 80 when not given. */
  readonly quality?: number;
}

type SharpFactory = (input: Uint8Array, options: SharpOptions) => Sharp;

let loaded: Promise<SharpFactory> | null = null;

/**
 * sharp (libvips) on first use, not when the service starts: photos are rare, and libvips with its codecs is tens of
 * megabytes of memory once loaded. Its cache of operations is off (nothing is decoded twice here, and the cache
 * would keep up to 50 MB for ever after); its threads stay as libvips sizes them.
 */
function loadSharp(): Promise<SharpFactory> {
  loaded ??= import('sharp').then(
    ({ default: sharp }) => {
      sharp.cache(false);
      return (input, options) => sharp(input, options);
    },
    (err: unknown) => {
      loaded = null;
      throw err;
    },
  );
  return loaded;
}

/**
 * Photos a household uploads, made fit to keep with sharp: judged first as fetched pictures are (inspectImage: the
 * bytes' own type, the header's size, nothing decoded yet), then decoded, turned upright by their EXIF orientation,
 * shrunk to fit `maxSide` and written as WebP without metadata. One photo at a time: decoding a large one takes
 * hundreds of megabytes for a moment, and two at once on a small server would double it.
 */
export function sharpImageResizer(o: SharpResizerOptions = {}): ImageResizer {
  const maxPixels = o.maxPixels ?? DEFAULT_MAX_PIXELS;
  const quality = o.quality ?? 80;
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    async fit(bytes, maxSide) {
      const inspected = await inspectImage(bytes, maxPixels);
      if (!inspected.ok) return inspected;
      const sharp = await loadSharp();
      return oneAtATime(async () => {
        try {
          return { ok: true, image: await resized(sharp, bytes, maxSide, maxPixels, quality) } as const;
        } catch {
          // libvips refuses what does not decode (cut off, a damaged header or scan): the photo's doing, not ours.
          return { ok: false, reason: 'unreadable' } as const;
        }
      });
    },
  };
}

async function resized(sharp: SharpFactory, bytes: Uint8Array, maxSide: number, maxPixels: number, quality: number): Promise<FittedImage> {
  // failOn 'error': a phone's JPEG with a harmless warning (stray bytes before a marker) is taken, a truncated one not.
  const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: maxPixels, sequentialRead: true })
    .rotate() // upright as EXIF says; the output then carries no orientation (nor any other metadata)
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer({ resolveWithObject: true });
  const out = new Uint8Array(data);
  return { mediaType: 'image/webp', bytes: out, etag: etagOf(out), width: info.width, height: info.height };
}
