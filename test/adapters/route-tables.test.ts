/** How a request finds its route without @koa/router's matching (adapters/http/app.ts), and that it finds the router's. */
import { expect } from 'chai';
import { Router } from '@koa/router';
import { exactRoutes, segmentRoutes } from '../../adapters/http/app.js';

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

  it("holds a path only where its route is the router's: the first registered of the method that matches it", () => {
    const tagged = (method: string, path: string, tag: string) => ({ ...route(method, path), answer: `${tag}: ${method} ${path}` });
    const table = exactRoutes([
      tagged('GET', '/api/v1/households/:householdId', '1'),
      tagged('GET', '/api/v1/households/mine', '2'),
      tagged('POST', '/api/v1/households/import', '3'),
      tagged('GET', '/api/v1/twice', '4'),
      tagged('GET', '/api/v1/twice', '5'),
      tagged('GET', '/a/b', '6'),
      tagged('HEAD', '/a/:x', '7'),
      tagged('HEAD', '/c/:x', '8'),
      tagged('GET', '/c/d', '9'),
      tagged('GET', '/cal/:token.ics', '10'),
      tagged('GET', '/cal/feed.ics', '11'),
      tagged('GET', '/other/feed.ics', '12'),
    ]);
    // A route with a parameter registered first answers 'mine'; of two the same, the first; a GET route registered
    // before a HEAD route answers HEAD, one registered after does not; a path the router's own route comes first for
    // is left to it, one whose fixed segments differ from that route's is not.
    expect(Object.fromEntries(table.get('GET') ?? [])).to.deep.equal({
      '/api/v1/twice': '4: GET /api/v1/twice',
      '/a/b': '6: GET /a/b',
      '/c/d': '9: GET /c/d',
      '/other/feed.ics': '12: GET /other/feed.ics',
    });
    expect(Object.fromEntries(table.get('HEAD') ?? [])).to.deep.equal({
      '/api/v1/twice': '4: GET /api/v1/twice',
      '/a/b': '6: GET /a/b',
      '/other/feed.ics': '12: GET /other/feed.ics',
    });
    expect(Object.fromEntries(table.get('POST') ?? [])).to.deep.equal({ '/api/v1/households/import': '3: POST /api/v1/households/import' });
  });
});

