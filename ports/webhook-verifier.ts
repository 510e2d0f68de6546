/** Why a webhook delivery's signature was not accepted (logged, never told to the caller). */
export type SignatureRejection = 'not-configured' | 'signature-missing' | 'signature-malformed' | 'timestamp-outside-tolerance' | 'signature-mismatch';

export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: SignatureRejection };

/**
 * Checks that a webhook body came from the payment provider: the signature header over the body's exact bytes
 * with the shared secret, made no further from `now` than the tolerance.
 */
export interface WebhookVerifier {
  verify(body: Uint8Array, signatureHeader: string | null, now: Date): SignatureCheck;
}
