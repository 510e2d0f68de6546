import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';
import type { PlannedWeek, ShoppingItem } from '../support/shopping.js';

const MONDAY = '2026-06-01';
const HOUR = 60 * 60 * 1000;

httpSuite('Idempotency-Key on state-changing routes', { now: new Date('2026-06-02T10:00:00.000Z') }, (server) => {
  const { clock } = server;

  const items = async (h: PlannedWeek) => (await h.owner.get(h.list)).json.items as ShoppingItem[];
  const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

  it('runs a repeated request once: the repeat gets the first answer again, and changes nothing', async () => {
    const h = await server.plannedWeek(MONDAY);
    const key = randomUUID();
    const first = await h.owner.post(`${h.list}/items`, { displayName: '2 kg poteter' }, keyed(key));
    expect(first.status, first.text).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const again = await h.owner.post(`${h.list}/items`, { displayName: '2 kg poteter' }, keyed(key));
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.headers.get('content-type')).to.match(/^application\/json/);
    expect(again.json).to.deep.equal(first.json);
    // Without the key the same line would have grown to 4 kg.
    expect((await items(h)).map((i) => [i.displayName, i.requiredQuantity, i.unit])).to.deep.equal([['poteter', 2, 'kg']]);

    // A tick replayed after the line was unticked again does not tick it a second time.
    const tickKey = randomUUID();
    const id = first.json.id as string;
    expect((await h.owner.patch(`${h.base}/shopping-items/${id}`, { status: 'Purchased' }, keyed(tickKey))).json).to.include({ status: 'Purchased' });
    expect((await h.owner.patch(`${h.base}/shopping-items/${id}`, { status: 'Buy' })).status).to.equal(200);
    const replayed = await h.owner.patch(`${h.base}/shopping-items/${id}`, { status: 'Purchased' }, keyed(tickKey));
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    expect((await items(h))[0]).to.include({ status: 'Buy' });
    // A 204 answer is kept as one too.
    const removeKey = randomUUID();
    expect((await h.owner.delete(`${h.base}/shopping-items/${id}`, keyed(removeKey))).status).to.equal(204);
    const removedAgain = await h.owner.delete(`${h.base}/shopping-items/${id}`, keyed(removeKey));
    expect([removedAgain.status, removedAgain.text, removedAgain.headers.get('idempotent-replayed')]).to.deep.equal([204, '', 'true']);
  });

  it('refuses a key used for another request (route or body) with 422, and a malformed key with 400, changing nothing', async () => {
    const h = await server.plannedWeek(MONDAY);
    const key = randomUUID();
    expect((await h.owner.post(`${h.list}/items`, { displayName: 'Melk' }, keyed(key))).status).to.equal(200);
    for (const res of [await h.owner.post(`${h.list}/items`, { displayName: 'Brød' }, keyed(key)), await h.owner.post(`${h.list}/generate`, undefined, keyed(key))]) {
      expect(res.status, res.text).to.equal(422);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.json.code).to.equal('idempotency_key_reused');
    }
    // fetch sends 'æøå' as its Latin-1 bytes, which are not UTF-8: refused before the key is read.
    for (const [bad, code] of [['has space', 'validation_failed'], ['x'.repeat(256), 'validation_failed'], ['æøå', 'header_not_utf8']] as const) {
      const res = await h.owner.post(`${h.list}/items`, { displayName: 'Egg' }, { headers: { 'Idempotency-Key': bad } }).catch(() => null);
      // fetch itself refuses header values outside Latin-1; the others reach the service.
      if (res === null) continue;
      expect(res.status, bad).to.equal(400);
      expect(res.json.code).to.equal(code);
    }
    expect((await items(h)).map((i) => i.displayName)).to.deep.equal(['Melk']);
  });

  it('keeps no answer that was not a success: the repeat runs again, and a fixed body may use the key', async () => {
    const h = await server.plannedWeek(MONDAY);
    const key = randomUUID();
    const bad = await h.owner.post(`${h.list}/items`, { displayName: '' }, keyed(key));
    expect(bad.status).to.equal(400);
    const fixed = await h.owner.post(`${h.list}/items`, { displayName: 'Ost' }, keyed(key));
    expect(fixed.status, fixed.text).to.equal(200);
    expect(fixed.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('lets only one of several identical requests at the same moment take effect', async () => {
    const h = await server.plannedWeek(MONDAY);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => h.owner.post(`${h.list}/items`, { displayName: '1 kg løk' }, keyed(key))));
    for (const a of answers) expect([200, 409], a.text).to.include(a.status);
    for (const a of answers.filter((x) => x.status === 409)) expect([a.json.code, a.headers.get('retry-after')]).to.deep.equal(['idempotency_key_in_progress', '1']);
    expect(answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null)).to.have.length(1);
    expect((await items(h)).map((i) => [i.displayName, i.requiredQuantity])).to.deep.equal([['løk', 1]]);
  });

  it('keeps keys per login, and forgets them after 24 hours', async () => {
    const h = await server.plannedWeek(MONDAY);
    const key = randomUUID();
    expect((await h.owner.post(`${h.list}/items`, { displayName: 'Kaffe' }, keyed(key))).status).to.equal(200);
    // The Owner's second login (another phone) uses the same key for the same request: its own, so it runs.
    const email = (await h.owner.get('/api/v1/me')).json.user.email as string;
    const phone = server.client();
    expect((await phone.post('/api/v1/auth/login', { email, password: 'correct horse battery' })).status).to.equal(200);
    const other = await phone.post(`${h.list}/items`, { displayName: 'Kaffe' }, keyed(key));
    expect(other.headers.get('idempotent-replayed')).to.equal(null);
    expect((await items(h)).find((i) => i.displayName === 'Kaffe')).to.include({ requiredQuantity: 2 });

    clock.advance(25 * HOUR);
    const later = await h.owner.post(`${h.list}/items`, { displayName: 'Kaffe' }, keyed(key));
    expect(later.headers.get('idempotent-replayed')).to.equal(null);
    expect((await items(h)).find((i) => i.displayName === 'Kaffe')).to.include({ requiredQuantity: 3 });
  });

  it('tells multipart requests apart by their fields and files: feedback with a screenshot, sent twice, is received once', async () => {
    const { client } = await server.signedIn();
    const key = randomUUID();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAMAAAAoyzS7AAAAA1BMVEXAOSuU7d9gAAAACklEQVQI12NgAAAAAgAB4iG8MwAAAABJRU5ErkJggg==', 'base64');
    const send = (message: string, picture: Buffer) => {
      const form = new FormData();
      form.set('report', JSON.stringify({ message }));
      form.set('screenshot', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'shot.png');
      return fetch(`${server.url}/api/v1/feedback`, { method: 'POST', body: form, headers: { Cookie: `app_session=${client.cookie}`, 'Idempotency-Key': key } });
    };
    const first = await send('Fint', png);
    expect(first.status).to.equal(200);
    const again = await send('Fint', png);
    expect([again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([200, 'true']);
    expect(await again.json()).to.deep.equal(await first.json());
    for (const other of [await send('Noe annet', png), await send('Fint', Buffer.concat([png, Buffer.from([0])]))]) {
      expect(other.status).to.equal(422);
      expect(((await other.json()) as { code: string }).code).to.equal('idempotency_key_reused');
    }
  });

  it('is documented as an optional header of every state-changing signed-in route', async () => {
    const doc = (await server.client().get('/api/v1/openapi.json')).json as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; required: boolean }[]; responses: Record<string, unknown> }>> };
    const op = doc.paths['/api/v1/households/{householdId}/shopping-items/{itemId}']!['patch']!;
    expect(op.parameters?.find((p) => p.name === 'Idempotency-Key')).to.include({ in: 'header', required: false });
    expect(op.responses).to.include.keys('409', '422');
    expect((doc.paths['/api/v1/me']!['get']!.parameters ?? []).map((p) => p.name)).to.not.include('Idempotency-Key');
  });
});
