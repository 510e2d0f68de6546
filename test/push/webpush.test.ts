import { expect } from 'chai';
import { createDecipheriv, createECDH, createHash, createPublicKey, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import https from 'node:https';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import webpush from 'web-push';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { webPushSender } from '../../adapters/push/webpush.js';
import type { PushMessage } from '../../ports/push-sender.js';
import { close, deadPort, listen, selfSignedCert } from './loopback.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
type Reply = (res: ServerResponse) => void;
const status = (code: number, headers: Record<string, string> = {}): Reply => (res) => res.writeHead(code, headers).end();

const message: PushMessage = { title: 'Dinner at 18:30', body: 'Lasagne tonight', data: { kind: 'plan-changed', householdId: 'h-1' }, collapseKey: 'plan-h-1' };
const NOW = new Date('2026-03-02T17:00:00Z');

/** The browser's side of RFC 8291: what the service worker would read out of the request body. */
function decrypt(body: Buffer, browser: ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const serverKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const secret = browser.computeSecret(serverKey);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), browser.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, auth, info, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  const end = padded.lastIndexOf(2);
  expect(padded.subarray(end + 1).every((b) => b === 0), 'padding after the delimiter').to.equal(true);
  return padded.subarray(0, end).toString();
}

describe('Web Push sender with VAPID (real HTTPS server on loopback)', () => {
  let server: https.Server;
  let origin: string;
  let agent: https.Agent;
  let seen: Seen[];
  let replies: Reply[];
  const vapid = { subject: 'mailto:ops@dinner.example', ...webpush.generateVAPIDKeys() };
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  const auth = randomBytes(16);
  const clock = fixedClock(NOW);

  before(async () => {
    const tls = selfSignedCert();
    agent = new https.Agent({ ca: tls.cert });
    server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        (replies.shift() ?? status(201, { location: `${origin}/message/1` }))(res);
      });
    });
    origin = `https://127.0.0.1:${await listen(server)}`;
  });
  after(async () => {
    agent.destroy();
    await close(server);
  });
  beforeEach(() => {
    seen = [];
    replies = [];
  });

  const subscription = (endpoint = `${origin}/push/v2/abc-123`) =>
    JSON.stringify({ endpoint, expirationTime: null, keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } });
  const target = (token = subscription()) => ({ token, platform: 'web' });
  const sender = (o: { timeoutMs?: number } = {}) => webPushSender({ vapid, endpointHosts: ['127.0.0.1'], timeoutMs: o.timeoutMs ?? 2000, clock, agent });

  it('posts the encrypted message to the endpoint with the VAPID token and the push headers', async () => {
    expect(await sender().send(target(), message)).to.deep.equal({ kind: 'sent' });
    expect(seen).to.have.length(1);
    const { method, url, headers, body } = seen[0]!;
    expect(method).to.equal('POST');
    expect(url).to.equal('/push/v2/abc-123');
    expect(headers['ttl']).to.equal('86400');
    expect(headers['urgency']).to.equal('normal');
    expect(headers['topic']).to.equal('plan-h-1');
    expect(headers['content-encoding']).to.equal('aes128gcm');
    expect(headers['content-type']).to.equal('application/octet-stream');
    expect(headers['content-length']).to.equal(String(body.length));
    expect(headers).not.to.have.property('crypto-key');

    const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(headers['authorization']));
    expect(m, String(headers['authorization'])).to.not.equal(null);
    expect(m![2]).to.equal(vapid.publicKey);
    const point = Buffer.from(vapid.publicKey, 'base64url');
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    expect(decodeProtectedHeader(m![1]!)).to.deep.equal({ typ: 'JWT', alg: 'ES256' });
    const { payload } = await jwtVerify(m![1]!, key, { algorithms: ['ES256'] });
    expect(payload).to.have.all.keys('aud', 'exp', 'sub');
    expect(payload.aud).to.equal(origin);
    expect(payload.sub).to.equal('mailto:ops@dinner.example');
    expect(payload.exp! - Date.now() / 1000).to.be.within(60, 24 * 3600);

    // aes128gcm: salt, record size, the server's one-time key, then one record of ciphertext and tag.
    expect(body.readUInt32BE(16)).to.equal(4096);
    expect(body[20]).to.equal(65);
    const plaintext = decrypt(body, browser, auth);
    expect(JSON.parse(plaintext)).to.deep.equal({ title: 'Dinner at 18:30', body: 'Lasagne tonight', data: { kind: 'plan-changed', householdId: 'h-1' }, tag: 'plan-h-1' });
    expect(body.length).to.equal(86 + Buffer.byteLength(plaintext) + 1 + 16);
  });

  it('sends no Topic without a collapse key, and a 32-character digest for a key that is not one', async () => {
    const s = sender();
    await s.send(target(), { ...message, collapseKey: null });
    await s.send(target(), { ...message, collapseKey: 'plan:h-1:2026-03-02' });
    expect(seen[0]!.headers).not.to.have.property('topic');
    expect(JSON.parse(decrypt(seen[0]!.body, browser, auth))).not.to.have.property('tag');
    expect(seen[1]!.headers['topic']).to.equal(createHash('sha256').update('plan:h-1:2026-03-02').digest('base64url').slice(0, 32));
  });

  it('maps the answers: 404 and 410 gone, 400 and 413 rejected, 429 and 5xx retried', async () => {
    const s = sender();
    const cases: Array<[Reply, unknown]> = [
      [status(200), { kind: 'sent' }],
      [status(410), { kind: 'gone' }],
      [status(404), { kind: 'gone' }],
      [status(400), { kind: 'rejected', reason: 'webpush 400' }],
      [status(413), { kind: 'rejected', reason: 'webpush 413' }],
      [status(403), { kind: 'rejected', reason: 'webpush 403' }],
      [status(429, { 'retry-after': '60' }), { kind: 'retry', afterMs: 60_000, reason: 'webpush 429' }],
      [status(503, { 'retry-after': 'Mon, 02 Mar 2026 17:00:30 GMT' }), { kind: 'retry', afterMs: 30_000, reason: 'webpush 503' }],
      [status(500), { kind: 'retry', afterMs: null, reason: 'webpush 500' }],
    ];
    for (const [reply, outcome] of cases) {
      replies.push(reply);
      expect(await s.send(target(), message)).to.deep.equal(outcome);
    }
  });

  it('rejects a token that is no usable subscription, or names a host outside the push services, without a request', async () => {
    const s = sender();
    const p256dh = browser.getPublicKey().toString('base64url');
    const bad = [
      'not json',
      '{}',
      JSON.stringify({ endpoint: `${origin}/push`, keys: { p256dh } }),
      JSON.stringify({ endpoint: `${origin}/push`, keys: { p256dh, auth: 'c2hvcnQ' } }),
      JSON.stringify({ endpoint: `${origin}/push`, keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: auth.toString('base64url') } }),
      subscription(origin.replace('https:', 'http:') + '/push'),
    ];
    for (const token of bad) expect(await s.send(target(token), message), token).to.deep.equal({ kind: 'rejected', reason: 'webpush malformed subscription' });
    expect(await s.send(target(subscription('https://169.254.169.254/latest')), message)).to.deep.equal({ kind: 'rejected', reason: 'webpush endpoint host not allowed' });
    expect(await s.send(target(subscription('https://127.0.0.1.evil.example/push')), message)).to.deep.equal({ kind: 'rejected', reason: 'webpush endpoint host not allowed' });
    expect(await s.send(target(), { ...message, body: 'x'.repeat(4000) })).to.deep.equal({ kind: 'rejected', reason: 'webpush payload too large' });
    expect(seen).to.deep.equal([]);
  });

  it('retries on a network failure and on a server that does not answer in time', async () => {
    const dead = await deadPort(https.createServer());
    const refused = await sender().send(target(subscription(`https://127.0.0.1:${dead}/push`)), message);
    expect(refused).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'webpush network: ECONNREFUSED' });

    replies.push(() => undefined);
    const started = Date.now();
    const slow = await sender({ timeoutMs: 200 }).send(target(), message);
    expect(slow).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'webpush network: Socket timeout' });
    expect(Date.now() - started).to.be.below(1500);
  });
});
