import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureCheck, WebhookVerifier } from '../../ports/webhook-verifier.js';

/** A Provider-Signature whose timestamp is more than this far from now (either way) is refused. */
export const SIGNATURE_TOLERANCE_SEC = 300;

const TIMESTAMP = /^\d{1,12}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** The v1 signature of a body: hex HMAC-SHA256 of `<t>.<body bytes>` keyed with the secret string's bytes. */
export function providerSignature(secret: string, timestampSec: number | string, body: Uint8Array | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestampSec}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/**
 * `Provider-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. Several v1 values are accepted while the provider
 * rotates its secret; other schemes (v0, ...) are skipped. The key is the configured secret exactly as written
 * (`whsec_...` included); with none configured every delivery is refused. Each candidate is compared in constant
 * time, and all of them are compared, so the time taken says nothing about which bytes matched.
 */
export function hmacWebhookVerifier(secret: string | null, toleranceSec: number = SIGNATURE_TOLERANCE_SEC): WebhookVerifier {
  return {
    verify(body, header, now): SignatureCheck {
      if (secret === null || secret === '') return { ok: false, reason: 'not-configured' };
      if (header === null || header.trim() === '') return { ok: false, reason: 'signature-missing' };
      const timestamps = new Set<string>();
      const candidates: Buffer[] = [];
      for (const item of header.split(',')) {
        const eq = item.indexOf('=');
        if (eq < 0) return { ok: false, reason: 'signature-malformed' };
        const key = item.slice(0, eq).trim();
        const value = item.slice(eq + 1).trim();
        if (key === 't') timestamps.add(value);
        else if (key === 'v1' && HEX_SHA256.test(value)) candidates.push(Buffer.from(value, 'hex'));
      }
      // Exactly one timestamp: two header lines with different ones cannot both be the signed one.
      const [t] = timestamps;
      if (timestamps.size !== 1 || t === undefined || !TIMESTAMP.test(t)) return { ok: false, reason: 'signature-malformed' };
      if (candidates.length === 0) return { ok: false, reason: 'signature-missing' };

      const expected = Buffer.from(providerSignature(secret, t, body), 'hex');
      let matched = false;
      for (const c of candidates) matched = timingSafeEqual(c, expected) || matched;
      if (!matched) return { ok: false, reason: 'signature-mismatch' };
      if (Math.abs(now.getTime() / 1000 - Number(t)) > toleranceSec) return { ok: false, reason: 'timestamp-outside-tolerance' };
      return { ok: true };
    },
  };
}
