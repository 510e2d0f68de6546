/**
 * Seeded, deterministic numbers: the same seed gives the same sequence everywhere (dinner-price draws, the sample
 * catalogue's generator, seeded property tests). Nothing here is random in the platform sense.
 */

/** mulberry32: a small 32-bit generator, uniform enough for drawing recipes; answers numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a (32 bit) over the UTF-16 code units of `text`: a seed anyone can derive again from its label. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
