import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import type { FilePacker } from '../../ports/file-packer.js';

const gzipAsync = promisify(gzip);

/**
 * node:zlib at the best compression (a file is built rarely and downloaded often). Node writes no file name and a
 * zero modification time into the gzip header, so the same text gives the same bytes on every run.
 */
export function gzipFilePacker(): FilePacker {
  return {
    async gzip(text) {
      const bytes = await gzipAsync(Buffer.from(text, 'utf8'), { level: constants.Z_BEST_COMPRESSION });
      return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    },
  };
}
