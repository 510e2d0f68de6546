import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { knexPublicDataFiles } from '../../adapters/knex/public-data-files.js';
import type { PublicDataFile } from '../../ports/public-data-files.js';
import { databaseKinds, withTwoConnections } from '../support/databases.js';

const fileOf = (text: string, builtAt: string): PublicDataFile => {
  const bytes = Buffer.from(text);
  return { name: 'food-db-derived.jsonl.gz', bytes, sha256: createHash('sha256').update(bytes).digest('hex'), builtAt: new Date(builtAt) };
};

for (const kind of databaseKinds()) {
  describe(`public data files shared by processes [${kind.name}]`, () => {
    it('a process serving its in-process copy reads the new bytes once another process has stored them', async () => {
      await withTwoConnections(kind, async (a, b) => {
        const builder = knexPublicDataFiles(a.knex);
        const server = knexPublicDataFiles(b.knex);
        const first = fileOf('first build', '2026-05-04T04:41:00.000Z');
        await builder.put(first);
        const read = await server.get(first.name);
        expect(Buffer.from(read!.bytes).toString()).to.equal('first build');
        // Served again from the copy: the very same bytes object.
        expect((await server.get(first.name))!.bytes).to.equal(read!.bytes);
        const second = fileOf('second build', '2026-05-05T04:41:00.000Z');
        await builder.put(second);
        const again = await server.get(first.name);
        expect([Buffer.from(again!.bytes).toString(), again!.sha256, again!.builtAt]).to.deep.equal(['second build', second.sha256, second.builtAt]);
      });
    });
  });
}
