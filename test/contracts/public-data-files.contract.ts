import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { PublicDataFile } from '../../ports/public-data-files.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at } from './fixtures.js';

const fileOf = (name: string, bytes: Uint8Array, builtAt: string): PublicDataFile => ({
  name,
  bytes,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  builtAt: at(builtAt),
});

/** Compared as bytes: a store may hand back a Buffer for the Uint8Array it was given. */
const plain = (f: PublicDataFile | null) => f && { ...f, bytes: Buffer.from(f.bytes).toString('hex') };

export function publicDataFilesContract(backend: Backend): void {
  storeSuite(backend, 'PublicDataFiles', (s) => {
    it('knows no file before one is put', async () => {
      expect(await s.publicDataFiles.get('food-db-derived.jsonl.gz')).to.equal(null);
      expect(await s.publicDataFiles.head('food-db-derived.jsonl.gz')).to.equal(null);
    });

    it('round-trips the bytes exactly (every byte value, NULs, a megabyte), the sha256 and builtAt to the millisecond', async () => {
      const every = new Uint8Array(512).map((_, i) => i % 256);
      const big = new Uint8Array(randomBytes(1024 * 1024));
      const a = fileOf('library-derived.jsonl.gz', every, '2026-05-04T04:41:00.123Z');
      const b = fileOf('food-db-derived.jsonl.gz', big, '2026-05-04T04:41:01.999Z');
      await s.publicDataFiles.put(a);
      await s.publicDataFiles.put(b);
      expect(plain(await s.publicDataFiles.get(a.name))).to.deep.equal(plain(a));
      expect(plain(await s.publicDataFiles.get(b.name))).to.deep.equal(plain(b));
      expect(await s.publicDataFiles.head(a.name)).to.deep.equal({ name: a.name, sha256: a.sha256, size: 512, builtAt: a.builtAt });
      expect(await s.publicDataFiles.head(b.name)).to.deep.equal({ name: b.name, sha256: b.sha256, size: 1024 * 1024, builtAt: b.builtAt });
    });

    it('keeps an empty file apart from none', async () => {
      const empty = fileOf('library-derived.jsonl.gz', new Uint8Array(0), '2026-05-04T04:41:00.000Z');
      await s.publicDataFiles.put(empty);
      expect(plain(await s.publicDataFiles.get(empty.name))).to.deep.equal(plain(empty));
      expect((await s.publicDataFiles.head(empty.name))?.size).to.equal(0);
    });

    it('replaces the file stored under a name, leaving the others as they were', async () => {
      const first = fileOf('food-db-derived.jsonl.gz', Buffer.from('first'), '2026-05-03T04:41:00.000Z');
      const other = fileOf('library-derived.jsonl.gz', Buffer.from('library'), '2026-05-03T04:41:00.000Z');
      const second = fileOf('food-db-derived.jsonl.gz', Buffer.from('second, longer'), '2026-05-04T04:41:00.500Z');
      await s.publicDataFiles.put(first);
      await s.publicDataFiles.put(other);
      expect(plain(await s.publicDataFiles.get(first.name))).to.deep.equal(plain(first));
      await s.publicDataFiles.put(second);
      expect(plain(await s.publicDataFiles.get(first.name))).to.deep.equal(plain(second));
      expect(await s.publicDataFiles.head(first.name)).to.deep.equal({ name: second.name, sha256: second.sha256, size: 14, builtAt: second.builtAt });
      expect(plain(await s.publicDataFiles.get(other.name))).to.deep.equal(plain(other));
    });
  });
}
