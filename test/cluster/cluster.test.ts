/**
 * Two server processes on one Postgres schema behind a round-robin (issue 11): a session revoked on one is refused
 * by the other, as is a personal access token; rate limits and the login lockout count across both, each scheduled
 * tick runs in one of them, and each push goes out once. Every request goes through the round-robin, which names the process that answered.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { migrations } from '../../adapters/knex/migrations/index.js';
import { Client, freshEmail, type Answer, type RequestOptions } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { BACKEND_HEADER, startCluster, type Cluster } from './cluster.js';
import { openSse, type SseEvent } from '../support/sse.js';

const households = (e: SseEvent): string[] => (JSON.parse(e.data) as { households: string[] }).households;

/** A client with an address of its own (X-Forwarded-For; the processes trust the proxy), so per-IP limits are its own. */
class ClusterClient extends Client {
  constructor(
    baseUrl: string,
    readonly ip: string,
  ) {
    super(baseUrl);
  }

  override request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    return super.request(method, path, { ...options, headers: { 'X-Forwarded-For': this.ip, ...options.headers } });
  }
}

let lastIp = 0;
const nextIp = () => `198.51.100.${++lastIp}`;
const backendOf = (a: Answer) => a.headers.get(BACKEND_HEADER);
const PASSWORD = 'correct horse battery';

async function registered(url: string, displayName: string): Promise<{ client: ClusterClient; email: string }> {
  const client = new ClusterClient(url, nextIp());
  const email = freshEmail('cluster');
  const res = await client.post('/api/v1/auth/register', { email, password: PASSWORD, displayName });
  if (res.status !== 200 || !client.cookie) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { client, email };
}

/** `n` requests in a row; answers them with the process that answered each. */
async function times(n: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send());
  return out;
}