describe('segmentRoutes: the route of a path with parameters', () => {
  const find = (routes: ReturnType<typeof route>[], method: string, path: string) => segmentRoutes(routes)(method, path.split('/'));

  it('answers the route and its parameters, percent-decoded, or as sent when they do not decode', () => {
    const routes = [route('GET', '/api/v1/households/:householdId/plans/:planId/shopping-list')];
    expect(find(routes, 'GET', '/api/v1/households/h1/plans/p%2F2/shopping-list')).to.deep.equal({ answer: 'GET /api/v1/households/:householdId/plans/:planId/shopping-list', params: { householdId: 'h1', planId: 'p/2' } });
    expect(find(routes, 'HEAD', '/api/v1/households/h1/plans/%E0%A4%A/shopping-list')?.params).to.deep.equal({ householdId: 'h1', planId: '%E0%A4%A' });
    expect(find(routes, 'POST', '/api/v1/households/h1/plans/p2/shopping-list')).to.equal(null);
    expect(find(routes, 'GET', '/api/v1/households//plans/p2/shopping-list')).to.equal(null);
    expect(find(routes, 'GET', '/api/v1/households/h1/plans/p2/Shopping-list')).to.equal(null);
    expect(find(routes, 'GET', '/api/v1/households/h1/plans/p2/shopping-list/')).to.equal(null);
  });

  it('answers the first route registered that matches, and leaves a path to the router when a route it cannot read comes first', () => {
    const routes = [route('GET', '/a/:x/c'), route('GET', '/a/b/c'), route('GET', '/cal/:token.ics'), route('GET', '/cal/:name')];
    expect(find(routes, 'GET', '/a/b/c')?.answer).to.equal('GET /a/:x/c');
    expect(find(routes, 'GET', '/cal/abc.ics')).to.equal(null);
    expect(find(routes, 'GET', '/a/b/d')).to.equal(null);
    // The router's own route has fixed segments the path does not share: it cannot be the path's, and is passed.
    expect(find([route('GET', '/cal/:token.ics'), route('GET', '/push/:deviceId')], 'GET', '/push/d1')).to.deep.equal({ answer: 'GET /push/:deviceId', params: { deviceId: 'd1' } });
  });

  it('finds what @koa/router finds, route and parameters, for every method and path tried', async () => {
    const templates: [string, string][] = [
      ['GET', '/api/v1/me'],
      ['PATCH', '/api/v1/me'],
      ['GET', '/api/v1/households/:householdId'],
      ['PATCH', '/api/v1/households/:householdId'],
      ['POST', '/api/v1/households/import'],
      ['GET', '/api/v1/households/:householdId/export'],
      ['GET', '/api/v1/households/:householdId/plans/:planId'],
      ['GET', '/api/v1/households/:householdId/plans/:planId/shopping-list'],
      ['POST', '/api/v1/households/:householdId/plans/:planId/shopping-list/generate'],
      ['POST', '/api/v1/households/:householdId/plans/:planId/shopping-list/items'],
      ['PATCH', '/api/v1/households/:householdId/plans/:planId/shopping-list/items/:itemId'],
      ['GET', '/api/v1/households/mine'],
      ['GET', '/api/v1/calendar/:token.ics'],
      ['DELETE', '/api/v1/push-devices/:deviceId'],
      ['GET', '/x/b'],
      ['HEAD', '/x/:y'],
      ['HEAD', '/z/:y'],
      ['GET', '/z/d'],
    ];
    const routes = templates.map(([method, path]) => route(method, path));
    const router = new Router({ strict: true, sensitive: true });
    for (const r of routes) router.register(r.template.join('/'), [r.method], async (ctx) => void (ctx.state.ran = r.answer), {});
    const dispatch = router.routes();
    const routerFinds = async (method: string, path: string) => {
      const ctx = { method, path, host: 'localhost', request: {}, state: {} as { ran?: string } } as unknown as Parameters<typeof dispatch>[0] & { state: { ran?: string } };
      await dispatch(ctx, async () => {});
      return ctx.state.ran === undefined ? null : { answer: ctx.state.ran, params: { ...ctx.params } };
    };
    const paths = [
      '/api/v1/me', '/api/v1/me/', '/api/v1/ME', '/api/v1//me', '/api/v1/households/h1', '/api/v1/households/import', '/api/v1/households/mine',
      '/api/v1/households/h%201', '/api/v1/households/h1/export', '/api/v1/households/h1/plans/p1', '/api/v1/households/h1/plans/p1/shopping-list',
      '/api/v1/households/h1/plans//shopping-list', '/api/v1/households/h1/plans/p1/shopping-list/generate', '/api/v1/households/h1/plans/p1/shopping-list/items',
      '/api/v1/households/h1/plans/p1/shopping-list/items/i%2Fx', '/api/v1/households/%E0%A4%A/plans/p1/shopping-list', '/api/v1/calendar/abc.ics',
      '/api/v1/calendar/abc', '/api/v1/push-devices/d1', '/api/v1/push-devices', '/', '/api/v1/households/h1/plans/p1/shopping-list/items/i1/x',
      '/x/b', '/z/d',
    ];
    const table = exactRoutes(routes);
    const find = segmentRoutes(routes);
    let compared = 0;
    let found = 0;
    for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT']) {
      for (const path of paths) {
        const exact = table.get(method)?.get(path);
        const ours = exact !== undefined ? { answer: exact, params: {} } : find(method, path.split('/'));
        const theirs = await routerFinds(method, path);
        // Ours may leave a path to the router (null), never answer another route than it.
        if (ours !== null) expect(ours, `${method} ${path}`).to.deep.equal(theirs);
        if (ours !== null) found++;
        else if (theirs !== null) expect(theirs.answer, `${method} ${path}`).to.equal('GET /api/v1/calendar/:token.ics');
        compared++;
      }
    }
    expect(compared).to.equal(6 * paths.length);
    // GET and HEAD of 11 paths each, POST of 3, PATCH of 6, DELETE of 1 (the router's own 'calendar/abc.ics' aside).
    expect(found).to.equal(32);
  });
});
