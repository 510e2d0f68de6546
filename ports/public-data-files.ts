/** One built public download, as stored: the gzipped bytes named by their SHA-256. */
export interface PublicDataFile {
  /** The file name it is served under, e.g. `food-db-derived.jsonl.gz`. */
  readonly name: string;
  /** Read-only (a store may hand the same bytes to every caller); may be a Buffer: compare bytes, not types. */
  readonly bytes: Uint8Array;
  /** Lower-case hex SHA-256 of `bytes`: the strong ETag. */
  readonly sha256: string;
  /** When these bytes were built (a rebuild that gives the same bytes is not stored, so this stays). */
  readonly builtAt: Date;
}

export type PublicDataFileHead = Omit<PublicDataFile, 'bytes'> & { readonly size: number };

/**
 * The built public downloads, kept in the database so that every server process sharing it serves the same file
 * (built once by whichever process ran the job), never built per request.
 */
export interface PublicDataFiles {
  /** Stores the file under its name, replacing the one stored before. */
  put(file: PublicDataFile): Promise<void>;
  /** The stored file with its bytes; null when none has been built. */
  get(name: string): Promise<PublicDataFile | null>;
  /** The same without the bytes (a small read). */
  head(name: string): Promise<PublicDataFileHead | null>;
}
