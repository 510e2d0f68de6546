import type { PushSwitch } from '../core/push/types.js';
import type { AccountId, HouseholdId } from '../core/kernel/ids.js';
import type { PushMessage } from './push-sender.js';
import type { OutboxClaim, SendProgress, SendState, Settlement } from './outbox-claims.js';

/**
 * One message for one device: what the outbox's entries became once their audience was known. Its state is
 * durable, so a retry never resends to a device that got it.
 */
export interface NewDelivery {
  readonly id: string;
  readonly householdId: HouseholdId;
  /** The login the message is for: a token handed to another login meanwhile gets nothing. */
  readonly accountId: AccountId;
  readonly token: string;
  /** The switch that gates it, checked again at send time. */
  readonly switch: PushSwitch;
  /** Rendered once, in the recipient's language: every attempt sends the same text. */
  readonly message: PushMessage;
  readonly createdAt: Date;
}

/** `failed`: given up (rejected, or too many attempts); `dropped`: nobody to send to any more. */
export type DeliveryState = SendState;

export interface Delivery extends NewDelivery, SendProgress {}

/** A worker's claim on deliveries, and how an attempt ended (shared with the mail outbox). */
export type { OutboxClaim as DeliveryClaim, Settlement } from './outbox-claims.js';

export interface PushDeliveryStore {
  /**
   * Turns outbox entries into deliveries in one transaction: marks the entries handed over (sent_at) and writes
   * the deliveries (due at once). false, with nothing written, when any entry was handed over already (another
   * worker) or is gone with its household.
   */
  handOver(entryIds: readonly string[], deliveries: readonly NewDelivery[], at: Date): Promise<boolean>;
  /**
   * Claims up to `limit` pending deliveries due at `now` that no live claim holds, oldest due first. Of
   * simultaneous claims each delivery goes to one.
   */
  claimDue(claim: OutboxClaim): Promise<Delivery[]>;
  /** Extends this claim on one delivery (right before its send); false when the claim no longer holds it. */
  renew(deliveryId: string, claimId: string, until: Date): Promise<boolean>;
  /** Records how an attempt ended and releases the claim; nothing when the claim no longer holds the delivery. */
  settle(deliveryId: string, claimId: string, settlement: Settlement): Promise<void>;
  /** The household's deliveries, oldest first (support and tests). */
  ofHousehold(householdId: HouseholdId): Promise<Delivery[]>;
  /** Forgets finished deliveries and handed-over outbox entries older than `before`; answers how many rows went. */
  purge(before: Date): Promise<number>;
}
