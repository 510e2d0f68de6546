import { ECDH } from 'node:crypto';
import type https from 'node:https';
import type { Clock } from '../../ports/clock.js';
import type { PushMessage, PushSender } from '../../ports/push-sender.js';
import { atFirstUse } from '../first-use.js';
import { fitCollapseKey, gone, networkReason, PUSH_TTL_SECONDS, rejected, retry, retryAfterMs, sent } from './outcome.js';

export interface WebPushOptions {
  /** The application server's VAPID identity: subject (mailto: or https:), keys in base64url. */
  readonly vapid: { readonly subject: string; readonly publicKey: string; readonly privateKey: string };
  /** Host names, each with its subdomains, a subscription's endpoint may name: the browsers' push services. */
  readonly endpointHosts: readonly string[];
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** For the connections to the push service, e.g. an agent trusting a test's own CA. */
  readonly agent?: https.Agent;
}

interface Subscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** What fits one aes128gcm record of 4096 bytes: less its 86-byte header, the tag and the padding delimiter. */
const MAX_PLAINTEXT_BYTES = 4096 - 86 - 16 - 1;
const B64 = /^[A-Za-z0-9_\-+/]+={0,2}$/;
/** `web-push` and the crypto it brings, loaded at the first web push sent, not at start. */
const webPushLibrary = atFirstUse(async () => (await import('web-push')).default);

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm (RFC 8291) through `web-push`. The device token is
 * the browser's PushSubscription JSON; one that does not parse, or whose endpoint is not https on one of
 * `endpointHosts`, is rejected without a request, so a client cannot make the server post to an address of
 * its choosing.
 *
 * Answers: 2xx sent; 404 and 410 gone; 429 and 5xx retry with Retry-After when given; 400, 413 and other 4xx
 * rejected, 401 and 403 included (the push service refused our VAPID token for this subscription, typically one
 * made for another application server key: dropping the device over a misconfigured key would lose every web
 * device at once); network faults and timeouts retry.
 */
export function webPushSender(o: WebPushOptions): PushSender {
  const hosts = o.endpointHosts.map((h) => h.toLowerCase());
  const hostAllowed = (host: string) => hosts.some((h) => host === h || host.endsWith(`.${h}`));

  return {
    provider: 'webpush',
    async send(target, message) {
      const subscription = parseSubscription(target.token);
      if (!subscription) return rejected('webpush malformed subscription');
      if (!hostAllowed(new URL(subscription.endpoint).hostname)) return rejected('webpush endpoint host not allowed');
      const payload = JSON.stringify(webPushPayload(message));
      if (Buffer.byteLength(payload) > MAX_PLAINTEXT_BYTES) return rejected('webpush payload too large');
      const webpush = await webPushLibrary();
      try {
        await webpush.sendNotification(subscription, payload, {
          vapidDetails: o.vapid,
          TTL: PUSH_TTL_SECONDS,
          urgency: 'normal',
          ...(message.collapseKey !== null ? { topic: fitCollapseKey(message.collapseKey, 32, /^[A-Za-z0-9_-]+$/) } : {}),
          timeout: o.timeoutMs,
          ...(o.agent ? { agent: o.agent } : {}),
        });
        return sent;
      } catch (e) {
        if (!(e instanceof webpush.WebPushError)) return retry(networkReason('webpush', e));
        const status = e.statusCode;
        const reason = `webpush ${status}`;
        if (status === 404 || status === 410) return gone;
        if (status === 429 || status >= 500) return retry(reason, retryAfterMs(e.headers['retry-after'], o.clock.now()));
        return rejected(reason);
      }
    },
  };
}

/** What the web app's service worker shows: the message and its routing pairs, `tag` to replace an earlier one. */
export function webPushPayload(m: PushMessage): Record<string, unknown> {
  return { title: m.title, body: m.body, data: m.data, ...(m.collapseKey !== null ? { tag: m.collapseKey } : {}) };
}

function parseSubscription(token: string): Subscription | null {
  let raw: unknown;
  try {
    raw = JSON.parse(token);
  } catch {
    return null;
  }
  const s = raw as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  const endpoint = s?.endpoint;
  const p256dh = s?.keys?.p256dh;
  const auth = s?.keys?.auth;
  if (typeof endpoint !== 'string' || typeof p256dh !== 'string' || typeof auth !== 'string') return null;
  try {
    if (new URL(endpoint).protocol !== 'https:') return null;
  } catch {
    return null;
  }
  if (!B64.test(p256dh) || !B64.test(auth) || Buffer.from(auth, 'base64url').length !== 16) return null;
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) return null;
  try {
    // Throws unless the point is on P-256: a key the encryption would choke on is the subscription's fault.
    ECDH.convertKey(point, 'prime256v1');
  } catch {
    return null;
  }
  return { endpoint, keys: { p256dh, auth } };
}
