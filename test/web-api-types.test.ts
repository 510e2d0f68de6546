import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SCHEMA_FILE, webApiTypes } from '../scripts/web-api-types.js';

// The web app speaks to the service only through types generated from the service's own OpenAPI document: a route
// or schema changed without `npm run web:types` fails here, so the two cannot drift apart.
describe('the web app\'s API types', () => {
  it('are what the service\'s OpenAPI document makes now (npm run web:types writes them)', async function () {
    this.timeout(60_000);
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const fresh = await webApiTypes();
    expect(committed === fresh, 'web/src/api/schema.d.ts is stale: run npm run web:types').to.equal(true);
    expect(fresh).to.include('"/api/v1/households/{householdId}/plans/{planId}/shopping-list"');
  });
});
