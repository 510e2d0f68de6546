import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { eachDatabase, httpService, httpSuite } from '../support/http-suite.js';
import { TEST_RATE_LIMITS } from '../support/server.js';
import { Client } from '../support/client.js';

const WEEK = '2026-11-23';
const dates = Array.from({ length: 7 }, (_, i) => `2026-11-${23 + i}`);
const recipe = (title: string, foods: string[], totalMinutes: number | null = 30) => ({
  title,
  servings: 4,
  activeMinutes: null,
  totalMinutes,
  steps: ['Lag maten'],
  ingredients: foods.map((displayName) => ({ displayName, quantity: 200, unit: 'g', optional: false, baseRecipeId: null, reference: null })),
});
const event = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date,
  eventType,
  servingTime: null,
  availableCookingMinutes: null,
  notes: null,
  guests: null,
  memberAttendance: null,
  ...extra,
});

type AiAnswer = (dinners: { date: string; dish: string }[]) => { status: number; body: unknown };
/** Two tips a dinner, the second naming nuts (which a table that avoids nuts must never be shown). */
const TIPS: AiAnswer = (dinners) => ({
  status: 200,
  body: { choices: [{ message: { role: 'assistant', content: JSON.stringify({ days: dinners.map((d) => ({ date: d.date, tips: [`Server ${d.dish} varm.`, 'Strø over hakkede nøtter.'] })) }) } }] },
});

/** An OpenAI-compatible chat completions endpoint on loopback: answers what the test sets, and counts calls. */
class FakeAi {
  calls: { body: Record<string, unknown>; authorization: string | undefined }[] = [];
  answer: AiAnswer = TIPS;
  private server: Server = createServer((req, res) => void this.handle(req, res));
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }
  stop = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
    this.calls.push({ body, authorization: req.headers.authorization });
    const dinners = (JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as { dinners: { date: string; dish: string }[] }).dinners;
    const { status, body: answer } = this.answer(dinners);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }
}

