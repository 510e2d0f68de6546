/**
 * What the outboxes that deliver with retries (push deliveries, mails) share: a worker's claim on the rows it is
 * about to send, and how an attempt ended, recorded under that claim.
 */
export interface OutboxClaim {
  /** Fresh per claim: settle, renew and release act only on rows this claim holds. */
  readonly claimId: string;
  readonly now: Date;
  /** The claim lapses then: the rows of a worker that died are due again for others. */
  readonly until: Date;
  readonly limit: number;
}

/** How an attempt (or a decision not to send) ended. `sent`, `failed` and `dropped` are final. */
export type Settlement =
  | { readonly state: 'sent'; readonly attempts: number; readonly at: Date }
  | { readonly state: 'failed' | 'dropped'; readonly attempts: number; readonly at: Date; readonly error: string }
  | { readonly state: 'pending'; readonly attempts: number; readonly nextAttemptAt: Date; readonly error: string };

/** Where a row stands: `sent`, `failed` (given up) and `dropped` (nobody or nothing to send to any more) are final. */
export type SendState = 'pending' | 'sent' | 'failed' | 'dropped';

/** A row's sends so far. */
export interface SendProgress {
  readonly state: SendState;
  /** Sends tried so far. */
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly lastError: string | null;
  readonly finishedAt: Date | null;
}
