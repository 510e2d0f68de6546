import { expect } from 'chai';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import http from 'node:http';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { fcmPushSender, FCM_SCOPE } from '../../adapters/push/fcm.js';
import type { Logger } from '../../ports/logger.js';
import type { PushMessage, PushSender } from '../../ports/push-sender.js';
import { close, deadPort, listen } from './loopback.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = (req: Seen, res: http.ServerResponse) => void;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const fcmError = (code: number, status: string, errorCode?: string) =>
  json(code, {
    error: { code, message: 'x', status, details: errorCode ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] : [] },
  });

const message: PushMessage = { title: 'Dinner at 18:30', body: 'Lasagne tonight', data: { kind: 'plan-changed', householdId: 'h-1' }, collapseKey: 'plan-h-1' };
const target = { token: 'fcm-device-token-abcdef', platform: 'android' };

describe('FCM HTTP v1 push sender (real HTTP server on loopback)', () => {
  let server: http.Server;
  let origin: string;
  let publicKey: KeyObject;
  let privatePem: string;
  let seen: Seen[];
  let tokenReplies: Reply[];
  let sendReplies: Reply[];
  let tokensIssued: number;
  const clock = fixedClock(new Date('2026-03-02T17:00:00Z'));
  const warnings: unknown[] = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (m, f) => warnings.push([m, f]), error: () => undefined, enabled: () => true };

  before(async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    publicKey = pair.publicKey;
    privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
        seen.push(s);
        if (req.url === '/token') {
          tokensIssued += 1;
          (tokenReplies.shift() ?? json(200, { access_token: `at-${tokensIssued}`, expires_in: 3599, token_type: 'Bearer' }))(s, res);
        } else (sendReplies.shift() ?? json(200, { name: 'projects/dinner-test/messages/1' }))(s, res);
      });
    });
    origin = `http://127.0.0.1:${await listen(server)}`;
  });
  after(() => close(server));
  beforeEach(() => {
    seen = [];
    tokenReplies = [];
    sendReplies = [];
    tokensIssued = 0;
    clock.set(new Date('2026-03-02T17:00:00Z'));
  });

  const sender = (o: { endpoint?: string; tokenUri?: string; timeoutMs?: number } = {}): PushSender =>
    fcmPushSender({
      serviceAccount: { projectId: 'dinner-test', clientEmail: 'push@dinner-test.iam.gserviceaccount.com', privateKey: privatePem, privateKeyId: 'key-1', tokenUri: o.tokenUri ?? `${origin}/token` },
      endpoint: o.endpoint ?? origin,
      timeoutMs: o.timeoutMs ?? 2000,
      clock,
      logger,
    });

  it('gets an access token by a signed JWT-bearer grant, then posts the v1 message with it', async () => {
    expect(await sender().send(target, message)).to.deep.equal({ kind: 'sent' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).to.deep.equal(['POST /token', 'POST /v1/projects/dinner-test/messages:send']);

    const [grant, send] = seen as [Seen, Seen];
    expect(grant.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    const form = new URLSearchParams(grant.body);
    expect([...form.keys()]).to.deep.equal(['grant_type', 'assertion']);
    expect(form.get('grant_type')).to.equal('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const assertion = form.get('assertion')!;
    expect(decodeProtectedHeader(assertion)).to.deep.equal({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
    const iat = Date.parse('2026-03-02T17:00:00Z') / 1000;
    const { payload } = await jwtVerify(assertion, publicKey, { algorithms: ['RS256'], currentDate: clock.now() });
    expect(payload).to.deep.equal({ scope: FCM_SCOPE, iss: 'push@dinner-test.iam.gserviceaccount.com', aud: `${origin}/token`, iat, exp: iat + 3600 });

    expect(send.headers['authorization']).to.equal('Bearer at-1');
    expect(send.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(JSON.parse(send.body)).to.deep.equal({
      message: {
        token: 'fcm-device-token-abcdef',
        notification: { title: 'Dinner at 18:30', body: 'Lasagne tonight' },
        data: { kind: 'plan-changed', householdId: 'h-1' },
        android: { priority: 'high', ttl: '86400s', collapse_key: 'plan-h-1' },
        apns: { headers: { 'apns-collapse-id': 'plan-h-1' } },
      },
    });
  });

  it('leaves out the collapse fields when the message has no collapse key', async () => {
    await sender().send(target, { ...message, collapseKey: null });
    const body = JSON.parse(seen[1]!.body) as { message: Record<string, unknown> };
    expect(body.message['android']).to.deep.equal({ priority: 'high', ttl: '86400s' });
    expect(body.message).not.to.have.property('apns');
  });

  it('keeps the access token across sends and takes a new one shortly before it expires', async () => {
    const s = sender();
    await s.send(target, message);
    clock.advance(50 * 60 * 1000);
    await s.send(target, message);
    expect(seen.filter((x) => x.url === '/token')).to.have.length(1);
    clock.advance(6 * 60 * 1000); // 56 minutes: within five minutes of the 3599 s
    await s.send(target, message);
    const grants = seen.filter((x) => x.url === '/token');
    expect(grants).to.have.length(2);
    const second = new URLSearchParams(grants[1]!.body).get('assertion')!;
    const { payload } = await jwtVerify(second, publicKey, { currentDate: clock.now() });
    expect(payload.iat).to.equal(Date.parse('2026-03-02T17:56:00Z') / 1000);
    expect(seen.filter((x) => x.url !== '/token').map((x) => x.headers['authorization'])).to.deep.equal(['Bearer at-1', 'Bearer at-1', 'Bearer at-2']);
  });

  it('shares one grant between concurrent sends', async () => {
    const s = sender();
    const outcomes = await Promise.all([s.send(target, message), s.send(target, message), s.send(target, message)]);
    expect(outcomes).to.deep.equal([{ kind: 'sent' }, { kind: 'sent' }, { kind: 'sent' }]);
    expect(seen.filter((x) => x.url === '/token')).to.have.length(1);
  });

  it('maps the answers: unregistered is gone, a bad argument rejected, limits and outages retried', async () => {
    const s = sender();
    const cases: Array<[Reply, unknown]> = [
      [fcmError(404, 'NOT_FOUND', 'UNREGISTERED'), { kind: 'gone' }],
      [fcmError(400, 'INVALID_ARGUMENT', 'UNREGISTERED'), { kind: 'gone' }],
      [json(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } }), { kind: 'gone' }],
      [(_q, res) => res.writeHead(404).end('Not Found'), { kind: 'rejected', reason: 'fcm 404' }],
      [fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT'), { kind: 'rejected', reason: 'fcm 400 INVALID_ARGUMENT' }],
      [fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH'), { kind: 'rejected', reason: 'fcm 403 PERMISSION_DENIED/SENDER_ID_MISMATCH' }],
      [fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED'), { kind: 'retry', afterMs: null, reason: 'fcm 429 RESOURCE_EXHAUSTED/QUOTA_EXCEEDED' }],
      [json(429, {}, { 'retry-after': '30' }), { kind: 'retry', afterMs: 30_000, reason: 'fcm 429' }],
      [json(503, {}, { 'retry-after': 'Mon, 02 Mar 2026 17:02:00 GMT' }), { kind: 'retry', afterMs: 120_000, reason: 'fcm 503' }],
      [fcmError(500, 'INTERNAL', 'INTERNAL'), { kind: 'retry', afterMs: null, reason: 'fcm 500 INTERNAL' }],
      [(_q, res) => res.writeHead(502).end('<html>bad gateway</html>'), { kind: 'retry', afterMs: null, reason: 'fcm 502' }],
    ];
    for (const [reply, outcome] of cases) {
      sendReplies.push(reply);
      expect(await s.send(target, message)).to.deep.equal(outcome);
    }
    expect(seen.filter((x) => x.url === '/token')).to.have.length(1);
  });

  it('retries a 401 and takes a new access token for the next send', async () => {
    const s = sender();
    sendReplies.push(fcmError(401, 'UNAUTHENTICATED', 'THIRD_PARTY_AUTH_ERROR'));
    expect(await s.send(target, message)).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'fcm 401 UNAUTHENTICATED/THIRD_PARTY_AUTH_ERROR' });
    expect(await s.send(target, message)).to.deep.equal({ kind: 'sent' });
    expect(seen.filter((x) => x.url !== '/token').map((x) => x.headers['authorization'])).to.deep.equal(['Bearer at-1', 'Bearer at-2']);
  });

  it('retries when the token endpoint refuses the grant, without repeating the assertion', async () => {
    warnings.length = 0;
    tokenReplies.push(json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }));
    expect(await sender().send(target, message)).to.deep.equal({ kind: 'retry', afterMs: null, reason: 'fcm oauth 400' });
    expect(seen.map((x) => x.url)).to.deep.equal(['/token']);
    expect(warnings).to.deep.equal([['fcm access token refused', { status: 400, error: 'invalid_grant' }]]);
  });

  it('retries on a network failure and on a server that does not answer in time', async () => {
    const dead = `http://127.0.0.1:${await deadPort(http.createServer())}`;
    const refused = await sender({ endpoint: dead }).send(target, message);
    expect(refused).to.deep.include({ kind: 'retry', afterMs: null });
    expect((refused as { reason: string }).reason).to.match(/^fcm network: /);
    expect(await sender({ tokenUri: `${dead}/token` }).send(target, message)).to.have.property('kind', 'retry');

    sendReplies.push(() => undefined); // holds the request open
    const started = Date.now();
    const slow = await sender({ timeoutMs: 200 }).send(target, message);
    expect(slow).to.deep.include({ kind: 'retry' });
    expect((slow as { reason: string }).reason).to.match(/^fcm network: (TimeoutError|AbortError)/);
    expect(Date.now() - started).to.be.below(1500);
  });
});