eachDatabase('the planner', (kind) => {
  const ai = new FakeAi();
  const server = httpService(kind, { env: async () => ({ AI_BASE_URL: await ai.start(), AI_MODEL: 'test-model', AI_API_KEY: 'sk-test', AI_MONTHLY_CALLS: '3', AI_TIMEOUT_MS: '2000', ADMIN_EMAILS: 'ops@example.com' }) });
  after(() => ai.stop());

  async function household() {
    const { client } = await server.signedIn('Kari');
    const h = (await client.post('/api/v1/households', { name: 'Hansen' })).json;
    const base = `/api/v1/households/${h.id}`;
    const plan = (await client.put(`${base}/plans/week/${WEEK}`)).json;
    return { owner: client, h, base, plan, suggest: `${base}/plans/${plan.id}/suggestions` };
  }
  async function member(owner: Client, base: string, role: 'Adult' | 'Junior') {
    const { client } = await server.signedIn(role);
    const code = (await owner.post(`${base}/invites`, { role })).json.code;
    await client.post('/api/v1/invites/accept', { code });
    return client;
  }
  async function cookbook(owner: Client, base: string) {
    const made: Record<string, string> = {};
    for (const r of [
      recipe('Nøttestek', ['Hasselnøtter', 'Løk'], 60),
      recipe('Rekepasta', ['Reker', 'Pasta'], 20),
      recipe('Kyllinggryte', ['Kylling', 'Ris'], 45),
      recipe('Omelett', ['Egg', 'Melk'], 15),
      recipe('Fiskesuppe', ['Torsk', 'Fløte'], 35),
      recipe('Potetmos og pølser', ['Poteter', 'Pølser'], 25),
      recipe('Grønnsakswok', ['Brokkoli', 'Gulrot'], 20),
      recipe('Lasagne', ['Kjøttdeig', 'Pasta'], 90),
      recipe('Ukjent tid', ['Ris'], null),
    ]) {
      const res = await owner.post(`${base}/recipes`, r);
      expect(res.status, res.text).to.equal(201);
      made[r.title] = res.json.id;
    }
    return made;
  }

  it('suggests the open days, keeps to avoids, closed days and cooking time, the same seed giving the same week; saving writes them and tells the others', async () => {
    const { owner, base, plan, suggest } = await household();
    const other = await member(owner, base, 'Adult');
    const titles = await cookbook(owner, base);
    expect((await owner.post(`${base}/events`, event(dates[1]!, 'Custom', { availableCookingMinutes: 20 }))).status).to.equal(201);
    const guests = [{ guestType: 'Adult', guestCount: 2, dietaryNotes: 'Allergisk', avoids: ['nøtter', 'skalldyr'] }];
    expect((await owner.post(`${base}/events`, event(dates[2]!, 'Guests', { guests }))).status).to.equal(201);
    expect((await owner.post(`${base}/events`, event(dates[3]!, 'EatingOut'))).status).to.equal(201);
    expect((await owner.put(`${base}/plans/${plan.id}/days/${dates[0]}`, { recipeId: titles['Lasagne'], portions: null, note: null })).status).to.equal(200);

    const res = await owner.post(suggest, { seed: 42, ai: false });
    expect(res.status, res.text).to.equal(200);
    expect(Object.keys(res.json).sort()).to.deep.equal(['aiNotes', 'days', 'estimatedPrice', 'planId', 'rulesNotServed', 'seed', 'usualPrice', 'weekStart']);
    expect(res.json).to.include({ planId: plan.id, weekStart: WEEK, seed: 42, aiNotes: false });
    const days = res.json.days as { date: string; recipeId: string | null; recipeTitle: string | null; reasons: string[]; servingNotes: string[]; cookingMinutes: number | null; recipeMinutes: number | null }[];
    // Monday has its dish, Thursday is eaten out: neither is proposed.
    expect(days.map((d) => d.date)).to.deep.equal([dates[1], dates[2], dates[4], dates[5], dates[6]]);
    expect(Object.keys(days[0]!).sort()).to.deep.equal(['cookingMinutes', 'date', 'estimatedPrice', 'historyWeeks', 'lastEatenOn', 'leftoversOf', 'pantryFoods', 'portions', 'reasons', 'recipeId', 'recipeMinutes', 'recipeTitle', 'rule', 'servingNotes', 'timesEaten']);
    const tuesday = days[0]!;
    expect(tuesday.cookingMinutes).to.equal(20);
    expect(tuesday.recipeMinutes).to.be.at.most(20);
    expect(tuesday.reasons).to.include('FitsCookingTime');
    const wednesday = days[1]!;
    expect(['Nøttestek', 'Rekepasta']).to.not.include(wednesday.recipeTitle);
    expect(wednesday.reasons).to.include('AvoidsRespected');
    expect(wednesday.servingNotes).to.deep.equal(['Hele bordet unngår i dag: nøtter, skalldyr.', 'Gjester (2): Allergisk']);
    const picked = days.map((d) => d.recipeId);
    expect(new Set(picked).size, 'no dish twice').to.equal(picked.length);
    expect(picked).to.not.include(titles['Lasagne']);
    expect((await owner.post(suggest, { seed: 42, ai: false })).json).to.deep.equal(res.json);
    // Nothing was written.
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days.filter((d: { recipeId: string | null }) => d.recipeId !== null)).to.have.length(1);

    // "Another one" for Friday: the same call with another seed for that day, keeping the rest on screen.
    const keeping = days.filter((d) => d.date !== dates[4]).map((d) => ({ date: d.date, recipeId: d.recipeId! }));
    const others = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const again = await owner.post(suggest, { seed, days: [dates[4]], keeping, ai: false });
      expect(again.status, again.text).to.equal(200);
      expect(again.json.days).to.have.length(1);
      const id = again.json.days[0].recipeId as string;
      expect(keeping.map((k) => k.recipeId)).to.not.include(id);
      others.add(id);
    }
    expect(others.size).to.be.greaterThan(1);

    const kept = days.map((d) => ({ date: d.date, recipeId: d.recipeId! }));
    const saved = await owner.post(`${suggest}/accept`, { days: kept });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.json.id).to.equal(plan.id);
    for (const k of kept) expect(saved.json.days.find((d: { date: string }) => d.date === k.date).recipeId).to.equal(k.recipeId);
    expect((await owner.get(`${base}/plans/${plan.id}`)).json).to.deep.equal(saved.json);
    const pushes = (await server.runtime.deps.pushOutbox.pending(1000)).filter((e) => e.householdId === plan.householdId && e.event.kind === 'week-planned');
    expect(pushes.map((p) => p.event)).to.deep.equal([{ kind: 'week-planned', planId: plan.id, weekStart: WEEK, dinners: kept.length, actorAccountId: (await owner.get('/api/v1/me')).json.user.id }]);
    // The week is full now: nothing is left to propose.
    expect((await other.post(suggest, { ai: false })).json.days).to.deep.equal([]);
  });

  it('says on every day it fills why, from what the household ate in the weeks before: a favourite, last eaten when, not in weeks', async () => {
    const { owner, base, suggest } = await household();
    const made: Record<string, string> = {};
    for (const r of [recipe('Taco', ['Kjøttdeig', 'Tortilla']), recipe('Fiskesuppe', ['Torsk', 'Fløte']), recipe('Grønnsakswok', ['Brokkoli', 'Gulrot'])]) {
      made[r.title] = (await owner.post(`${base}/recipes`, r)).json.id;
    }
    // Taco on three Fridays of the eight weeks before, the last five weeks before the week planned; the fish soup
    // once, six weeks before; the wok never.
    const eaten: [string, string, string][] = [
      ['2026-10-05', '2026-10-09', 'Taco'],
      ['2026-10-12', '2026-10-16', 'Taco'],
      ['2026-10-19', '2026-10-23', 'Taco'],
      ['2026-10-05', '2026-10-07', 'Fiskesuppe'],
    ];
    for (const [week, date, title] of eaten) {
      const p = (await owner.put(`${base}/plans/week/${week}`)).json;
      const put = await owner.put(`${base}/plans/${p.id}/days/${date}`, { recipeId: made[title], portions: null, note: null });
      expect(put.status, put.text).to.equal(200);
    }
    const res = await owner.post(suggest, { days: [dates[0], dates[1], dates[2]], ai: false });
    expect(res.status, res.text).to.equal(200);
    const days = res.json.days as { date: string; recipeTitle: string; reasons: string[]; lastEatenOn: string | null; timesEaten: number; historyWeeks: number }[];
    expect(Object.fromEntries(days.map((d) => [d.recipeTitle, [d.reasons, d.lastEatenOn, d.timesEaten, d.historyWeeks]]))).to.deep.equal({
      Taco: [['Favourite', 'NotEatenSince'], '2026-10-23', 3, 8],
      Fiskesuppe: [['NotEatenSince'], '2026-10-07', 1, 8],
      Grønnsakswok: [['NotEatenInWeeks'], null, 0, 8],
    });
    // The document names the reasons, says when they are given, and what each fact is.
    const op = (await owner.get('/api/v1/openapi.json')).json.paths['/api/v1/households/{householdId}/plans/{planId}/suggestions'].post;
    expect(op.description).to.match(/added to every pick it describes/).and.match(/at least 3 days/);
    const day = op.responses['200'].content['application/json'].schema.properties.days.items;
    expect(day.properties.reasons.items.enum).to.include.members(['Favourite', 'NotEatenSince', 'NotEatenInWeeks']);
    for (const field of ['lastEatenOn', 'timesEaten', 'historyWeeks']) expect(day.properties[field].description, field).to.be.a('string').with.length.above(20);
  });

  it('says why a day gets no dish, and never breaks an avoid to fill one', async () => {
    const { owner, base, suggest } = await household();
    await owner.post(`${base}/recipes`, recipe('Rekesalat', ['Reker', 'Majones'], 15));
    await owner.post(`${base}/recipes`, recipe('Langkok', ['Storfe'], 240));
    await owner.post(`${base}/events`, event(dates[0]!, 'Guests', { guests: [{ guestType: 'Adult', guestCount: 1, dietaryNotes: null, avoids: ['shellfish', 'egg'] }], availableCookingMinutes: 30 }));
    await owner.post(`${base}/events`, event(dates[1]!, 'Custom', { availableCookingMinutes: 10 }));
    const res = await owner.post(suggest, { days: [dates[0], dates[1]], ai: false });
    expect(res.status, res.text).to.equal(200);
    expect(res.json.days.map((d: { recipeId: string | null; reasons: string[] }) => [d.recipeId, d.reasons])).to.deep.equal([
      [null, ['NothingFitsBoth']],
      [null, ['NothingFitsCookingTime']],
    ]);
  });

  it('refuses a Junior (403), another household\'s plan (404), days outside the week and malformed bodies (400); saving re-checks the avoids (409)', async () => {
    const { owner, base, plan, suggest } = await household();
    const titles = await cookbook(owner, base);
    const junior = await member(owner, base, 'Junior');
    for (const path of [suggest, `${suggest}/accept`]) {
      const r = await junior.post(path, path.endsWith('accept') ? { days: [{ date: dates[2], recipeId: titles['Omelett'] }] } : {});
      expect([r.status, r.json.code]).to.deep.equal([403, 'adults_only']);
    }
    const foreign = await household();
    const theirs = `${base}/plans/${foreign.plan.id}/suggestions`;
    expect([(await owner.post(theirs, {})).status, (await owner.post(theirs, {})).json.code]).to.deep.equal([404, 'plan_not_found']);
    expect((await owner.post(`${theirs}/accept`, { days: [{ date: dates[2], recipeId: titles['Omelett'] }] })).json.code).to.equal('plan_not_found');
    expect((await foreign.owner.post(suggest, {})).json.code).to.equal('household_not_found');
    const outside = await owner.post(suggest, { days: ['2026-12-01'] });
    expect([outside.status, outside.json.code]).to.deep.equal([400, 'date_outside_week']);
    for (const body of [{ seed: -1 }, { seed: 1.5 }, { days: ['2026-02-30'] }, { days: [dates[0], dates[0]] }, { keeping: [{ date: dates[0], recipeId: 'nope' }] }, { ai: 'yes' }, { days: dates.concat(dates[0]!) }]) {
      const r = await owner.post(suggest, body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.headers.get('content-type')).to.contain('application/problem+json');
    }
    for (const body of [{ days: [] }, {}, { days: [{ date: dates[0] }] }, { days: [{ date: dates[0], recipeId: titles['Omelett'] }, { date: dates[0], recipeId: titles['Lasagne'] }] }]) {
      expect((await owner.post(`${suggest}/accept`, body)).status, JSON.stringify(body)).to.equal(400);
    }
    await owner.post(`${base}/events`, event(dates[2]!, 'Guests', { guests: [{ guestType: 'Child', guestCount: 1, dietaryNotes: null, avoids: ['nøtter'] }] }));
    const conflict = await owner.post(`${suggest}/accept`, { days: [{ date: dates[1], recipeId: titles['Omelett'] }, { date: dates[2], recipeId: titles['Nøttestek'] }] });
    expect([conflict.status, conflict.json.code, conflict.json.avoid, conflict.json.ingredient]).to.deep.equal([409, 'avoid_conflict', 'nøtter', 'Hasselnøtter']);
    expect((await owner.get(`${base}/plans/${plan.id}`)).json.days.every((d: { recipeId: string | null }) => d.recipeId === null), 'nothing written').to.equal(true);
    const unknown = await owner.post(`${suggest}/accept`, { days: [{ date: dates[1], recipeId: foreign.plan.id }] });
    expect([unknown.status, unknown.json.code]).to.deep.equal([404, 'recipe_not_found']);
  });

  it('draws on the library only when the household turns it on, and saving a library dish adds it to the recipes once', async () => {
    const { owner, base, h, suggest } = await household();
    expect(h.libraryRecipesOn).to.equal(false);
    const none = await owner.post(suggest, { ai: false });
    expect(none.json.days.map((d: { reasons: string[] }) => d.reasons)).to.deep.equal(dates.map(() => ['NoRecipes']));
    const on = await owner.patch(base, { libraryRecipesOn: true });
    expect([on.status, on.json.libraryRecipesOn]).to.deep.equal([200, true]);
    const res = await owner.post(suggest, { ai: false });
    const days = res.json.days as { date: string; recipeId: string; recipeTitle: string; reasons: string[]; recipeMinutes: number }[];
    expect(days).to.have.length(7);
    for (const d of days) {
      expect(d.recipeId).to.match(/^library:[a-z0-9-]+$/);
      expect(d.reasons).to.include('FromLibrary');
      expect(d.recipeMinutes).to.be.a('number');
    }
    const first = days[0]!;
    const saved = await owner.post(`${suggest}/accept`, { days: [{ date: first.date, recipeId: first.recipeId }] });
    expect(saved.status, saved.text).to.equal(200);
    const recipeId = saved.json.days[0].recipeId as string;
    const copy = (await owner.get(`${base}/recipes/${recipeId}`)).json;
    expect(copy).to.include({ title: first.recipeTitle, totalMinutes: first.recipeMinutes });
    expect(copy.steps[0]).to.contain('CC');
    // The same library dish again is the same recipe; and it is no longer offered from the library.
    const again = await owner.post(`${suggest}/accept`, { days: [{ date: dates[1], recipeId: first.recipeId }] });
    expect(again.json.days[1].recipeId).to.equal(recipeId);
    expect((await owner.get(`${base}/recipes`)).json.items.filter((r: { title: string }) => r.title === first.recipeTitle)).to.have.length(1);
    const later = await owner.post(suggest, { ai: false, days: [dates[2]] });
    expect(later.json.days[0].recipeId).to.not.equal(first.recipeId);
    await owner.patch(base, { libraryRecipesOn: false });
    const off = await owner.post(`${suggest}/accept`, { days: [{ date: dates[3], recipeId: days[3]!.recipeId }] });
    expect([off.status, off.json.code]).to.deep.equal([404, 'recipe_not_found']);
  });

  describe('with the operator\'s AI', () => {
    it('adds its tips to the serving notes, never one naming an avoid, and still answers when the AI fails', async () => {
      const { owner, base, suggest } = await household();
      await owner.post(`${base}/recipes`, recipe('Grønnsakswok', ['Brokkoli', 'Gulrot'], 20));
      await owner.post(`${base}/events`, event(dates[0]!, 'Guests', { guests: [{ guestType: 'Adult', guestCount: 1, dietaryNotes: null, avoids: ['nøtter'] }] }));
      const before = ai.calls.length;
      const res = await owner.post(suggest, { days: [dates[0]] });
      expect(res.status, res.text).to.equal(200);
      expect(ai.calls.length).to.equal(before + 1);
      const call = ai.calls[ai.calls.length - 1]!;
      expect(call.authorization).to.equal('Bearer sk-test');
      expect(call.body['model']).to.equal('test-model');
      expect(res.json.aiNotes).to.equal(true);
      expect(res.json.days[0].servingNotes).to.deep.equal(['Hele bordet unngår i dag: nøtter.', 'Server Grønnsakswok varm.']);

      ai.answer = () => ({ status: 500, body: { error: { message: 'down' } } });
      const failed = await owner.post(suggest, { days: [dates[0]] });
      expect(failed.status).to.equal(200);
      expect(failed.json).to.include({ aiNotes: false });
      expect(failed.json.days[0].servingNotes).to.deep.equal(['Hele bordet unngår i dag: nøtter.']);
      ai.answer = () => ({ status: 200, body: { choices: [{ message: { content: 'not json at all' } }] } });
      expect((await owner.post(suggest, { days: [dates[0]] })).json.aiNotes).to.equal(false);
      // Without asking for AI, no call is made.
      const calls = ai.calls.length;
      expect((await owner.post(suggest, { days: [dates[0]], ai: false })).status).to.equal(200);
      expect(ai.calls.length).to.equal(calls);
      ai.answer = TIPS;

      // Three calls were this month's quota: the fourth is 429 with the seconds until the household's next month.
      const over = await owner.post(suggest, { days: [dates[0]] });
      expect([over.status, over.json.code]).to.deep.equal([429, 'ai_quota_used']);
      const wait = Number(over.headers.get('retry-after'));
      expect(Number.isInteger(wait) && wait > 0 && wait <= 31 * 86_400, String(over.headers.get('retry-after'))).to.equal(true);
      const now = new Date();
      const oslo = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit' }).format(now);
      const [y, m] = oslo.split('-').map(Number) as [number, number];
      // Midnight in Oslo on the 1st is 22:00 or 23:00 UTC the day before.
      const nextMonthUtc = Date.UTC(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 1);
      expect(nextMonthUtc - (now.getTime() + wait * 1000)).to.be.within(3600 * 1000 - 5000, 2 * 3600 * 1000 + 5000);
      // Without AI the planner still answers, and never with 429 for AI.
      expect((await owner.post(suggest, { days: [dates[0]], ai: false })).status).to.equal(200);
    });

    it('answers 429 ai_paused with the pause\'s end as an HTTP date while an operator has paused the household\'s AI', async () => {
      const { owner, base, h, suggest } = await household();
      await owner.post(`${base}/recipes`, recipe('Grønnsakswok', ['Brokkoli'], 20));
      const ops = server.client();
      expect((await ops.post('/api/v1/auth/register', { email: 'ops@example.com', password: 'correct horse battery', displayName: 'Ops' })).status).to.equal(200);
      const opsAccount = (await server.runtime.deps.accounts.byEmail('ops@example.com'))!;
      const path = `/api/v1/admin/households/${h.id}/ai`;
      // Unconfirmed, the operator's address is not yet an operator's.
      expect([(await ops.get(path)).status, (await ops.get(path)).json.code]).to.deep.equal([403, 'platform_admin_only']);
      await server.runtime.deps.accounts.markEmailConfirmed(opsAccount.id, new Date());
      expect((await owner.put(path, { pausedUntil: null })).json.code).to.equal('platform_admin_only');
      const until = new Date(Date.now() + 3 * 86_400_000);
      until.setUTCMilliseconds(0);
      const paused = await ops.put(path, { pausedUntil: until.toISOString() });
      expect(paused.status, paused.text).to.equal(200);
      expect(paused.json).to.deep.equal({ householdId: h.id, configured: true, pausedUntil: until.toISOString(), callsThisMonth: 0, monthlyCalls: 3 });
      const before = ai.calls.length;
      const res = await owner.post(suggest, {});
      expect([res.status, res.json.code]).to.deep.equal([429, 'ai_paused']);
      expect(res.headers.get('retry-after')).to.equal(until.toUTCString());
      expect(ai.calls.length).to.equal(before);
      expect((await owner.post(suggest, { ai: false })).status).to.equal(200);
      expect((await ops.put(path, { pausedUntil: null })).json.pausedUntil).to.equal(null);
      expect((await owner.post(suggest, {})).status).to.equal(200);
      expect((await ops.get(path)).json.callsThisMonth).to.equal(1);
      expect((await ops.put(path, { pausedUntil: 'soon' })).status).to.equal(400);
      expect((await ops.get('/api/v1/admin/households/00000000-0000-4000-8000-000000000000/ai')).json.code).to.equal('household_not_found');
    });
  });
});

