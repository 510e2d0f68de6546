import http2 from 'node:http2';
import type { CryptoKey } from 'jose';
import { joseLibrary } from '../first-use.js';
import type { Clock } from '../../ports/clock.js';
import type { PushMessage, PushSender, SendOutcome } from '../../ports/push-sender.js';
import { fitCollapseKey, gone, networkReason, PUSH_TTL_SECONDS, rejected, retry, retryAfterMs, sent } from './outcome.js';

export interface ApnsOptions {
  /** The token key's id (kid) and the team that owns it (iss). */
  readonly keyId: string;
  readonly teamId: string;
  /** apns-topic: the app's bundle id. */
  readonly bundleId: string;
  /** PKCS#8 PEM of the .p8 token key (P-256). */
  readonly privateKey: string;
  /** https://api.push.apple.com, or the sandbox; an http: origin speaks HTTP/2 without TLS (for tests only). */
  readonly origin: string;
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** TLS settings for the connection, e.g. a test's own CA. */
  readonly tls?: http2.SecureClientSessionOptions;
}

/** APNs refuses a provider token older than an hour and one renewed more often than every 20 minutes. */
const TOKEN_REUSE_MS = 50 * 60 * 1000;
const TOKEN_MIN_AGE_FOR_RENEWAL_MS = 20 * 60 * 1000;
const MAX_PAYLOAD_BYTES = 4096;
const MAX_ANSWER_BYTES = 16 * 1024;
const DEVICE_TOKEN = /^[0-9A-Fa-f]{8,400}$/;

interface Answer {
  readonly status: number;
  readonly headers: http2.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * APNs over HTTP/2 with a token key (ES256 JWT, header kid, claims iss and iat), one session per sender that
 * is opened on first use and again after the server closes it; `close()` ends it.
 *
 * Answers: 200 sent; 410 (Unregistered, ExpiredToken) and 400 BadDeviceToken gone; other 400s, 404 and 413
 * rejected; 403 retry (after ExpiredProviderToken or InvalidProviderToken the JWT is minted anew when it is at
 * least 20 minutes old, since a younger one would be refused as TooManyProviderTokenUpdates and could not be
 * fresher anyway); 429 and 5xx retry with Retry-After when given; network faults and timeouts retry.
 */
export function apnsPushSender(o: ApnsOptions): PushSender & { close(): Promise<void> } {
  let session: http2.ClientHttp2Session | null = null;
  let signingKey: Promise<CryptoKey> | null = null;
  let jwt: { readonly value: string; readonly issuedAtMs: number } | null = null;
  let minting: Promise<string> | null = null;

  const mint = async (): Promise<string> => {
    const { importPKCS8, SignJWT } = await joseLibrary();
    signingKey ??= importPKCS8(o.privateKey, 'ES256');
    const issuedAtMs = o.clock.now().getTime();
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: o.keyId })
      .setIssuer(o.teamId)
      .setIssuedAt(Math.floor(issuedAtMs / 1000))
      .sign(await signingKey);
    jwt = { value, issuedAtMs };
    return value;
  };

  const providerToken = (): Promise<string> => {
    const now = o.clock.now().getTime();
    if (jwt && now - jwt.issuedAtMs < TOKEN_REUSE_MS) return Promise.resolve(jwt.value);
    minting ??= mint().finally(() => {
      minting = null;
    });
    return minting;
  };

  const connection = (): http2.ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    const s = http2.connect(o.origin, o.tls);
    // A failed or dropped session is reported by the streams on it; the next send opens a new one.
    s.on('error', () => undefined);
    const forget = () => {
      if (session === s) session = null;
    };
    s.on('close', forget);
    s.on('goaway', forget);
    session = s;
    return s;
  };

  return {
    provider: 'apns',
    async send(target, message) {
      if (!DEVICE_TOKEN.test(target.token)) return rejected('apns malformed device token');
      const payload = JSON.stringify(apnsPayload(message));
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) return rejected('apns payload too large');
      const nowSec = Math.floor(o.clock.now().getTime() / 1000);
      const bearer = await providerToken();
      let answer: Answer;
      try {
        answer = await post(connection, o.timeoutMs, `/3/device/${target.token}`, apnsHeaders(o.bundleId, bearer, message, nowSec), payload);
      } catch (e) {
        return retry(networkReason('apns', e));
      }
      const outcome = apnsOutcome(answer, o.clock.now());
      const reason = apnsReason(answer.body);
      if (
        answer.status === 403 &&
        (reason === 'ExpiredProviderToken' || reason === 'InvalidProviderToken') &&
        jwt !== null &&
        o.clock.now().getTime() - jwt.issuedAtMs >= TOKEN_MIN_AGE_FOR_RENEWAL_MS
      ) {
        jwt = null;
      }
      return outcome;
    },
    close: () =>
      new Promise<void>((resolve) => {
        const s = session;
        session = null;
        if (!s || s.closed || s.destroyed) resolve();
        else s.close(() => resolve());
      }),
  };
}

