import { expect } from 'chai';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import http2 from 'node:http2';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { apnsPushSender } from '../../adapters/push/apns.js';
import type { PushMessage } from '../../ports/push-sender.js';
import { close, deadPort, listen, selfSignedCert } from './loopback.js';

interface Seen {
  headers: http2.IncomingHttpHeaders;
  body: string;
}
type Reply = (stream: http2.ServerHttp2Stream) => void;

const answer = (status: number, body?: unknown, headers: Record<string, string> = {}): Reply => (stream) => {
  stream.respond({ ':status': status, 'apns-id': 'A1B2', ...(body ? { 'content-type': 'application/json' } : {}), ...headers });
  stream.end(body ? JSON.stringify(body) : undefined);
};

const deviceToken = 'a'.repeat(56) + '0f1e2d3c';
const target = { token: deviceToken, platform: 'ios' };
const message: PushMessage = { title: 'Dinner at 18:30', body: 'Lasagne tonight', data: { kind: 'plan-changed', householdId: 'h-1', aps: 'not theirs' }, collapseKey: 'plan-h-1' };
const START = new Date('2026-03-02T17:00:00Z');
const START_SEC = START.getTime() / 1000;

describe('APNs push sender (real HTTP/2 server with TLS on loopback)', () => {
  let server: http2.Http2SecureServer;
  let origin: string;
  let cert: string;
  let tokenPublicKey: KeyObject;
  let tokenPrivatePem: string;
  let seen: Seen[];
  let replies: Reply[];
  let sessions: http2.ServerHttp2Session[];
  const clock = fixedClock(START);
  const open: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    const tls = selfSignedCert();
    cert = tls.cert;
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    tokenPublicKey = pair.publicKey;
    tokenPrivatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    server = http2.createSecureServer({ key: tls.key, cert: tls.cert });
    server.on('session', (s) => sessions.push(s));
    server.on('stream', (stream: http2.ServerHttp2Stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('error', () => undefined); // the resets the tests make
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        seen.push({ headers, body: Buffer.concat(chunks).toString() });
        (replies.shift() ?? answer(200))(stream);
      });
    });
    origin = `https://127.0.0.1:${await listen(server)}`;
  });
  after(() => close(server));
  beforeEach(() => {
    seen = [];
    replies = [];
    sessions = [];
    clock.set(START);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  const sender = (o: { origin?: string; timeoutMs?: number } = {}) => {
    const s = apnsPushSender({
      keyId: 'KEY1234567',
      teamId: 'TEAM123456',
      bundleId: 'com.example.dinner',
      privateKey: tokenPrivatePem,
      origin: o.origin ?? origin,
      timeoutMs: o.timeoutMs ?? 2000,
      clock,
      tls: { ca: cert },
    });
    open.push(s);
    return s;
  };
  const bearer = (s: Seen) => String(s.headers['authorization']).replace(/^bearer /, '');

  it('posts the alert to /3/device/{token} with a signed provider token and the APNs headers', async () => {
    expect(await sender().send(target, message)).to.deep.equal({ kind: 'sent' });
    expect(seen).to.have.length(1);
    const { headers, body } = seen[0]!;
    expect(headers[':method']).to.equal('POST');
    expect(headers[':path']).to.equal(`/3/device/${deviceToken}`);
    expect(headers[':scheme']).to.equal('https');
    expect(headers['apns-topic']).to.equal('com.example.dinner');
    expect(headers['apns-push-type']).to.equal('alert');
    expect(headers['apns-priority']).to.equal('10');
    expect(headers['apns-expiration']).to.equal(String(START_SEC + 86_400));
    expect(headers['apns-collapse-id']).to.equal('plan-h-1');
    expect(headers['content-type']).to.equal('application/json');
    expect(String(headers['authorization'])).to.match(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);

    const jwt = bearer(seen[0]!);
    expect(decodeProtectedHeader(jwt)).to.deep.equal({ alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(jwt, tokenPublicKey, { algorithms: ['ES256'], currentDate: START });
    expect(payload).to.deep.equal({ iss: 'TEAM123456', iat: START_SEC });

    expect(JSON.parse(body)).to.deep.equal({
      aps: { alert: { title: 'Dinner at 18:30', body: 'Lasagne tonight' }, sound: 'default' },
      kind: 'plan-changed',
      householdId: 'h-1',
    });
  });

  it('sends no collapse id without a collapse key, and a stable digest for one longer than 64 bytes', async () => {
    const s = sender();
    await s.send(target, { ...message, collapseKey: null });
    const long = 'ü'.repeat(40);
    await s.send(target, { ...message, collapseKey: long });
    await s.send(target, { ...message, collapseKey: long });
    expect(seen[0]!.headers).not.to.have.property('apns-collapse-id');
    const digest = createHash('sha256').update(long).digest('base64url');
    expect(seen.slice(1).map((x) => x.headers['apns-collapse-id'])).to.deep.equal([digest, digest]);
  });

  it('reuses one HTTP/2 session and one provider token, renewing the token after 50 minutes', async () => {
    const s = sender();
    await s.send(target, message);
    clock.advance(49 * 60 * 1000);
    await s.send(target, message);
    expect(sessions).to.have.length(1);
    expect(bearer(seen[1]!)).to.equal(bearer(seen[0]!));
    clock.advance(60 * 1000);
    await s.send(target, message);
    expect(sessions).to.have.length(1);
    const renewed = bearer(seen[2]!);
    expect(renewed).not.to.equal(bearer(seen[0]!));
    const { payload } = await jwtVerify(renewed, tokenPublicKey, { currentDate: clock.now() });
    expect(payload.iat).to.equal(START_SEC + 50 * 60);
  });

  it('opens a new session when the server closed the old one, and close() ends it', async () => {
    const s = sender();
    await s.send(target, message);
    const first = sessions[0]!;
    await new Promise<void>((resolve) => first.close(resolve));
    await new Promise((r) => setTimeout(r, 20));
    expect(await s.send(target, message)).to.deep.equal({ kind: 'sent' });
    expect(sessions).to.have.length(2);
    const closed = new Promise<void>((resolve) => sessions[1]!.on('close', resolve));
    await s.close();
    await closed;
    expect(sessions[1]!.closed || sessions[1]!.destroyed).to.equal(true);
  });

  it('maps the answers: unregistered and bad tokens are gone, other refusals rejected, limits and outages retried', async () => {
    const s = sender();
    const cases: Array<[Reply, unknown]> = [
      [answer(410, { reason: 'Unregistered', timestamp: 1_700_000_000_000 }), { kind: 'gone' }],
      [answer(400, { reason: 'BadDeviceToken' }), { kind: 'gone' }],
      [answer(400, { reason: 'BadCollapseId' }), { kind: 'rejected', reason: 'apns 400 BadCollapseId' }],
      [answer(400, { reason: 'DeviceTokenNotForTopic' }), { kind: 'rejected', reason: 'apns 400 DeviceTokenNotForTopic' }],
      [answer(413, { reason: 'PayloadTooLarge' }), { kind: 'rejected', reason: 'apns 413 PayloadTooLarge' }],
      [answer(429, { reason: 'TooManyRequests' }), { kind: 'retry', afterMs: null, reason: 'apns 429 TooManyRequests' }],
      [answer(429, { reason: 'TooManyRequests' }, { 'retry-after': '120' }), { kind: 'retry', afterMs: 120_000, reason: 'apns 429 TooManyRequests' }],
      [answer(500, { reason: 'InternalServerError' }), { kind: 'retry', afterMs: null, reason: 'apns 500 InternalServerError' }],
      [answer(503, { reason: 'ServiceUnavailable' }), { kind: 'retry', afterMs: null, reason: 'apns 503 ServiceUnavailable' }],
      [answer(403, { reason: 'BadCertificateEnvironment' }), { kind: 'retry', afterMs: null, reason: 'apns 403 BadCertificateEnvironment' }],
      [answer(200), { kind: 'sent' }],
    ];
    for (const [reply, outcome] of cases) {
      replies.push(reply);
      expect(await s.send(target, message)).to.deep.equal(outcome);
    }
    expect(sessions).to.have.length(1);
  });

  it('answers 403 ExpiredProviderToken with a retry and a new provider token once the old one is 20 minutes old', async () => {
    const s = sender();
    replies.push(answer(403, { reason: 'ExpiredProviderToken' }));
    expect(await s.send(target, message)).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'apns 403 ExpiredProviderToken' });
    await s.send(target, message);
    expect(bearer(seen[1]!)).to.equal(bearer(seen[0]!)); // younger than 20 minutes: APNs would refuse a renewal

    clock.advance(21 * 60 * 1000);
    replies.push(answer(403, { reason: 'InvalidProviderToken' }));
    expect(await s.send(target, message)).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'apns 403 InvalidProviderToken' });
    await s.send(target, message);
    expect(bearer(seen[3]!)).not.to.equal(bearer(seen[0]!));
    const { payload } = await jwtVerify(bearer(seen[3]!), tokenPublicKey, { currentDate: clock.now() });
    expect(payload.iat).to.equal(START_SEC + 21 * 60);
  });

  it('rejects a malformed device token and an oversized payload without a request', async () => {
    const s = sender();
    expect(await s.send({ token: '../../3/other', platform: 'ios' }, message)).to.deep.equal({ kind: 'rejected', reason: 'apns malformed device token' });
    expect(await s.send(target, { ...message, body: 'x'.repeat(5000) })).to.deep.equal({ kind: 'rejected', reason: 'apns payload too large' });
    expect(seen).to.deep.equal([]);
  });

  it('retries on a network failure, a stream reset and a server that does not answer in time', async () => {
    const dead = await deadPort(http2.createSecureServer({}));
    const refused = await sender({ origin: `https://127.0.0.1:${dead}` }).send(target, message);
    expect(refused).to.deep.include({ kind: 'retry', afterMs: null });
    expect((refused as { reason: string }).reason).to.match(/^apns network: /);

    replies.push((stream) => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
    const reset = await sender().send(target, message);
    expect(reset).to.deep.include({ kind: 'retry' });
    expect((reset as { reason: string }).reason).to.match(/^apns network: ERR_HTTP2_STREAM_ERROR/);

    replies.push(() => undefined);
    const started = Date.now();
    expect(await sender({ timeoutMs: 200 }).send(target, message)).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'apns network: ETIMEDOUT' });
    expect(Date.now() - started).to.be.below(1500);
  });
});
