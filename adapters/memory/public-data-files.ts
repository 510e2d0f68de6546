import type { PublicDataFile, PublicDataFiles } from '../../ports/public-data-files.js';

const copy = (f: PublicDataFile): PublicDataFile => ({ name: f.name, bytes: new Uint8Array(f.bytes), sha256: f.sha256, builtAt: new Date(f.builtAt.getTime()) });

/** The built downloads in memory (one process: nothing to share). */
export function memoryPublicDataFiles(): PublicDataFiles {
  const files = new Map<string, PublicDataFile>();
  return {
    async put(file) {
      files.set(file.name, copy(file));
    },
    async get(name) {
      const f = files.get(name);
      return f ? copy(f) : null;
    },
    async head(name) {
      const f = files.get(name);
      return f ? { name: f.name, sha256: f.sha256, size: f.bytes.byteLength, builtAt: new Date(f.builtAt.getTime()) } : null;
    },
  };
}