/** One POST on the sender's HTTP/2 session: the answer's status, headers and (at most 16 KiB of) body. */
function post(connection: () => http2.ClientHttp2Session, timeoutMs: number, path: string, headers: http2.OutgoingHttpHeaders, payload: string): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = connection().request({ ':method': 'POST', ':path': path, ...headers });
    } catch (e) {
      reject(e);
      return;
    }
    const timer = setTimeout(() => {
      reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      stream.close(http2.constants.NGHTTP2_CANCEL);
    }, timeoutMs);
    let answerHeaders: http2.IncomingHttpHeaders | null = null;
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      answerHeaders = h;
    });
    stream.on('data', (chunk: string) => {
      if (body.length < MAX_ANSWER_BYTES) body += chunk;
    });
    stream.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    stream.on('close', () => {
      clearTimeout(timer);
      if (answerHeaders) resolve({ status: Number(answerHeaders[':status']), headers: answerHeaders, body });
      else reject(Object.assign(new Error(`stream closed without an answer (${stream.rstCode})`), { code: 'ERR_HTTP2_STREAM_CLOSED' }));
    });
    stream.end(payload);
  });
}

function apnsHeaders(bundleId: string, bearer: string, message: PushMessage, nowSec: number): http2.OutgoingHttpHeaders {
  return {
    authorization: `bearer ${bearer}`,
    'apns-topic': bundleId,
    'apns-push-type': 'alert',
    'apns-priority': '10',
    'apns-expiration': String(nowSec + PUSH_TTL_SECONDS),
    ...(message.collapseKey !== null ? { 'apns-collapse-id': fitCollapseKey(message.collapseKey, 64, /^[\x20-\x7e]*$/) } : {}),
    'content-type': 'application/json',
  };
}

/** The alert and the app's routing pairs beside it; `aps` is Apple's and never taken from the data. */
export function apnsPayload(m: PushMessage): Record<string, unknown> {
  const data = Object.fromEntries(Object.entries(m.data).filter(([k]) => k !== 'aps'));
  return { aps: { alert: { title: m.title, body: m.body }, sound: 'default' }, ...data };
}

/** APNs names its reason in a JSON body ({ "reason": "BadDeviceToken" }); anything else is not repeated. */
function apnsReason(body: string): string | null {
  try {
    const r = (JSON.parse(body) as { reason?: unknown }).reason;
    return typeof r === 'string' && /^[A-Za-z]{1,64}$/.test(r) ? r : null;
  } catch {
    return null;
  }
}

function apnsOutcome(answer: Answer, now: Date): SendOutcome {
  const { status } = answer;
  const apnsWhy = apnsReason(answer.body);
  const reason = `apns ${status}${apnsWhy ? ` ${apnsWhy}` : ''}`;
  if (status === 200) return sent;
  if (status === 410 || (status === 400 && apnsWhy === 'BadDeviceToken')) return gone;
  if (status === 429 || status >= 500) return retry(reason, retryAfterMs(answer.headers['retry-after'], now));
  if (status === 403) return retry(reason);
  return rejected(reason);
}
