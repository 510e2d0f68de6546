import type { PushEvent } from '../../ports/push-outbox.js';
import type { AccountId } from '../kernel/ids.js';

/**
 * `ios` and `android` for the native apps; `web` is this service's addition for the web app's Web Push
 * subscriptions (the token is then the subscription's JSON, as the browser hands it out).
 */
export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/**
 * A token is 1 to 2048 printable ASCII characters: FCM registration tokens (~160), APNs device tokens (64 hex)
 * and a Web Push subscription's JSON (~500) all fit, and the bound keeps the database's index on it small.
 */
export const PUSH_TOKEN_MAX = 2048;
export const isPushToken = (s: string): boolean => s.length > 0 && s.length <= PUSH_TOKEN_MAX && /^[\x20-\x7E]+$/.test(s) && s.trim().length > 0;

/** The four switches of a device: a device with a switch off receives nothing of that kind. */
export interface PushSwitches {
  readonly listChanges: boolean;
  readonly householdNews: boolean;
  readonly runDone: boolean;
  readonly reminders: boolean;
}
export type PushSwitch = keyof PushSwitches;

/** A device registered for the first time (or handed to another login) has every switch on. */
export const DEFAULT_SWITCHES: PushSwitches = { listChanges: true, householdNews: true, runDone: true, reminders: true };

/** One phone (or browser) of a person's login: devices belong to the person, not to a household. */
export interface PushDevice extends PushSwitches {
  readonly token: string;
  readonly accountId: AccountId;
  readonly platform: PushPlatform;
  /** The push provider that delivers to it (log, fcm, apns, webpush). */
  readonly provider: string;
  /** When the token was registered to this login. */
  readonly createdAt: Date;
  /** The last registration of the token (apps register at every start). */
  readonly lastSeenAt: Date;
}

/** Which switch gates which push, as this service chose it. `runDone`: a planner run whose dinners were saved. */
export const SWITCH_OF: { readonly [K in PushEvent['kind']]: PushSwitch } = {
  'member-joined': 'householdNews',
  'list-item-added': 'listChanges',
  'list-items-ticked': 'listChanges',
  'receipt-reminder': 'reminders',
  'week-planned': 'runDone',
};
