/** Turns a built document into the bytes of a download: gzipped, and named by the SHA-256 of those bytes. */
export interface FilePacker {
  /** The same text always gives the same bytes (no time or name in the gzip header). */
  gzip(text: string): Promise<{ bytes: Uint8Array; sha256: string }>;
}
