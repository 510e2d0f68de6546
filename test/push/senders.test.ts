import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { createPushSenders } from '../../adapters/push/index.js';
import { logPushSender } from '../../adapters/push/log.js';
import { ConfigError, DEFAULT_WEBPUSH_ENDPOINT_HOSTS, loadConfig } from '../../config/config.js';
import type { LogFields, Logger } from '../../ports/logger.js';
import type { PushMessage } from '../../ports/push-sender.js';

const message: PushMessage = { title: 'Dinner at 18:30', body: 'Lasagne tonight', data: { kind: 'plan-changed' }, collapseKey: null };

function recordingLogger() {
  const lines: Array<[string, LogFields | undefined]> = [];
  const log = (msg: string, fields?: LogFields) => void lines.push([msg, fields]);
  const logger: Logger = { debug: log, info: log, warn: log, error: log, enabled: () => true };
  return { logger, lines };
}

describe('push senders: log provider, configuration and assembly', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const p8 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const vapid = webpush.generateVAPIDKeys();
  const serviceAccount = {
    type: 'service_account',
    project_id: 'dinner-test',
    private_key_id: 'key-1',
    private_key: rsa,
    client_email: 'push@dinner-test.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.example/token',
  };
  const everything = {
    PUSH_PROVIDER: 'apns',
    FCM_SERVICE_ACCOUNT: JSON.stringify(serviceAccount),
    APNS_KEY_ID: 'KEY1234567',
    APNS_TEAM_ID: 'TEAM123456',
    APNS_BUNDLE_ID: 'com.example.dinner',
    APNS_PRIVATE_KEY: p8.replace(/\n/g, '\\n'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@dinner.example',
  };
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'push-config-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the log provider logs the message with the token cut to its last six characters', async () => {
    const { logger, lines } = recordingLogger();
    const outcome = await logPushSender(logger).send({ token: 'secret-device-token-0123456789', platform: 'android' }, message);
    expect(outcome).to.deep.equal({ kind: 'sent' });
    expect(lines).to.deep.equal([
      ['push sent to the log', { platform: 'android', token: '…456789', title: 'Dinner at 18:30', body: 'Lasagne tonight', data: { kind: 'plan-changed' }, collapseKey: null }],
    ]);
  });

  it('by default only the log provider is configured, and it is the default', async () => {
    const c = loadConfig({});
    expect(c.push).to.deep.equal({ defaultProvider: 'log', timeoutMs: 10_000, fcm: null, apns: null, webpush: null });
    const built = createPushSenders(c.push, { logger: recordingLogger().logger });
    expect([...built.senders.keys()]).to.deep.equal(['log']);
    expect(built.defaultProvider).to.equal('log');
    await built.close();
  });

  it('reads every provider, keys given inline or as files, and builds a sender for each', async () => {
    const c = loadConfig({ ...everything, PUSH_TIMEOUT_MS: '2500', FCM_ENDPOINT: 'https://fcm.example/', APNS_ORIGIN: 'https://api.sandbox.push.apple.com' });
    expect(c.push.defaultProvider).to.equal('apns');
    expect(c.push.timeoutMs).to.equal(2500);
    expect(c.push.fcm).to.deep.equal({
      serviceAccount: { projectId: 'dinner-test', clientEmail: serviceAccount.client_email, privateKey: rsa, privateKeyId: 'key-1', tokenUri: 'https://oauth2.example/token' },
      endpoint: 'https://fcm.example',
    });
    expect(c.push.apns).to.deep.equal({ keyId: 'KEY1234567', teamId: 'TEAM123456', bundleId: 'com.example.dinner', privateKey: p8, origin: 'https://api.sandbox.push.apple.com' });
    expect(c.push.webpush).to.deep.equal({ subject: 'mailto:ops@dinner.example', ...vapid, endpointHosts: [...DEFAULT_WEBPUSH_ENDPOINT_HOSTS] });

    const saFile = join(dir, 'service-account.json');
    const p8File = join(dir, 'AuthKey_KEY1234567.p8');
    writeFileSync(saFile, JSON.stringify({ ...serviceAccount, token_uri: undefined }));
    writeFileSync(p8File, p8);
    const fromFiles = loadConfig({ ...everything, FCM_SERVICE_ACCOUNT: saFile, APNS_PRIVATE_KEY: p8File, WEBPUSH_ENDPOINT_HOSTS: 'push.example, Other.example' });
    expect(fromFiles.push.fcm?.serviceAccount.tokenUri).to.equal('https://oauth2.googleapis.com/token');
    expect(fromFiles.push.fcm?.endpoint).to.equal('https://fcm.googleapis.com');
    expect(fromFiles.push.apns?.privateKey).to.equal(p8);
    expect(fromFiles.push.apns?.origin).to.equal('https://api.push.apple.com');
    expect(fromFiles.push.webpush?.endpointHosts).to.deep.equal(['push.example', 'other.example']);

    const built = createPushSenders(c.push, { logger: recordingLogger().logger, clock: fixedClock(new Date('2026-03-02T17:00:00Z')) });
    expect([...built.senders.keys()]).to.deep.equal(['log', 'fcm', 'apns', 'webpush']);
    expect([...built.senders.values()].map((s) => s.provider)).to.deep.equal(['log', 'fcm', 'apns', 'webpush']);
    expect(built.defaultProvider).to.equal('apns');
    await built.close();
  });

  it('hands the injected fetch to the FCM sender', async () => {
    const calls: string[] = [];
    const fakeFetch = (async (url: string | URL | Request) => {
      calls.push(String(url));
      return String(url).endsWith('/token') ? Response.json({ access_token: 'at', expires_in: 3600 }) : Response.json({ name: 'm/1' });
    }) as typeof fetch;
    const c = loadConfig({ FCM_SERVICE_ACCOUNT: JSON.stringify(serviceAccount), PUSH_PROVIDER: 'fcm' });
    const built = createPushSenders(c.push, { logger: recordingLogger().logger, fetch: fakeFetch });
    expect(await built.senders.get('fcm')!.send({ token: 't', platform: 'android' }, message)).to.deep.equal({ kind: 'sent' });
    expect(calls).to.deep.equal(['https://oauth2.example/token', 'https://fcm.googleapis.com/v1/projects/dinner-test/messages:send']);
  });

  it('stops on a push setting that is malformed, incomplete or names an unconfigured provider', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PUSH_PROVIDER: 'fcm' }, 'PUSH_PROVIDER'],
      [{ PUSH_PROVIDER: 'webpush', FCM_SERVICE_ACCOUNT: everything.FCM_SERVICE_ACCOUNT }, 'PUSH_PROVIDER'],
      [{ PUSH_TIMEOUT_MS: '5' }, 'PUSH_TIMEOUT_MS'],
      [{ FCM_SERVICE_ACCOUNT: join(dir, 'missing.json') }, 'FCM_SERVICE_ACCOUNT'],
      [{ FCM_SERVICE_ACCOUNT: '{"project_id":"p"' }, 'FCM_SERVICE_ACCOUNT'],
      [{ FCM_SERVICE_ACCOUNT: JSON.stringify({ ...serviceAccount, client_email: '' }) }, 'FCM_SERVICE_ACCOUNT'],
      [{ FCM_SERVICE_ACCOUNT: JSON.stringify({ ...serviceAccount, private_key: p8 }) }, 'FCM_SERVICE_ACCOUNT'],
      [{ FCM_SERVICE_ACCOUNT: everything.FCM_SERVICE_ACCOUNT, FCM_ENDPOINT: 'fcm.googleapis.com' }, 'FCM_ENDPOINT'],
      [{ APNS_KEY_ID: 'KEY1234567', APNS_BUNDLE_ID: 'com.example.dinner', APNS_PRIVATE_KEY: p8 }, 'APNS_TEAM_ID'],
      [{ ...everything, APNS_KEY_ID: 'key' }, 'APNS_KEY_ID'],
      [{ ...everything, APNS_BUNDLE_ID: 'dinner' }, 'APNS_BUNDLE_ID'],
      [{ ...everything, APNS_PRIVATE_KEY: rsa }, 'APNS_PRIVATE_KEY'],
      [{ ...everything, APNS_ORIGIN: 'api.push.apple.com' }, 'APNS_ORIGIN'],
      [{ VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_SUBJECT: 'mailto:ops@dinner.example' }, 'VAPID_PRIVATE_KEY'],
      [{ ...everything, VAPID_PUBLIC_KEY: 'BAAA' }, 'VAPID_PUBLIC_KEY'],
      [{ ...everything, VAPID_PRIVATE_KEY: webpush.generateVAPIDKeys().privateKey }, 'VAPID_PRIVATE_KEY'],
      [{ ...everything, VAPID_SUBJECT: 'http://dinner.example' }, 'VAPID_SUBJECT'],
      [{ ...everything, WEBPUSH_ENDPOINT_HOSTS: 'push.example/path' }, 'WEBPUSH_ENDPOINT_HOSTS'],
    ];
    for (const [env, variable] of cases) {
      expect(() => loadConfig(env), JSON.stringify(Object.keys(env))).to.throw(ConfigError).with.property('variable', variable);
    }
  });
});
