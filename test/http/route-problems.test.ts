import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { createRuntime, type Runtime } from '../../bootstrap/runtime.js';
import { loadConfig } from '../../config/config.js';
import { jsonLogger } from '../../adapters/log/json-logger.js';
import { buildOpenApi } from '../../adapters/http/openapi.js';
import { answersOf, HttpProblem, problemFor } from '../../adapters/http/problem.js';
import { mount, resource } from '../../adapters/http/route.js';
import { fail, ok, type Result } from '../../core/kernel/result.js';
import type { ErrorOf } from '../../core/kernel/errors.js';

// A use case that can fail two ways, as core's use cases declare their failures.
const findPlan = (id: string): Result<{ id: string }, ErrorOf<'household-not-found' | 'plan-not-found'>> =>
  id === 'h' ? fail({ type: 'household-not-found' }) : id === 'p' ? fail({ type: 'plan-not-found' }) : ok({ id });

const { route, handledRoute } = resource<{ readonly name: string }>('Examples');
const declaration = { method: 'GET', path: '/api/v1/example', operationId: 'example', summary: 'An example', responses: { 200: { description: 'It' } } } as const;

// Both failures declared: compiles, and both are documented.
const whole = route({ ...declaration, errors: ['household-not-found', 'plan-not-found'], run: () => findPlan('x') });
// One failure left out: the compiler refuses the route (tsc runs over test/, so the expectation is checked).
// @ts-expect-error plan-not-found is not declared
const partial = route({ ...declaration, errors: ['household-not-found'], run: () => findPlan('x') });
// @ts-expect-error no failure declared
const none = route({ ...declaration, run: () => findPlan('x') });
const handled = handledRoute({
  ...declaration,
  errors: ['household-not-found'],
  handle: (ctx, { refuse }) => {
    const result = findPlan('x');
    // @ts-expect-error a handled route can only refuse with a declared failure
    if (!result.ok) throw refuse(result.error);
    ctx.body = result.value;
  },
});

describe('routes and their problems', () => {
  it('a route kit route documents the problems of the failures it declares, and takes the resource\'s defaults', () => {
    const [r, p, n, h] = mount({ name: 'x' }, [whole, partial, none, handled]);
    expect(r).to.include({ tag: 'Examples', auth: 'session', rateLimit: 'backstop' });
    expect(r!.problems).to.deep.equal({ household_not_found: 404, plan_not_found: 404 });
    expect(p!.problems).to.deep.equal({ household_not_found: 404 });
    expect(n!.problems).to.deep.equal({});
    expect(h!.errors).to.deep.equal(['household-not-found']);
  });

  it('answers a failure with the problem of the table, a parametric one with its values', () => {
    const notFound = problemFor({ type: 'household-not-found' });
    expect(notFound).to.be.an.instanceOf(HttpProblem);
    expect(notFound).to.include({ status: 404, code: 'household_not_found', title: 'Household not found', detail: 'no household with this id has the caller as a member' });
    const paused = problemFor({ type: 'ai-paused', until: new Date('2026-12-01T00:00:00Z') });
    expect(paused).to.include({ status: 429, code: 'ai_paused' });
    expect(paused.extensions).to.deep.equal({ until: '2026-12-01T00:00:00.000Z' });
    expect(paused.headers).to.deep.equal({ 'Retry-After': 'Tue, 01 Dec 2026 00:00:00 GMT' });
    const page = problemFor({ type: 'recipe-page-failed', reason: 'timeout' });
    expect(page).to.include({ status: 422, code: 'recipe_page_timeout' });
    expect(answersOf('recipe-page-failed').map((a) => a.code)).to.include.members(['recipe_url_forbidden', 'recipe_page_timeout', 'recipe_not_on_page']);
  });

  describe('of the service', () => {
    let runtime: Runtime;
    let doc: { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    before(async function () {
      this.timeout(30_000);
      const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', WEB_DIR: '/nonexistent' });
      runtime = await createRuntime(config, { logger: jsonLogger('silent') });
      doc = buildOpenApi(runtime.routes, { version: '0', publicBaseUrl: 'http://localhost', problemBaseUrl: 'http://localhost/problems' }) as typeof doc;
    });
    after(() => runtime.close());

    it('list in the OpenAPI document every problem of every failure they declare, at its status', () => {
      let checked = 0;
      const missing: string[] = [];
      for (const r of runtime.routes) {
        const responses = doc.paths[r.path]![r.method.toLowerCase()]!.responses;
        const codes = [...Object.entries(r.problems ?? {})];
        for (const type of r.errors ?? []) for (const a of answersOf(type)) codes.push([a.code, a.status]);
        for (const [code, status] of codes) {
          checked++;
          const text = responses[String(status)]?.description ?? '';
          if (!new RegExp(`(^|[ ;,(])${code}\\b`).test(text)) missing.push(`${r.operationId}: ${status} ${code}`);
        }
      }
      expect(missing).to.deep.equal([]);
      expect(checked).to.be.greaterThan(150);
    });

    it('are declared through the route kit: no route file makes a problem of a failure by itself', () => {
      const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
      const routeFiles = files('adapters/http/routes');
      const own = routeFiles.filter((f) => /\bproblemFor\b/.test(readFileSync(f, 'utf8')));
      expect(routeFiles.length).to.be.greaterThan(20);
      expect(own).to.deep.equal([]);
    });
  });
});
