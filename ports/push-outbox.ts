import type { HouseholdId } from '../core/shared/ids.js';

/** Push events waiting for delivery: recorded with the change that caused them, drained by the push sender. */
export type PushEvent = { kind: 'member-joined'; memberId: string; displayName: string };

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
