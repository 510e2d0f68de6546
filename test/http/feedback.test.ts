import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { eachDatabase, httpService, httpSuite } from '../support/http-suite.js';

const b64 = (s: string) => Buffer.from(s, 'base64');
/** Real 1×1 images, as the apps would send. */
const PNG = b64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=');
const JPEG = b64('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=');
const WEBP = b64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==');
const GIF = b64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7');
const MiB = 1024 * 1024;
const ADMINS = ['owner@example.com', 'ops@example.com'];

interface Shot {
  bytes: Uint8Array;
  type?: string;
  filename?: string;
}

interface Answer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** POST /api/v1/feedback as multipart/form-data (the Client sends JSON only). */
async function sendFeedback(url: string, client: Client | null, report: unknown, screenshot?: Shot): Promise<Answer> {
  const form = new FormData();
  if (report !== undefined) form.append('report', typeof report === 'string' ? report : JSON.stringify(report));
  if (screenshot) form.append('screenshot', new Blob([new Uint8Array(screenshot.bytes)], { type: screenshot.type ?? 'image/png' }), screenshot.filename ?? 'screen.png');
  const headers: Record<string, string> = client?.cookie ? { Cookie: `app_session=${client.cookie}` } : {};
  return answer(await fetch(`${url}/api/v1/feedback`, { method: 'POST', body: form, headers }));
}

/** A multipart body sent chunked (no Content-Length), so that only counting the bytes can find it too large. */
async function sendChunked(url: string, client: Client, parts: { name: string; value: Uint8Array; filename?: string; type?: string }[]): Promise<Answer> {
  const boundary = `----feedback${randomUUID()}`;
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`), p.value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  const res = await fetch(`${url}/api/v1/feedback`, {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { Cookie: `app_session=${client.cookie}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  } as RequestInit);
  return answer(res);
}

const report = (over: Record<string, unknown> = {}) => ({ message: 'The shopping list is empty', screen: 'ShoppingList', build: 'ios/2.4.1', householdId: null, failedCalls: [], ...over });