function expectProblem(a: Answer, status: number, code: string): void {
  expect(a.status, a.text).to.equal(status);
  expect(a.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(a.json.code).to.equal(code);
}

const jobLines = (cluster: Cluster, job: string) =>
  cluster.backends.flatMap((b) =>
    b.lines.filter((l) => l['job'] === job && (l['msg'] === 'scheduled job ran' || l['msg'] === 'scheduled job skipped')).map((l) => ({ backend: b.name, ran: l['msg'] === 'scheduled job ran', slot: String(l['slot']) })),
  );

describe('two processes on one Postgres behind a round-robin', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  const devices: { token: string; name: string }[] = [];

  before(async function () {
    // databaseKinds() throws in CI without DATABASE_URL_PG: there the cluster must run, never skip.
    if (!databaseKinds().some((k) => k.name === 'postgres')) {
      console.log('    (the cluster tests need Postgres: set DATABASE_URL_PG, e.g. postgres://postgres@127.0.0.1:5432/test)');
      this.skip();
    }
    cluster = await startCluster(process.env['DATABASE_URL_PG']!, {
      RATE_LIMITS: 'auth=5/60,anonymous-per-ip=10000/60,data-per-ip=10000/60,backstop=10000/60',
      LOCKOUT: '3/60/60',
      TRUST_PROXY: 'true',
      PUSH_PROVIDER: 'log',
      // The debug lines say which process ran or skipped each scheduled tick.
      LOG_LEVEL: 'debug',
    });

    // Pushes first, so that the 10 s delivery ticks pass while the other tests run: an Owner and three people
    // who join by invite, each with a phone registered through the round-robin.
    const owner = await registered(cluster.url, 'Owner');
    const h = (await owner.client.post('/api/v1/households', { name: 'Cluster' })).json;
    const people = [{ client: owner.client, name: 'Owner' }];
    for (const name of ['Joiner One', 'Joiner Two', 'Joiner Three']) people.push({ client: (await registered(cluster.url, name)).client, name });
    for (const p of people) {
      // The log sender shows the last six characters of a token: those tell the devices apart.
      const token = `cluster-phone-${randomBytes(3).toString('hex')}`;
      const res = await p.client.put('/api/v1/me/devices', { token, platform: 'android', provider: 'log' });
      expect(res.status, res.text).to.equal(200);
      devices.push({ token, name: p.name });
    }
    for (const p of people.slice(1)) {
      const code = (await owner.client.post(`/api/v1/households/${h.id}/invites`, { role: 'Adult' })).json.code;
      const res = await p.client.post('/api/v1/invites/accept', { code });
      expect(res.status, res.text).to.equal(200);
    }
  });

  after(async () => {
    await cluster?.stop();
  });

  it('alternates requests between the two processes, which migrated the one schema', async () => {
    const answers = await times(4, () => new ClusterClient(cluster.url, nextIp()).get('/health/ready'));
    for (const a of answers) expect(a.status, a.text).to.equal(200);
    const names = answers.map(backendOf);
    expect(new Set(names)).to.deep.equal(new Set(['a', 'b']));
    expect(names[0]).to.not.equal(names[1]);
    expect(names[2]).to.equal(names[0]);
    // Migrations, job claims and rate-limit counters are the schema's own tables (search_path from DATABASE_URL).
    const applied = ((await cluster.db('knex_migrations').select('name').orderBy('id')) as { name: string }[]).map((r) => r.name);
    expect(applied).to.deep.equal(migrations.map((m) => m.name));
    const tables = (await cluster.db.raw('select table_name from information_schema.tables where table_schema = ? and table_name in (?, ?, ?)', [cluster.schema, 'knex_migrations', 'rate_limits', 'job_runs'])).rows as { table_name: string }[];
    expect(tables.map((t) => t.table_name).sort()).to.deep.equal(['job_runs', 'knex_migrations', 'rate_limits']);
  });

  it('a session signed out on one process is refused on the other, as is every other session of the account', async () => {
    const { client, email } = await registered(cluster.url, 'Leaver');
    const other = new ClusterClient(cluster.url, client.ip);
    expect((await other.post('/api/v1/auth/login', { email, password: PASSWORD })).status).to.equal(200);
    const before = await times(2, () => client.get('/api/v1/me'));
    expect(before.map((a) => a.status)).to.deep.equal([200, 200]);
    expect(new Set(before.map(backendOf))).to.deep.equal(new Set(['a', 'b']));

    const cookie = client.cookie!;
    const out = await client.post('/api/v1/auth/logout');
    expect(out.status, out.text).to.equal(204);

    // The signed-out cookie, replayed, and the account's other session: 401 from both processes.
    const after = [
      ...(await times(2, () => client.get('/api/v1/me', { headers: { Cookie: `app_session=${cookie}` } }))),
      ...(await times(2, () => other.get('/api/v1/me'))),
    ];
    for (const a of after) expectProblem(a, 401, 'unauthenticated');
    expect(new Set(after.slice(0, 2).map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    expect(new Set(after.slice(2).map(backendOf))).to.deep.equal(new Set(['a', 'b']));
  });

  it('a session either process holds in its read cache is refused by both right after a sign-out, round after round', async () => {
    // ROUNDS=300 soaks it (docs/security.md, rule 6: the window it looks for is rare).
    for (let round = 0; round < Number(process.env['ROUNDS'] ?? 20); round++) {
      // A new account each round: the sign-in classes are limited per address and per client IP.
      const { client } = await registered(cluster.url, `Returner ${round}`);
      const cookie = client.cookie!;
      // Both processes have now read the session (each keeps it in memory: adapters/knex/speed/read-cache.ts).
      const before = await times(2, () => client.get('/api/v1/me'));
      expect(before.map((a) => a.status)).to.deep.equal([200, 200]);
      expect((await client.post('/api/v1/auth/logout')).status).to.equal(204);
      const after = await times(2, () => client.get('/api/v1/me', { headers: { Cookie: `app_session=${cookie}` } }));
      for (const a of after) expectProblem(a, 401, 'unauthenticated');
      expect(new Set(after.map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    }
  });

  it('a personal access token revoked through one process is refused by both at its next request, round after round', async () => {
    for (let round = 0; round < 10; round++) {
      const { client } = await registered(cluster.url, `Script owner ${round}`);
      const household = (await client.post('/api/v1/households', { name: 'Hansen' })).json.id as string;
      const made = await client.post('/api/v1/me/access-tokens', { name: 'Skript', householdId: household, scope: 'read' });
      expect(made.status, made.text).to.equal(201);
      const script = new ClusterClient(cluster.url, client.ip);
      const asScript = () => script.get(`/api/v1/households/${household}`, { headers: { Authorization: `Bearer ${made.json.secret}` } });
      const before = await times(2, asScript);
      expect(before.map((a) => a.status)).to.deep.equal([200, 200]);
      expect((await client.delete(`/api/v1/me/access-tokens/${made.json.token.id}`)).status).to.equal(204);
      const after = await times(2, asScript);
      for (const a of after) expectProblem(a, 401, 'token_invalid');
      expect(new Set(after.map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    }
  });

  it('a password changed on one process signs the other sessions out on both; the changing session stays', async () => {
    const { client, email } = await registered(cluster.url, 'Changer');
    const other = new ClusterClient(cluster.url, client.ip);
    expect((await other.post('/api/v1/auth/login', { email, password: PASSWORD })).status).to.equal(200);
    expect((await times(2, () => other.get('/api/v1/me'))).map((a) => a.status)).to.deep.equal([200, 200]);

    const changed = await client.post('/api/v1/me/password', { currentPassword: PASSWORD, newPassword: 'a different horse battery' });
    expect(changed.status, changed.text).to.equal(204);

    const refused = await times(2, () => other.get('/api/v1/me'));
    for (const a of refused) expectProblem(a, 401, 'unauthenticated');
    expect(new Set(refused.map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    const kept = await times(2, () => client.get('/api/v1/me'));
    expect(kept.map((a) => a.status)).to.deep.equal([200, 200]);
    expect(new Set(kept.map(backendOf))).to.deep.equal(new Set(['a', 'b']));
  });

  it('rate limits count across both processes: the 6th auth request of an address within the minute is 429, on either', async () => {
    const client = new ClusterClient(cluster.url, nextIp());
    // A different unknown address each time, so the lockout (per address) stays out of it.
    const answers = await times(7, () => client.post('/api/v1/auth/login', { email: freshEmail('nobody'), password: 'not the password' }));
    for (const a of answers.slice(0, 5)) expectProblem(a, 401, 'invalid_credentials');
    expect(new Set(answers.slice(0, 5).map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    for (const a of answers.slice(5)) {
      expectProblem(a, 429, 'rate_limited');
      expect(Number(a.headers.get('retry-after'))).to.be.within(1, 60);
    }
    expect(new Set(answers.slice(5).map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    // One shared counter, in the schema's rate_limits table.
    const row = (await cluster.db('rate_limits').where({ key: `auth:ip:${client.ip}` }).first()) as { points: number } | undefined;
    expect(row?.points).to.equal(7);
  });

  it('the login lockout counts wrong passwords across both processes: 423 on either afterwards', async () => {
    const { client, email } = await registered(cluster.url, 'Locked');
    // Two addresses share the attempts, so the per-IP limit (5) is not what stops them.
    const guessers = [new ClusterClient(cluster.url, nextIp()), new ClusterClient(cluster.url, nextIp())];
    const wrong = [];
    for (let i = 0; i < 3; i++) wrong.push(await guessers[i % 2]!.post('/api/v1/auth/login', { email, password: `wrong password ${i}` }));
    for (const a of wrong) expectProblem(a, 401, 'invalid_credentials');
    expect(new Set(wrong.map(backendOf))).to.deep.equal(new Set(['a', 'b']));
    // The right password now meets the lock, whichever process answers.
    const locked = await times(2, () => client.post('/api/v1/auth/login', { email, password: PASSWORD }));
    for (const a of locked) expectProblem(a, 423, 'account_locked');
    expect(new Set(locked.map(backendOf))).to.deep.equal(new Set(['a', 'b']));
  });

  it('each push goes to each device once, and each delivery tick runs in one process', async function () {
    // The joins were made in before(); deliveries go out on the next 10 s ticks.
    const deadline = Date.now() + 40_000;
    let rows: { token: string; message: string; state: string; attempts: number }[] = [];
    for (;;) {
      const pendingOutbox = Number(((await cluster.db('push_outbox').whereNull('sent_at').count({ n: '*' })) as { n: string }[])[0]!.n);
      rows = (await cluster.db('push_deliveries').select('token', 'message', 'state', 'attempts')) as typeof rows;
      if (pendingOutbox === 0 && rows.length > 0 && rows.every((r) => r.state !== 'pending')) break;
      if (Date.now() > deadline) throw new Error(`pushes not delivered in time: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // One more delivery tick after the last send: nothing is sent again.
    const doneAt = Date.now();
    await Promise.race(cluster.backends.map((b) => b.logLine((l) => l['job'] === 'deliver-pushes' && l['msg'] === 'scheduled job ran' && Date.parse(String(l['slot'])) > doneAt, 15_000)));

    // The Owner's phone hears of all three joins (the Owner is never the joiner); who else hears of whom depends on
    // who was a member at hand-over, so the deliveries table is the list to check the sends against.
    const owner = devices.find((d) => d.name === 'Owner')!;
    const ownerBodies = rows.filter((r) => r.token === owner.token).map((r) => (JSON.parse(r.message) as { body: string }).body);
    expect(ownerBodies).to.have.length(3);
    for (const name of ['Joiner One', 'Joiner Two', 'Joiner Three']) expect(ownerBodies.filter((b) => b.includes(name)), name).to.have.length(1);
    for (const r of rows) expect([r.state, r.attempts], r.token).to.deep.equal(['sent', 1]);
    const expected = rows.map((r) => `${r.token.slice(-6)} ${(JSON.parse(r.message) as { body: string }).body}`).sort();
    expect(new Set(expected).size, 'one delivery per message and device').to.equal(expected.length);

    const sent = cluster.backends.flatMap((b) => b.lines.filter((l) => l['msg'] === 'push sent to the log').map((l) => `${String(l['token']).slice(-6)} ${String(l['body'])}`)).sort();
    expect(sent).to.deep.equal(expected);

    // Every delivery tick seen was run by exactly one process; the other, when its timer fired, skipped it.
    const ticks = jobLines(cluster, 'deliver-pushes');
    const bySlot = new Map<string, typeof ticks>();
    for (const t of ticks) bySlot.set(t.slot, [...(bySlot.get(t.slot) ?? []), t]);
    expect(bySlot.size, 'delivery ticks seen').to.be.at.least(2);
    for (const [slot, seen] of bySlot) {
      expect(seen.filter((t) => t.ran), `runs of ${slot}`).to.have.length(1);
      expect(seen.length, `processes that fired ${slot}`).to.be.at.most(2);
    }
    expect([...bySlot.values()].filter((seen) => seen.length === 2).length, 'ticks both processes fired').to.be.at.least(1);
    // The claims agree: each tick run has its row, and each row but the newest (its line may not be read yet) a run.
    const claimed = ((await cluster.db('job_runs').where({ job: 'deliver-pushes' }).select('slot')) as { slot: Date }[]).map((r) => r.slot.toISOString());
    const ran = [...bySlot].filter(([, seen]) => seen.some((t) => t.ran)).map(([slot]) => slot);
    expect(claimed).to.include.members(ran);
    const settled = claimed.filter((slot) => Date.parse(slot) < Date.now() - 5_000);
    expect(ran).to.include.members(settled);
  });

  // Last: its own household's pushes (a list change, a join) are not counted by the push test above.
  it("a tick made through one process reaches a stream held by the other within 2 s; a sign-out through one ends it", async () => {
    const [a, b] = cluster.backends;
    const on = (backend: typeof a, client: ClusterClient) => Object.assign(new ClusterClient(`http://127.0.0.1:${backend.port}`, client.ip), { cookie: client.cookie });
    const kari = await registered(cluster.url, 'Kari');
    const ola = await registered(cluster.url, 'Ola');
    const h = (await kari.client.post('/api/v1/households', { name: 'Live' })).json;
    const base = `/api/v1/households/${h.id}`;
    const code = (await kari.client.post(`${base}/invites`, { role: 'Adult' })).json.code;
    expect((await ola.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
    const plan = (await kari.client.put(`${base}/plans/week/2026-06-01`)).json;
    const line = await on(a, kari.client).post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName: 'Melk' });
    expect(line.status, line.text).to.equal(200);

    const stream = await openSse(`http://127.0.0.1:${b.port}/api/v1/me/changes`, { Cookie: `app_session=${ola.client.cookie}` });
    try {
      expect(households(await stream.next((e) => e.event === 'ready'))).to.deep.equal([h.id]);
      await new Promise((r) => setTimeout(r, 200));
      const from = stream.events.length;
      const tick = await on(a, kari.client).patch(`${base}/shopping-items/${line.json.id}`, { status: 'Purchased' });
      expect(tick.status, tick.text).to.equal(200);
      const changed = await stream.next((e) => e.event === 'changed', 2000, from);
      expect(households(changed)).to.deep.equal([h.id]);

      expect((await on(a, ola.client).post('/api/v1/auth/logout')).status).to.equal(204);
      expect(JSON.parse((await stream.next((e) => e.event === 'end', 2000)).data)).to.deep.equal({ reason: 'signed-out' });
      await stream.closed();
    } finally {
      stream.close();
    }
  });
});
