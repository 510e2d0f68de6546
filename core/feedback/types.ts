import type { AccountId, HouseholdId } from '../kernel/ids.js';

export const FEEDBACK_MESSAGE_MAX = 4000;
/** A report keeps only the newest failed API calls the app sends along. */
export const FAILED_CALLS_KEPT = 20;
/** A screenshot is at most 5 MiB. */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ScreenshotType = (typeof SCREENSHOT_TYPES)[number];

/** An API call that failed in the app before the report was sent. */
export interface FailedCall {
  readonly method: string;
  readonly path: string;
  /** 0 when no answer came (network failure). */
  readonly status: number;
  /** null when no answer came. */
  readonly traceId: string | null;
  readonly at: Date;
}

export interface Screenshot {
  /** Judged from the bytes, not from what the client declared. */
  readonly mediaType: ScreenshotType;
  readonly bytes: Uint8Array;
}

/** What a signed-in person reported; it goes with their account. */
export interface FeedbackReport {
  readonly id: string;
  readonly accountId: AccountId;
  /** Only a household the reporter belongs to; null otherwise. */
  readonly householdId: HouseholdId | null;
  readonly message: string;
  readonly screen: string | null;
  readonly build: string | null;
  /** Newest first, at most FAILED_CALLS_KEPT. */
  readonly failedCalls: readonly FailedCall[];
  readonly screenshot: Screenshot | null;
  readonly receivedAt: Date;
}
