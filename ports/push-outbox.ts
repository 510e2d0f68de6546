import type { AccountId, HouseholdId } from '../core/kernel/ids.js';

/**
 * Push events waiting for delivery: recorded with the change that caused them, drained by the delivery step
 * (core/push/delivery.ts). `actorAccountId` is the login whose action it was: the household hears of it, the
 * actor does not (absent on entries recorded before it existed: then nobody is left out).
 */
export type PushEvent =
  | { kind: 'member-joined'; memberId: string; displayName: string; actorAccountId: AccountId }
  /** A line was added by hand to a week's shopping list (one push to the household). */
  | { kind: 'list-item-added'; planId: string; lineId: string; displayName: string; actorAccountId: AccountId }
  /** A line's first tick; the delivery step folds a household's pending ticks into one "ticked N items" push. */
  | { kind: 'list-items-ticked'; planId: string; lineId: string; actorAccountId: AccountId }
  /** The shopper closed a trip: one reminder to add the receipt, to that account only. */
  | { kind: 'receipt-reminder'; planId: string; listId: string; accountId: string }
  /** Suggested dinners were saved to a week's plan (the planner's run is done): the other members hear of it. */
  | { kind: 'week-planned'; planId: string; weekStart: string; dinners: number; actorAccountId: AccountId };

export interface OutboxEntry {
  readonly id: string;
  readonly householdId: HouseholdId;
  readonly event: PushEvent;
  readonly createdAt: Date;
}

export interface PushOutbox {
  record(entry: OutboxEntry): Promise<void>;
  /** Undelivered entries, oldest first. */
  pending(limit: number): Promise<OutboxEntry[]>;
  markSent(ids: readonly string[], at: Date): Promise<void>;
}
