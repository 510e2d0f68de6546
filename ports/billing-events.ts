import type { BillingEvent } from '../core/billing/types.js';

/**
 * Reads the payment provider's event format: the decoded event, or null when the bytes are not an event of that
 * shape. Only ever called on a body whose signature was accepted.
 */
export type BillingEventDecoder = (body: Uint8Array) => BillingEvent | null;
