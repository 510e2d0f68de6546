import type { CryptoKey } from 'jose';
import { joseLibrary } from '../first-use.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { PushMessage, PushSender, PushTarget, SendOutcome } from '../../ports/push-sender.js';
import { fitCollapseKey, gone, networkReason, PUSH_TTL_SECONDS, rejected, retry, retryAfterMs, sent } from './outcome.js';

/** The fields of a Google service account JSON that sending needs. */
export interface FcmServiceAccount {
  readonly projectId: string;
  readonly clientEmail: string;
  /** PKCS#8 PEM of the account's RSA key. */
  readonly privateKey: string;
  readonly privateKeyId: string | null;
  /** The OAuth token endpoint (the JSON's token_uri). */
  readonly tokenUri: string;
}

export interface FcmOptions {
  readonly serviceAccount: FcmServiceAccount;
  /** Origin of the FCM HTTP v1 API, https://fcm.googleapis.com in production. */
  readonly endpoint: string;
  readonly timeoutMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly fetch?: typeof fetch;
}

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** An access token is dropped this long before Google says it expires, so that none is sent on its last second. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000;

interface AccessToken {
  readonly value: string;
  readonly expiresAtMs: number;
}

class TokenUnavailable extends Error {
  constructor(readonly outcome: SendOutcome) {
    super(outcome.kind === 'retry' ? outcome.reason : outcome.kind);
  }
}

/**
 * FCM HTTP v1 (POST {endpoint}/v1/projects/{projectId}/messages:send). The bearer token comes from the service
 * account's token endpoint by a JWT-bearer grant (RS256, one hour) and is kept until shortly before it expires.
 *
 * Answers, read as the Firebase Admin SDK reads them:
 * - 200 sent;
 * - an error naming UNREGISTERED or NOT_FOUND (FCM's 404 for a token that is no more) gone; a bare 404 without
 *   Google's error body (a wrong FCM_ENDPOINT, a proxy) is rejected, so that it cannot drop every device;
 * - 403 SENDER_ID_MISMATCH rejected: the token belongs to another Firebase project, and dropping every device
 *   over a misconfigured project would be worse than keeping them; other 400s rejected;
 * - 401 and other 403s retry, the cached access token dropped first: a revoked or expired token heals on the
 *   next grant, a misconfigured account does not and runs out of retries;
 * - 429 and 5xx retry with Retry-After (seconds or HTTP date) when given; network faults and timeouts retry.
 */
export function fcmPushSender(o: FcmOptions): PushSender {
  const doFetch = o.fetch ?? fetch;
  const sa = o.serviceAccount;
  const sendUrl = `${o.endpoint.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(sa.projectId)}/messages:send`;
  let signingKey: Promise<CryptoKey> | null = null;
  let cached: AccessToken | null = null;
  let pending: Promise<AccessToken> | null = null;

  const grant = async (): Promise<AccessToken> => {
    const { importPKCS8, SignJWT } = await joseLibrary();
    signingKey ??= importPKCS8(sa.privateKey, 'RS256');
    const iat = Math.floor(o.clock.now().getTime() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader(sa.privateKeyId ? { alg: 'RS256', typ: 'JWT', kid: sa.privateKeyId } : { alg: 'RS256', typ: 'JWT' })
      .setIssuer(sa.clientEmail)
      .setAudience(sa.tokenUri)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(await signingKey);
    let res: Response;
    try {
      res = await doFetch(sa.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (e) {
      throw new TokenUnavailable(retry(networkReason('fcm oauth', e)));
    }
    const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown; error?: unknown } | null;
    if (!res.ok || typeof body?.access_token !== 'string') {
      // A refused grant is the operator's to fix (key revoked, clock far off): said once per attempt, never the assertion.
      o.logger.warn('fcm access token refused', { status: res.status, error: typeof body?.error === 'string' ? body.error : null });
      throw new TokenUnavailable(retry(`fcm oauth ${res.status}`, res.status === 429 || res.status >= 500 ? retryAfterMs(res.headers.get('retry-after'), o.clock.now()) : null));
    }
    const lifetimeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600) * 1000;
    return { value: body.access_token, expiresAtMs: o.clock.now().getTime() + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2) };
  };

  const accessToken = async (): Promise<string> => {
    if (cached && o.clock.now().getTime() < cached.expiresAtMs) return cached.value;
    // Concurrent sends share one grant.
    pending ??= grant().finally(() => {
      pending = null;
    });
    cached = await pending;
    return cached.value;
  };

  return {
    provider: 'fcm',
    async send(target, message) {
      let token: string;
      try {
        token = await accessToken();
      } catch (e) {
        if (e instanceof TokenUnavailable) return e.outcome;
        throw e;
      }
      let res: Response;
      try {
        res = await doFetch(sendUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(fcmMessage(target, message)),
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        return retry(networkReason('fcm', e));
      }
      if (res.ok) {
        await res.body?.cancel();
        return sent;
      }
      const outcome = fcmOutcome(res.status, await fcmErrorCodes(res), res.headers.get('retry-after'), o.clock.now());
      if (res.status === 401 || (res.status === 403 && outcome.kind === 'retry')) cached = null;
      return outcome;
    },
  };
}

/** The v1 message: notification for the system tray, data for the app's routing, nothing else. */
export function fcmMessage(target: PushTarget, m: PushMessage) {
  return {
    message: {
      token: target.token,
      notification: { title: m.title, body: m.body },
      data: m.data,
      android: { priority: 'high', ttl: `${PUSH_TTL_SECONDS}s`, ...(m.collapseKey !== null ? { collapse_key: m.collapseKey } : {}) },
      ...(m.collapseKey !== null ? { apns: { headers: { 'apns-collapse-id': fitCollapseKey(m.collapseKey, 64, /^[\x20-\x7e]*$/) } } } : {}),
    },
  };
}

/** google.rpc.Status plus the FcmError detail: both name the reason (error.status, details[].errorCode). */
async function fcmErrorCodes(res: Response): Promise<string[]> {
  const body = (await res.json().catch(() => null)) as { error?: { status?: unknown; details?: unknown } } | null;
  const codes: string[] = [];
  if (typeof body?.error?.status === 'string') codes.push(body.error.status);
  if (Array.isArray(body?.error?.details)) {
    for (const d of body.error.details as Array<{ errorCode?: unknown }>) if (typeof d?.errorCode === 'string') codes.push(d.errorCode);
  }
  return codes;
}

function fcmOutcome(status: number, codes: string[], retryAfter: string | null, now: Date): SendOutcome {
  const reason = `fcm ${status}${codes.length ? ` ${[...new Set(codes)].join('/')}` : ''}`;
  if (codes.includes('UNREGISTERED') || codes.includes('NOT_FOUND')) return gone;
  if (status === 429 || status >= 500) return retry(reason, retryAfterMs(retryAfter, now));
  if (status === 403 && codes.includes('SENDER_ID_MISMATCH')) return rejected(reason);
  if (status === 401 || status === 403) return retry(reason);
  return rejected(reason);
}
