import type { PublicDataFile, PublicDataFiles } from '../../ports/public-data-files.js';

/**
 * An in-process copy of each stored file, keyed by its SHA-256: `get` reads only the small head row and answers
 * from the copy while the stored sha256 is the copy's. Another process's rebuild changes the stored sha256, and the
 * next request reads the new bytes once. (One small read per request keeps every process current at once; the
 * downloads are rate-limited per IP, so it costs little.)
 */
export function cachedPublicDataFiles(inner: PublicDataFiles): PublicDataFiles {
  const copies = new Map<string, PublicDataFile>();
  return {
    async put(file) {
      await inner.put(file);
      copies.set(file.name, file);
    },
    async get(name) {
      const head = await inner.head(name);
      if (!head) {
        copies.delete(name);
        return null;
      }
      const copy = copies.get(name);
      if (copy && copy.sha256 === head.sha256) return copy;
      const file = await inner.get(name);
      if (file) copies.set(name, file);
      else copies.delete(name);
      return file;
    },
    head: (name) => inner.head(name),
  };
}
