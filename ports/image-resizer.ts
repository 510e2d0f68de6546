import type { RecipeImageType } from '../core/recipes/types.js';

/**
 * Why a photo was not taken. Each is the photo's doing: the bytes are judged as a recipe's imported picture is
 * (ports/recipe-image.ts), and then must decode.
 */
export type PhotoRefusal =
  | 'not-an-image' // the bytes sniff as none of JPEG, PNG and WebP (SVG, HTML, a text file named .jpg...): the declared type is not trusted
  | 'too-many-pixels' // the header declares more than 40 megapixels (read before anything decodes it)
  | 'unreadable'; // of a kept type by its header, but it does not decode (cut off, damaged)

/** A photo made fit to keep: re-encoded, no larger than asked, upright, without metadata. */
export interface FittedImage {
  readonly mediaType: RecipeImageType;
  readonly bytes: Uint8Array;
  /** A strong ETag of the bytes, quotes included. */
  readonly etag: string;
  readonly width: number;
  readonly height: number;
}

/** Makes a photo a household sends fit to keep as a recipe's picture. */
export interface ImageResizer {
  /**
   * Judges `bytes` by what they are (a JPEG, PNG or WebP whose header declares at most 40 megapixels), decodes them,
   * turns the picture as its EXIF orientation says, shrinks it (never enlarges) so that its longer side is at most
   * `maxSide` pixels with its aspect kept, and re-encodes it without any metadata (no EXIF: no place, no camera).
   */
  fit(bytes: Uint8Array, maxSide: number): Promise<{ readonly ok: true; readonly image: FittedImage } | { readonly ok: false; readonly reason: PhotoRefusal }>;
}
