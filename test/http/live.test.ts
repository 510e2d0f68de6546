import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';
import { openSse, type SseEvent, type SseStream } from '../support/sse.js';

const MONDAY = '2026-06-01';
const households = (e: SseEvent): string[] => (JSON.parse(e.data) as { households: string[] }).households;

httpSuite('live stream GET /api/v1/me/changes', { env: { LIVE_STREAMS_PER_LOGIN: '2', LIVE_HEARTBEAT_MS: '300' } }, function (server) {
  this.timeout(30_000);
  const open: SseStream[] = [];
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });

  async function stream(client: Client, lastEventId?: string): Promise<SseStream> {
    const s = await openSse(`${server.url}/api/v1/me/changes`, { Cookie: `app_session=${client.cookie}`, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) });
    open.push(s);
    return s;
  }

  it('answers 401 problem+json without a session, and is in the OpenAPI document as text/event-stream', async () => {
    const res = await fetch(`${server.url}/api/v1/me/changes`);
    expect(res.status).to.equal(401);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(((await res.json()) as { code: string }).code).to.equal('unauthenticated');
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> };
    expect(doc.paths['/api/v1/me/changes']!.get.responses['200']!.content).to.have.key('text/event-stream');
  });

  it("opens with the sign-in's households, then names the household when another member ticks a line, within moments", async () => {
    const h = await server.plannedWeek(MONDAY);
    const ola = await h.join('Adult', 'Ola');
    const s = await stream(h.owner);
    expect(s.status).to.equal(200);
    expect(s.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(s.headers.get('cache-control')).to.equal('no-store');
    // The connection is the stream's alone (taken off the server once the head is out: adapters/http/long-answer.ts).
    expect(s.headers.get('connection')).to.equal('close');
    const ready = await s.next((e) => e.event === 'ready');
    expect(households(ready)).to.deep.equal([h.id]);
    expect(ready.retry).to.equal(2000);
    expect(ready.id).to.be.a('string').and.not.equal('');

    const added = await ola.client.post(`${h.list}/items`, { displayName: 'Melk' });
    expect(added.status, added.text).to.equal(200);
    const item = added.json as { id: string };
    const afterAdd = await s.next((e) => e.event === 'changed');
    expect(households(afterAdd)).to.deep.equal([h.id]);
    expect(afterAdd.id).to.not.equal(ready.id);

    const from = s.events.length;
    expect((await ola.client.patch(`${h.base}/shopping-items/${item.id}`, { status: 'Purchased' })).status).to.equal(200);
    const afterTick = await s.next((e) => e.event === 'changed', 2000, from);
    expect(households(afterTick)).to.deep.equal([h.id]);
    // The heartbeat: a comment every LIVE_HEARTBEAT_MS.
    const comments = s.comments;
    await new Promise((r) => setTimeout(r, 700));
    expect(s.comments).to.be.above(comments);
  });

  it('opened again with Last-Event-ID, tells at once what changed meanwhile, and nothing when nothing did', async () => {
    const h = await server.plannedWeek(MONDAY);
    const first = await stream(h.owner);
    const ready = await first.next((e) => e.event === 'ready');
    first.close();

    const same = await stream(h.owner, ready.id);
    await same.next((e) => e.event === 'ready');
    await new Promise((r) => setTimeout(r, 400));
    expect(same.events.map((e) => e.event)).to.deep.equal(['ready']);
    same.close();

    expect((await h.owner.post(`${h.list}/items`, { displayName: 'Brød' })).status).to.equal(200);
    const resumed = await stream(h.owner, ready.id);
    const missed = await resumed.next((e) => e.event === 'changed');
    expect(households(missed)).to.deep.equal([h.id]);
    expect(resumed.events.map((e) => e.event)).to.deep.equal(['ready', 'changed']);

    const unreadable = await stream(h.owner, 'x'.repeat(9000));
    expect(households(await unreadable.next((e) => e.event === 'changed'))).to.deep.equal([h.id]);
  });

  it('ends the stream when its sign-in signs out, and the next open is 401', async () => {
    const h = await server.plannedWeek(MONDAY);
    const cookie = h.owner.cookie!;
    const s = await stream(h.owner);
    await s.next((e) => e.event === 'ready');
    expect((await h.owner.post('/api/v1/auth/logout')).status).to.equal(204);
    const end = await s.next((e) => e.event === 'end');
    expect(JSON.parse(end.data)).to.deep.equal({ reason: 'signed-out' });
    await s.closed();
    const again = await fetch(`${server.url}/api/v1/me/changes`, { headers: { Cookie: `app_session=${cookie}` } });
    expect(again.status).to.equal(401);
  });

  it("ends a sign-in's oldest stream past LIVE_STREAMS_PER_LOGIN, and only that one", async () => {
    const h = await server.plannedWeek(MONDAY);
    const [a, b] = [await stream(h.owner), await stream(h.owner)];
    await a.next((e) => e.event === 'ready');
    await b.next((e) => e.event === 'ready');
    const c = await stream(h.owner);
    await c.next((e) => e.event === 'ready');
    expect(JSON.parse((await a.next((e) => e.event === 'end')).data)).to.deep.equal({ reason: 'replaced' });
    await a.closed();
    expect(b.ended || c.ended).to.equal(false);
    expect((await h.owner.post(`${h.list}/items`, { displayName: 'Ost' })).status).to.equal(200);
    await b.next((e) => e.event === 'changed');
    await c.next((e) => e.event === 'changed');
  });

  it('carries only the households the sign-in is in: a member removed hears nothing more of it', async () => {
    const h = await server.plannedWeek(MONDAY);
    const ola = await h.join('Adult', 'Ola');
    const s = await stream(ola.client);
    expect(households(await s.next((e) => e.event === 'ready'))).to.deep.equal([h.id]);
    expect((await h.owner.delete(`${h.base}/members/${ola.memberId}`)).status).to.equal(204);
    await new Promise((r) => setTimeout(r, 300));
    const from = s.events.length;
    expect((await h.owner.post(`${h.list}/items`, { displayName: 'Smør' })).status).to.equal(200);
    await new Promise((r) => setTimeout(r, 600));
    expect(s.events.slice(from).filter((e) => e.event === 'changed' && households(e).includes(h.id))).to.deep.equal([]);
    expect(s.ended).to.equal(false);
  });
});
