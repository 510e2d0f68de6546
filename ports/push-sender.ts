/** What a push says: already localized, small, and free of anything the household does not already see. */
export interface PushMessage {
  readonly title: string;
  readonly body: string;
  /** Flat string pairs for the app to route on (kind, householdId, planId, ...). */
  readonly data: Readonly<Record<string, string>>;
  /** A later message with the same key may replace an undelivered earlier one (FCM collapse_key, apns-collapse-id, Web Push Topic). */
  readonly collapseKey: string | null;
}

/** Where a message goes: the device's token as its provider knows it (for Web Push, the subscription's JSON). */
export interface PushTarget {
  readonly token: string;
  readonly platform: string;
}

/**
 * How one send ended. `gone`: the provider says the token will never work again (the device is dropped);
 * `retry`: a temporary failure (429, 5xx, network), with the provider's Retry-After when it gave one;
 * `rejected`: this message will never be accepted for this token as it is (a 400), so it is not retried.
 * Adapters answer `gone` only on the provider's word about this token, never for their own configuration faults
 * (a wrong endpoint, key or project is `retry` or `rejected`), so a misconfiguration cannot drop every device.
 */
export type SendOutcome =
  | { readonly kind: 'sent' }
  | { readonly kind: 'gone' }
  | { readonly kind: 'retry'; readonly afterMs: number | null; readonly reason: string }
  | { readonly kind: 'rejected'; readonly reason: string };

/** One push provider (log, fcm, apns, webpush). Never throws for a provider's answer: it is an outcome. */
export interface PushSender {
  readonly provider: string;
  send(target: PushTarget, message: PushMessage): Promise<SendOutcome>;
}
