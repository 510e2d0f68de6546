/**
 * The MCP endpoint (/mcp) driven by the SDK's own client over a real socket, on SQLite and on Postgres: every tool
 * with a read-and-write token, a read token offered and allowed only the reading ones, the token as the only way in,
 * and nothing of another household, nor any e-mail address, in what the tools answer.
 */
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { Client } from '../support/client.js';
import { expectProblem, httpSuite, type HttpService } from '../support/http-suite.js';
import { ownedHousehold } from '../support/household.js';
import { TEST_RATE_LIMITS } from '../support/server.js';
import { addDish, recipeBody } from '../support/shopping.js';

/** Wednesday 6 May 2026, 11:00 in Oslo: the week runs from Monday 4 May. */
const NOW = new Date('2026-05-06T09:00:00.000Z');
const TODAY = '2026-05-06';
const READING = ['todays_dinner', 'week_dinners', 'shopping_list', 'search_recipes'];
const WRITING = ['add_to_shopping_list', 'tick_shopping_line', 'plan_dinner', 'suggest_week'];

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
}

/** An MCP client connected to the service with a personal access token. */
async function connect(server: HttpService, secret: string): Promise<{ call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>; tools(): Promise<string[]>; close(): Promise<void>; said: string[] }> {
  const client = new McpClient({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
  const said: string[] = [];
  return {
    said,
    async call(name, args = {}) {
      const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
      said.push(JSON.stringify(answer));
      return answer;
    },
    async tools() {
      return (await client.listTools()).tools.map((t) => t.name).sort();
    },
    close: () => client.close(),
  };
}

/** A household with a dish and a second adult, and a token of the Owner's of each scope. */
async function household(server: HttpService) {
  const h = await ownedHousehold(server.url, 'Hansen');
  await h.join('Adult', 'Ola');
  const soup = await addDish(h, recipeBody('Fiskesuppe', 4, [{ displayName: 'torsk', quantity: 400, unit: 'g' }]));
  const token = async (scope: 'read' | 'read-write') => {
    const res = await h.owner.post('/api/v1/me/access-tokens', { name: 'Assist', householdId: h.id, scope });
    expect(res.status, res.text).to.equal(201);
    return res.json.secret as string;
  };
  return { ...h, soup, write: await token('read-write'), read: await token('read') };
}

httpSuite('MCP endpoint', { now: NOW }, (server) => {
  it('offers a read-write token every tool, and each does what its route does for the token\'s household', async () => {
    const h = await household(server);
    const other = await ownedHousehold(server.url, 'Naboen');
    const secret = await addDish(other, recipeBody('Hemmelig gryte', 4, [{ displayName: 'løk', quantity: 1, unit: 'stk' }]));
    const mcp = await connect(server, h.write);
    try {
      expect(await mcp.tools()).to.deep.equal([...READING, ...WRITING].sort());

      const found = await mcp.call('search_recipes', { query: 'suppe' });
      expect(found.structuredContent!['recipes'].map((r: { id: string }) => r.id)).to.deep.equal([h.soup.id]);
      expect((await mcp.call('search_recipes', { query: 'gryte' })).structuredContent!['recipes']).to.deep.equal([]);

      expect((await mcp.call('todays_dinner')).content[0]!.text).to.equal(`${TODAY}: no dinner planned yet.`);
      const planned = await mcp.call('plan_dinner', { date: TODAY, recipeId: h.soup.id, note: 'Med brød' });
      expect(planned.isError, JSON.stringify(planned)).to.not.equal(true);
      expect(planned.structuredContent!['dinner']).to.include({ date: TODAY, dish: 'Fiskesuppe', recipeId: h.soup.id, portions: 2, note: 'Med brød' });
      expect((await mcp.call('todays_dinner')).content[0]!.text).to.equal(`${TODAY}: Fiskesuppe, 2 portions. Med brød.`);
      const week = await mcp.call('week_dinners', { date: '2026-05-10' });
      expect(week.structuredContent!['weekStart']).to.equal('2026-05-04');
      expect(week.structuredContent!['days'].map((d: { date: string; dish: string | null }) => d.dish)).to.deep.equal([null, null, 'Fiskesuppe', null, null, null, null]);
      // The web app sees the same plan.
      const plan = (await h.owner.get(`${h.base}/plans?from=2026-05-04&to=2026-05-10`)).json[0];
      expect(plan.days.find((d: { date: string }) => d.date === TODAY)).to.include({ recipeId: h.soup.id, note: 'Med brød' });

      const refused = await mcp.call('plan_dinner', { date: TODAY, recipeId: secret.id });
      expect(refused.isError).to.equal(true);
      expect(refused.content[0]!.text).to.match(/recipe/i);

      const added = await mcp.call('add_to_shopping_list', { item: '2 l melk' });
      expect(added.structuredContent!['line']).to.include({ name: 'melk', quantity: 2, unit: 'l', ticked: false });
      const list = await mcp.call('shopping_list');
      expect(list.structuredContent!['lines'].map((l: { name: string }) => l.name).sort()).to.deep.equal(['melk', 'torsk']);
      expect(list.content[0]!.text).to.contain('melk: 2 l');
      const ticked = await mcp.call('tick_shopping_line', { line: 'Melk' });
      expect(ticked.structuredContent!['line']).to.include({ name: 'melk', ticked: true });
      const onWeb = (await h.owner.get(`${h.base}/plans/${plan.id}/shopping-list`)).json;
      expect(onWeb.items.find((l: { displayName: string }) => l.displayName === 'melk').status).to.equal('Purchased');
      expect((await mcp.call('tick_shopping_line', { line: 'kaffe' })).isError).to.equal(true);

      const suggested = await mcp.call('suggest_week');
      const days = suggested.structuredContent!['days'] as { date: string; recipeId: string | null }[];
      // From today on, the days without a dinner: today has one.
      expect(days.map((d) => d.date)).to.deep.equal(['2026-05-07', '2026-05-08', '2026-05-09', '2026-05-10']);
      expect(days.every((d) => d.recipeId === h.soup.id)).to.equal(true);
      // A suggestion saves nothing.
      expect((await mcp.call('week_dinners')).structuredContent!['days'].filter((d: { dish: string | null }) => d.dish !== null)).to.have.length(1);

      const everything = mcp.said.join('\n');
      expect(everything).to.not.contain('Hemmelig');
      expect(everything).to.not.contain('Naboen');
      expect(everything).to.not.match(/@example\./);
    } finally {
      await mcp.close();
    }
  });

  it('offers a read token only the reading tools, and refuses the writing ones when called anyway', async () => {
    const h = await household(server);
    const mcp = await connect(server, h.read);
    try {
      expect(await mcp.tools()).to.deep.equal([...READING].sort());
      expect((await mcp.call('search_recipes', { query: 'fisk' })).structuredContent!['recipes']).to.have.length(1);
      expect((await mcp.call('week_dinners')).content[0]!.text).to.equal('The week of 2026-05-04 has no plan yet.');
      for (const name of WRITING) {
        const refused = await mcp.call(name, { item: 'melk', line: 'melk', date: TODAY, recipeId: h.soup.id }).then(
          () => null,
          (err: Error) => err.message,
        );
        expect(refused, name).to.match(new RegExp(`Tool ${name} not found`));
      }
      // Nothing was written: the week has no plan still.
      expect((await h.owner.get(`${h.base}/plans?from=2026-05-04&to=2026-05-10`)).json).to.deep.equal([]);
    } finally {
      await mcp.close();
    }
  });

  it('takes a personal access token and nothing else', async () => {
    const h = await household(server);
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { Accept: 'application/json, text/event-stream' };
    // The session cookie is not a way in.
    await expectProblem(await h.owner.post('/mcp', message, { headers }), 401, 'unauthenticated');
    const bare = new Client(server.url);
    await expectProblem(await bare.post('/mcp', message, { headers: { ...headers, Authorization: 'Bearer dp_pat_nosuchtokennosuchtokennosuchtoken' } }), 401, 'token_invalid');
    const tokens = (await h.owner.get('/api/v1/me/access-tokens')).json as { id: string; scope: string }[];
    await h.owner.delete(`/api/v1/me/access-tokens/${tokens.find((t) => t.scope === 'read')!.id}`);
    await expectProblem(await bare.post('/mcp', message, { headers: { ...headers, Authorization: `Bearer ${h.read}` } }), 401, 'token_invalid');
    // GET would open a stream of a session; the endpoint keeps none.
    expect((await bare.get('/mcp', { headers: { Authorization: `Bearer ${h.write}` } })).status).to.equal(405);
    const listed = await bare.post('/mcp', message, { headers: { ...headers, Authorization: `Bearer ${h.write}` } });
    expect(listed.status, listed.text).to.equal(200);
    // Accepting an event stream, the answer comes as one event.
    expect(listed.headers.get('content-type')).to.equal('text/event-stream');
    const event = JSON.parse(/^data: (.*)$/m.exec(listed.text)![1]!);
    expect(event.result.tools).to.have.length(READING.length + WRITING.length);
  });
});

httpSuite('MCP endpoint: the token rate class', { now: NOW, env: { RATE_LIMITS: `${TEST_RATE_LIMITS},token=3/60` } }, (server) => {
  it("counts the endpoint's requests in the token class of the token's account, with the household's routes", async () => {
    const h = await household(server);
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { Accept: 'application/json, text/event-stream', Authorization: `Bearer ${h.read}` };
    const bare = new Client(server.url);
    expect((await bare.post('/mcp', message, { headers })).status).to.equal(200);
    expect((await bare.get(`${h.base}/recipe-summaries`, { headers })).status, 'a household route counts in the same budget').to.equal(200);
    expect((await bare.post('/mcp', message, { headers })).status).to.equal(200);
    const limited = await bare.post('/mcp', message, { headers });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
  });
});
