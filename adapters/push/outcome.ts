import { createHash } from 'node:crypto';
import type { SendOutcome } from '../../ports/push-sender.js';

/** How long a provider may keep an undelivered push: a dinner note a day late is no longer worth showing. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/**
 * Retry-After as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or
 * unreadable, so that the delivery worker falls back on its own backoff.
 */
export function retryAfterMs(header: string | string[] | null | undefined, now: Date): number | null {
  const v = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!v) return null;
  if (/^\d{1,9}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

export const retry = (reason: string, afterMs: number | null = null): SendOutcome => ({ kind: 'retry', afterMs, reason });
export const rejected = (reason: string): SendOutcome => ({ kind: 'rejected', reason });
export const sent: SendOutcome = { kind: 'sent' };
export const gone: SendOutcome = { kind: 'gone' };

/** A network fault as a short reason (code or message), never the request it was sending. */
export function networkReason(provider: string, e: unknown): string {
  const err = e as { code?: unknown; name?: unknown; message?: unknown } | null;
  const what = typeof err?.code === 'string' ? err.code : typeof err?.name === 'string' && err.name !== 'Error' ? err.name : String(err?.message ?? e);
  return `${provider} network: ${what}`.slice(0, 200);
}

/**
 * A collapse key as a provider takes it: unchanged when it already fits, else a stable digest of it, so that
 * two messages with the same long key still replace each other.
 */
export function fitCollapseKey(key: string, maxLength: number, allowed: RegExp): string {
  if (Buffer.byteLength(key) <= maxLength && allowed.test(key)) return key;
  return createHash('sha256').update(key).digest('base64url').slice(0, maxLength);
}

/** The last characters of a device token: enough to find it in the store, too few to use it. */
export const shortToken = (token: string) => (token.length <= 6 ? '…' : `…${token.slice(-6)}`);
