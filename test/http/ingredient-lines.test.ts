import { expect } from 'chai';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Client, signedInClient } from '../support/client.js';

// The recipe editor sends the lines a person typed or pasted and shows what the service read: the browser has no
// reader of its own, so a line reads the same in the editor as in a recipe imported from a page.
for (const kind of databaseKinds()) {
  describe(`ingredient lines over HTTP [${kind.name}]`, function () {
    let server: TestServer;
    let client: Client;
    before(async () => {
      server = await startTestServer(kind);
      ({ client } = await signedInClient(server.url));
    });
    after(async () => server.stop());

    it('reads fractions, a vulgar fraction and a unit alias as the recipe import does', async () => {
      const res = await client.post('/api/v1/ingredient-lines', { lines: ['1/2 ts salt', '½ rødløk', '400 g kjøttdeig', '1,5 dl fløte'] });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.dropped).to.equal(0);
      expect(res.json.lines.map((l: { displayName: string; quantity: number | null; unit: string | null; confidence: string }) => [l.displayName, l.quantity, l.unit, l.confidence])).to.deep.equal([
        ['salt', 0.5, 'tsp', 'high'],
        ['rødløk', 0.5, 'pcs', 'high'],
        ['kjøttdeig', 400, 'g', 'high'],
        ['fløte', 1.5, 'dl', 'high'],
      ]);
      expect(res.json.lines[0]).to.include({ original: '1/2 ts salt', note: null, optional: false });
    });

    it('keeps a line it cannot read whole, and leaves headings and separators out, counted (a clove keeps its word: two cloves are not two heads)', async () => {
      const res = await client.post('/api/v1/ingredient-lines', { lines: ['Til sausen:', 'salt', '—', '2 fedd hvitløk (valgfritt)'] });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.dropped).to.equal(2);
      expect(res.json.lines).to.have.length(2);
      expect(res.json.lines[0]).to.include({ displayName: 'salt', quantity: null, unit: null, confidence: 'low' });
      expect(res.json.lines[1]).to.include({ displayName: 'fedd hvitløk', quantity: 2, unit: 'pcs', optional: true });
    });

    it('refuses more than 200 lines and a line over 500 characters, and a caller who is not signed in', async () => {
      const many = await client.post('/api/v1/ingredient-lines', { lines: Array.from({ length: 201 }, () => '1 løk') });
      expect(many.status).to.equal(400);
      expect(many.json.code).to.equal('value_too_long');
      const long = await client.post('/api/v1/ingredient-lines', { lines: ['x'.repeat(501)] });
      expect(long.status).to.equal(400);
      expect(long.json.code).to.equal('value_too_long');
      const edge = await client.post('/api/v1/ingredient-lines', { lines: Array.from({ length: 200 }, () => `1 ${'x'.repeat(498)}`) });
      expect(edge.status, edge.text).to.equal(200);
      expect(edge.json.lines).to.have.length(200);
      const stranger = await new Client(server.url).post('/api/v1/ingredient-lines', { lines: ['1 løk'] });
      expect(stranger.status).to.equal(401);
      expect(stranger.json.code).to.equal('unauthenticated');
    });
  });
}
