import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startMetricsServer } from '../../bootstrap/metrics.js';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import { httpSuite } from '../support/http-suite.js';

/** The value of one sample line (`name{labels} value`) of a Prometheus text answer, or null. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return null;
}

httpSuite('metrics', {}, (server) => {
  let metrics: { url: string; stop(): Promise<void> };
  before(async () => {
    metrics = await startMetricsServer(server.runtime, '127.0.0.1', 0);
  });
  after(async () => metrics.stop());

  it('serves /metrics in the Prometheus text format on its own loopback port, and the public port answers 404 there', async () => {
    expect(metrics.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { client } = await server.signedIn('Måler');
    for (let i = 0; i < 3; i++) expect((await client.get('/api/v1/me')).status).to.equal(200);
    const h = (await client.post('/api/v1/households', { name: 'Målt' })).json;
    expect((await client.get(`/api/v1/households/${h.id}`)).status).to.equal(200);
    expect((await client.get('/api/v1/households/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    expect((await client.get('/api/v1/no-such-thing')).status).to.equal(404);
    const job = jobsOf(server.runtime).find((j) => j.name === 'purge-expired-sessions')!;
    expect(await runExclusive(server.runtime.db, server.runtime.logger, job)).to.equal(true);

    const res = await fetch(`${metrics.url}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/me', status_class: '2xx' })).to.be.at.least(3);
    // Routes by template, never by the ids in them; a request no route matched is "unmatched".
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/households/{householdId}', status_class: '2xx' })).to.be.at.least(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/households/{householdId}', status_class: '4xx' })).to.be.at.least(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_class: '4xx' })).to.be.at.least(1);
    expect(text).to.not.contain(h.id);
    expect(sample(text, 'db_query_duration_seconds_count')).to.be.greaterThan(0);
    expect(sample(text, 'job_run_duration_seconds_count', { job: 'purge-expired-sessions', outcome: 'ran' })).to.be.at.least(1);
    expect(sample(text, 'push_outbox_depth')).to.be.a('number');
    expect(sample(text, 'push_deliveries_waiting')).to.be.a('number');
    expect(sample(text, 'mail_outbox_depth')).to.be.a('number');
    expect(sample(text, 'process_cpu_user_seconds_total')).to.be.greaterThan(0);
    expect(text).to.contain('# TYPE http_request_duration_seconds histogram');

    expect((await fetch(`${server.url}/metrics`)).status).to.equal(404);
    expect((await fetch(`${metrics.url}/`)).status).to.equal(404);
    expect((await fetch(`${metrics.url}/metrics`, { method: 'POST' })).status).to.equal(404);
  });

  it('counts the push outbox as it fills', async () => {
    const before = sample(await (await fetch(`${metrics.url}/metrics`)).text(), 'push_outbox_depth')!;
    const owner = await server.signedIn('Eier');
    const h = (await owner.client.post('/api/v1/households', { name: 'Push' })).json;
    const code = (await owner.client.post(`/api/v1/households/${h.id}/invites`, { role: 'Adult' })).json.code;
    const joiner = await server.signedIn('Ny');
    expect((await joiner.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
    const after = sample(await (await fetch(`${metrics.url}/metrics`)).text(), 'push_outbox_depth')!;
    expect(after).to.equal(before + 1);
  });

  it('reads the mail outbox depth from the table: mails not yet accepted, whichever process wrote them', async () => {
    const depth = async () => sample(await (await fetch(`${metrics.url}/metrics`)).text(), 'mail_outbox_depth')!;
    await server.runtime.mailer.drain();
    const before = await depth();
    // Written as another process would, and not due for a day: it stays pending under this process's sweeps.
    const id = randomUUID();
    await server.runtime.deps.mailOutbox.enqueue({ id, to: 'later@example.com', subject: 'Later', text: 't', html: 'h', expiresAt: null, createdAt: new Date(Date.now() + 86_400_000) });
    expect(await depth()).to.equal(before + 1);
    // A mail written now is handed over (to the outbox folder here) and leaves the count.
    await server.signedIn('Postmann');
    await server.runtime.mailer.drain();
    expect(await depth()).to.equal(before + 1);
    expect(await server.runtime.deps.mailOutbox.byId(id)).to.include({ state: 'pending', attempts: 0 });
  });
});