httpSuite("the planner's rate class", { env: { RATE_LIMITS: `${TEST_RATE_LIMITS},planner-per-household=3/3600` } }, (server) => {

  it('counts each household\'s proposals: past planner-per-household, 429 rate_limited with Retry-After; saving is not counted', async () => {
    const household = async () => {
      const { client } = await server.signedIn('Kari');
      const h = (await client.post('/api/v1/households', { name: 'Hansen' })).json;
      const plan = (await client.put(`/api/v1/households/${h.id}/plans/week/${WEEK}`)).json;
      await client.post(`/api/v1/households/${h.id}/recipes`, recipe('Suppe', ['Gulrot']));
      return { client, suggest: `/api/v1/households/${h.id}/plans/${plan.id}/suggestions` };
    };
    const a = await household();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await a.client.post(a.suggest, { seed: i, days: [dates[0]] })).status);
    expect(answers).to.deep.equal([200, 200, 200]);
    const over = await a.client.post(a.suggest, { seed: 9, days: [dates[0]] });
    expect([over.status, over.json.code]).to.deep.equal([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).to.be.within(1, 3600);
    const recipeId = (await a.client.get(a.suggest.replace(/plans\/.*$/, 'recipes'))).json.items[0].id;
    expect((await a.client.post(`${a.suggest}/accept`, { days: [{ date: dates[0], recipeId }] })).status).to.equal(200);
    // Another household has its own count.
    const b = await household();
    expect((await b.client.post(b.suggest, { days: [dates[0]] })).status).to.equal(200);
  });
});
