import { expect } from 'chai';
import { exactRoutes } from '../../adapters/http/app.js';

const route = (method: string, path: string) => ({ method, template: path.split('/'), answer: `${method} ${path}` });

describe('exactRoutes: the paths answered without the router', () => {
  it('holds a route without parameters by its method and exact path, and a GET route for HEAD too', () => {
    const table = exactRoutes([route('GET', '/api/v1/me'), route('PATCH', '/api/v1/me'), route('POST', '/api/v1/auth/login')]);
    expect(table.get('GET')?.get('/api/v1/me')).to.equal('GET /api/v1/me');
    expect(table.get('HEAD')?.get('/api/v1/me')).to.equal('GET /api/v1/me');
    expect(table.get('PATCH')?.get('/api/v1/me')).to.equal('PATCH /api/v1/me');
    expect(table.get('POST')?.get('/api/v1/auth/login')).to.equal('POST /api/v1/auth/login');
    expect(table.get('HEAD')?.has('/api/v1/auth/login') ?? false).to.equal(false);
    expect(table.get('GET')?.has('/api/v1/me/') ?? false).to.equal(false);
  });

  it('leaves out a route with a parameter, and a path that another route of the same method could also match', () => {
    const table = exactRoutes([
      route('GET', '/api/v1/households/:householdId'),
      route('GET', '/api/v1/households/mine'),
      route('POST', '/api/v1/households/import'),
      route('GET', '/api/v1/twice'),
      route('GET', '/api/v1/twice'),
    ]);
    expect([...(table.get('GET')?.keys() ?? [])]).to.deep.equal([]);
    expect([...(table.get('HEAD')?.keys() ?? [])]).to.deep.equal([]);
    // By another method nothing else matches it: the import is held.
    expect(table.get('POST')?.get('/api/v1/households/import')).to.equal('POST /api/v1/households/import');
  });

  it('leaves out a path a HEAD route could match from HEAD only', () => {
    const table = exactRoutes([route('GET', '/a/b'), route('HEAD', '/a/:x')]);
    expect(table.get('GET')?.get('/a/b')).to.equal('GET /a/b');
    expect(table.get('HEAD')?.has('/a/b') ?? false).to.equal(false);
  });
});
