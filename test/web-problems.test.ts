import { expect } from 'chai';
import createClient from 'openapi-fetch';
import type { paths } from '../web/src/api/schema.js';
import { ApiProblem, problems, whenSignedOut } from '../web/src/problems.js';

// The web app's client middleware (web/src/problems.ts), run through openapi-fetch itself with a fetch that answers
// what each test says: every answer that is not a success is thrown as the app's ApiProblem, and only a 401 that
// ends a sign-in forgets the person.
describe('the web app\'s problem middleware', () => {
  let signedOut = 0;
  beforeEach(() => {
    signedOut = 0;
    whenSignedOut(() => void signedOut++);
  });

  const clientAnswering = (answer: () => Response | Promise<Response>) => {
    const client = createClient<paths>({ baseUrl: 'http://service.test', fetch: async () => answer() });
    client.use(problems);
    return client;
  };
  const problemJson = (status: number, body: object) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json' } });
  const refusal = async (request: Promise<unknown>): Promise<ApiProblem> => {
    const outcome = await request.then(
      () => null,
      (err: unknown) => err,
    );
    expect(outcome).to.be.an.instanceOf(ApiProblem);
    return outcome as ApiProblem;
  };

  it('throws a problem+json as an ApiProblem with its code, the fields it names and its own members', async () => {
    const client = clientAnswering(() => problemJson(400, { code: 'validation_failed', status: 400, errors: [{ path: 'body.ingredients.2.quantity', message: 'x' }] }));
    const problem = await refusal(client.POST('/api/v1/auth/login', { body: { email: 'a@b.no', password: 'pw' } }));
    expect([problem.status, problem.code]).to.deep.equal([400, 'validation_failed']);
    expect(problem.fields).to.deep.equal(['quantity']);
    expect(problem.paths).to.deep.equal(['body.ingredients.2.quantity']);
    expect(problem.extra['status']).to.equal(400);
    expect(signedOut).to.equal(0);
  });

  it('forgets the person on a 401 that ends the sign-in, and still throws it', async () => {
    const client = clientAnswering(() => problemJson(401, { code: 'unauthenticated' }));
    const problem = await refusal(client.GET('/api/v1/me'));
    expect([problem.status, problem.code]).to.deep.equal([401, 'unauthenticated']);
    expect(signedOut).to.equal(1);
  });

  it('does not forget anyone on a wrong password or a spent sign-in code: they are answers to the sign-in just tried', async () => {
    for (const code of ['invalid_credentials', 'signin_code_spent', 'idp_signin_rejected']) {
      const client = clientAnswering(() => problemJson(401, { code }));
      expect((await refusal(client.POST('/api/v1/auth/login', { body: { email: 'a@b.no', password: 'pw' } }))).code).to.equal(code);
    }
    expect(signedOut).to.equal(0);
  });

  it('lets a success and a 304 through as answers', async () => {
    const ok = await clientAnswering(() => Response.json({ timeZones: ['Europe/Oslo'] })).GET('/api/v1/time-zones');
    expect(ok.data).to.deep.equal({ timeZones: ['Europe/Oslo'] });
    const same = await clientAnswering(() => new Response(null, { status: 304 })).GET('/api/v1/me');
    expect(same.response.status).to.equal(304);
  });

  it('makes an answer with no problem+json a problem with no code, and no answer at all the problem network', async () => {
    const bare = await refusal(clientAnswering(() => new Response('<html>Bad gateway</html>', { status: 502 })).GET('/api/v1/me'));
    expect([bare.status, bare.code]).to.deep.equal([502, null]);
    const none = await refusal(clientAnswering(() => Promise.reject(new TypeError('Failed to fetch'))).GET('/api/v1/me'));
    expect([none.status, none.code]).to.deep.equal([0, 'network']);
    expect(signedOut).to.equal(0);
  });
});