httpSuite('feedback over HTTP', { mail: true, env: { ADMIN_EMAILS: ADMINS.join(',') } }, (server) => {

  const stored = (id: string) => server.runtime.deps.feedback.byId(id);

  it('takes a report with a PNG, a JPEG or a WebP screenshot, judged by its bytes, and stores it', async () => {
    const { client } = await server.signedIn();
    const me = (await client.get('/api/v1/me')).json;
    for (const [bytes, mediaType] of [
      [PNG, 'image/png'],
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
    ] as const) {
      // The declared type says nothing: a JPEG sent as application/octet-stream is still a JPEG.
      const res = await sendFeedback(server.url, client, report(), { bytes, type: 'application/octet-stream', filename: 'shot' });
      expect(res.status, JSON.stringify(res.json)).to.equal(200);
      expect(Object.keys(res.json).sort()).to.deep.equal(['id', 'receivedAt']);
      expect(new Date(res.json.receivedAt).toISOString()).to.equal(res.json.receivedAt);
      const r = await stored(res.json.id);
      expect(r).to.include({ accountId: me.user.id, message: 'The shopping list is empty', screen: 'ShoppingList', build: 'ios/2.4.1', householdId: null });
      expect(r?.receivedAt.toISOString()).to.equal(res.json.receivedAt);
      expect(r?.screenshot?.mediaType).to.equal(mediaType);
      expect(Buffer.from(r!.screenshot!.bytes).equals(bytes)).to.equal(true);
    }
  });

  it('takes a report without a screenshot, and an empty screenshot part as none', async () => {
    const { client } = await server.signedIn();
    const bare = await sendFeedback(server.url, client, { message: 'Only a message' });
    expect(bare.status).to.equal(200);
    expect(await stored(bare.json.id)).to.include({ message: 'Only a message', screen: null, build: null, householdId: null, screenshot: null });
    const empty = await sendFeedback(server.url, client, report(), { bytes: new Uint8Array(0) });
    expect(empty.status).to.equal(200);
    expect((await stored(empty.json.id))?.screenshot).to.equal(null);
  });

  it('takes the report as a JSON part with its own Content-Type and part names in any case, ignoring other parts', async () => {
    const { client } = await server.signedIn();
    const form = new FormData();
    form.append('Report', new Blob([JSON.stringify({ Message: 'Sent by an HTTP client that types its parts', Screen: 'Pantry' })], { type: 'application/json' }), 'report.json');
    form.append('SCREENSHOT', new Blob([PNG], { type: 'image/png' }), 'shot.png');
    form.append('extra', 'a field the route does not take is ignored');
    form.append('attachment', new Blob([GIF], { type: 'image/gif' }), 'other.gif');
    const res = await answer(await fetch(`${server.url}/api/v1/feedback`, { method: 'POST', body: form, headers: { Cookie: `app_session=${client.cookie}` } }));
    expect(res.status, JSON.stringify(res.json)).to.equal(200);
    const r = await stored(res.json.id);
    expect(r).to.include({ message: 'Sent by an HTTP client that types its parts', screen: 'Pantry' });
    expect(r?.screenshot?.mediaType).to.equal('image/png');
  });

  it('refuses a report sent twice and two screenshots', async () => {
    const { client } = await server.signedIn();
    const post = async (form: FormData) => answer(await fetch(`${server.url}/api/v1/feedback`, { method: 'POST', body: form, headers: { Cookie: `app_session=${client.cookie}` } }));
    const twice = new FormData();
    twice.append('report', JSON.stringify(report()));
    twice.append('report', JSON.stringify(report()));
    expect((await post(twice)).status).to.equal(400);
    const two = new FormData();
    two.append('report', JSON.stringify(report()));
    two.append('screenshot', new Blob([PNG], { type: 'image/png' }), 'a.png');
    two.append('screenshot', new Blob([PNG], { type: 'image/png' }), 'b.png');
    expect((await post(two)).status).to.equal(400);
  });

  it('refuses a GIF and a text file named .png with 400, storing nothing', async () => {
    const { client } = await server.signedIn();
    const gif = await sendFeedback(server.url, client, report({ message: 'gif' }), { bytes: GIF, type: 'image/png' });
    expect(gif.status).to.equal(400);
    expect(gif.json.code).to.equal('validation_failed');
    expect(gif.json.errors[0].path).to.equal('body.screenshot');
    const text = await sendFeedback(server.url, client, report({ message: 'text' }), { bytes: Buffer.from('not an image at all'), type: 'image/png', filename: 'shot.png' });
    expect(text.status).to.equal(400);
    expect(text.json.code).to.equal('validation_failed');
    const me = (await client.get('/api/v1/me')).json;
    expect(await server.runtime.db.knex('feedback_reports').where({ account_id: me.user.id }).select('id')).to.deep.equal([]);
  });

  it('refuses a screenshot of 5 MiB and a byte with 400 (not 413), and takes one of exactly 5 MiB', async () => {
    const { client } = await server.signedIn();
    const png = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);
    const over = await sendFeedback(server.url, client, report(), { bytes: png(5 * MiB + 1) });
    expect(over.status).to.equal(400);
    expect(over.json.code).to.equal('value_too_long');
    expect(over.json.errors).to.deep.equal([{ path: 'body.screenshot', message: 'at most 5242880 bytes' }]);
    const exact = await sendFeedback(server.url, client, report(), { bytes: png(5 * MiB) });
    expect(exact.status, JSON.stringify(exact.json)).to.equal(200);
    expect((await stored(exact.json.id))?.screenshot?.bytes.length).to.equal(5 * MiB);
    // Sent chunked, without Content-Length, the part is measured as it arrives.
    const chunked = await sendChunked(server.url, client, [
      { name: 'report', value: Buffer.from(JSON.stringify(report())) },
      { name: 'screenshot', value: png(5 * MiB + 1), filename: 'shot.png', type: 'image/png' },
    ]);
    expect(chunked.status).to.equal(400);
    expect(chunked.json.code).to.equal('value_too_long');
  });

  it('answers 413 to a body over 6 MiB, announced or chunked', async () => {
    const { client } = await server.signedIn();
    const big = await sendFeedback(server.url, client, report(), { bytes: Buffer.concat([PNG, Buffer.alloc(6 * MiB)]) });
    expect(big.status).to.equal(413);
    expect(big.json.code).to.equal('payload_too_large');
    const chunked = await sendChunked(server.url, client, [
      { name: 'report', value: Buffer.from(JSON.stringify(report({ message: 'x'.repeat(3 * MiB) }))) },
      { name: 'screenshot', value: Buffer.concat([PNG, Buffer.alloc(3 * MiB)]), filename: 'shot.png', type: 'image/png' },
    ]);
    expect(chunked.status).to.equal(413);
    expect(chunked.json.code).to.equal('payload_too_large');
    // The connection still serves the next request.
    expect((await sendFeedback(server.url, client, report())).status).to.equal(200);
  });

  it('answers 400 to a missing report, one that is not JSON, and one not of the documented shape', async () => {
    const { client } = await server.signedIn();
    const missing = await sendFeedback(server.url, client, undefined, { bytes: PNG });
    expect(missing.status).to.equal(400);
    expect(missing.json.code).to.equal('validation_failed');
    const notJson = await sendFeedback(server.url, client, '{"message": "unfinished');
    expect(notJson.status).to.equal(400);
    expect(notJson.json.code).to.equal('validation_failed');
    expect(notJson.json.errors[0].path).to.equal('body.report');
    const tooLong = await sendFeedback(server.url, client, report({ message: 'x'.repeat(4001) }));
    expect(tooLong.status).to.equal(400);
    expect(tooLong.json.code).to.equal('value_too_long');
    expect((await sendFeedback(server.url, client, report({ message: 'x'.repeat(4000) }))).status).to.equal(200);
    for (const bad of [report({ message: '' }), report({ message: '   ' }), report({ householdId: 'nope' }), report({ failedCalls: [{ method: 'GET' }] }), [1, 2]]) {
      const res = await sendFeedback(server.url, client, bad);
      expect(res.status, JSON.stringify(bad)).to.equal(400);
    }
    const nul = await sendFeedback(server.url, client, report({ message: 'a\u0000b' }));
    expect(nul.status).to.equal(400);
    expect(nul.json.detail).to.match(/NUL/);
    const asJson = await client.post('/api/v1/feedback', report());
    expect(asJson.status).to.equal(415);
  });

  it('keeps the newest 20 of 25 failed calls, newest first', async () => {
    const { client } = await server.signedIn();
    const calls = Array.from({ length: 25 }, (_, i) => ({
      method: 'GET',
      path: `/api/v1/things/${i}`,
      status: 500 + (i % 4),
      traceId: randomUUID().replace(/-/g, ''),
      at: new Date(Date.UTC(2026, 4, 4, 8, i, 0)).toISOString(),
    }));
    const res = await sendFeedback(server.url, client, report({ failedCalls: [...calls].reverse().slice(0, 12).concat([...calls].reverse().slice(12).reverse()) }));
    expect(res.status).to.equal(200);
    const r = await stored(res.json.id);
    expect(r?.failedCalls.map((c) => c.path)).to.deep.equal(calls.slice(5).reverse().map((c) => c.path));
    expect(r?.failedCalls[0]).to.deep.equal({ ...calls[24], at: new Date(calls[24]!.at) });
  });

  it("records the caller's own household and stores another as null, without an error", async () => {
    const { client } = await server.signedIn();
    const { client: other } = await server.signedIn();
    const mine = (await client.post('/api/v1/households', { name: 'Mine' })).json.id;
    const theirs = (await other.post('/api/v1/households', { name: 'Theirs' })).json.id;
    const own = await sendFeedback(server.url, client, report({ householdId: mine }));
    expect(own.status).to.equal(200);
    expect((await stored(own.json.id))?.householdId).to.equal(mine);
    const foreign = await sendFeedback(server.url, client, report({ householdId: theirs }));
    expect(foreign.status).to.equal(200);
    expect((await stored(foreign.json.id))?.householdId).to.equal(null);
  });

  it('alerts every admin address through the SMTP server', async () => {
    const { client, email } = await server.signedIn('Reporter Rita');
    const res = await sendFeedback(server.url, client, report({ message: 'Rita says the week plan froze' }), { bytes: PNG });
    expect(res.status).to.equal(200);
    for (const admin of ADMINS) {
      const mail = await server.smtp.waitFor(admin, (m) => m.text.includes(res.json.id));
      expect(mail.subject).to.equal('Feedback: Rita says the week plan froze');
      expect(mail.text).to.include(email).and.include('image/png');
    }
  });

  it('deletes the reports and their screenshots with the account', async () => {
    const { client } = await server.signedIn();
    const res = await sendFeedback(server.url, client, report(), { bytes: PNG });
    expect(await stored(res.json.id)).to.not.equal(null);
    expect((await client.delete('/api/v1/me')).status).to.equal(204);
    expect(await stored(res.json.id)).to.equal(null);
  });

  it('answers 401 without a session', async () => {
    const res = await sendFeedback(server.url, null, report(), { bytes: PNG });
    expect(res.status).to.equal(401);
    expect(res.json.code).to.equal('unauthenticated');
  });

  it('documents the multipart body in the OpenAPI document', async () => {
    const doc = (await fetch(`${server.url}/api/v1/openapi.json`).then(answer)).json;
    const op = doc.paths['/api/v1/feedback'].post;
    const media = op.requestBody.content['multipart/form-data'];
    expect(media.schema.required).to.deep.equal(['report']);
    expect(media.schema.properties.report.properties.message.maxLength).to.equal(4000);
    expect(media.schema.properties.screenshot).to.include({ type: 'string', format: 'binary' });
    expect(media.encoding).to.deep.equal({ report: { contentType: 'application/json' }, screenshot: { contentType: 'image/png, image/jpeg, image/webp' } });
    expect(Object.keys(op.responses)).to.include.members(['200', '400', '401', '413', '415']);
    expect(op.description).to.match(/newest 20/);
  });
});

eachDatabase('feedback with an unreachable mail server', (kind) => {
  const server = httpService(kind, {
    async env() {
      // A port nothing listens on.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      return { SMTP_URL: `smtp://127.0.0.1:${port}`, ADMIN_EMAILS: 'owner@example.com' };
    },
  });
  const { log } = server;

  it('still answers 200 and stores the report; the alert waits in the outbox for a retry', async () => {
    const { client } = await server.signedIn();
    const res = await sendFeedback(server.url, client, report({ message: 'Nobody will be told yet' }), { bytes: PNG });
    expect(res.status).to.equal(200);
    expect(await server.runtime.deps.feedback.byId(res.json.id)).to.not.equal(null);
    await server.runtime.mailer.drain();
    const waiting = log.lines.filter((l) => l['msg'] === 'mail not accepted, retried later' && l['to'] === 'owner@example.com');
    expect(waiting).to.have.length(1);
    const row = await server.runtime.deps.mailOutbox.byId(waiting[0]!['mailId'] as string);
    expect(row).to.include({ state: 'pending', attempts: 1, subject: 'Feedback: Nobody will be told yet' });
  });
});
