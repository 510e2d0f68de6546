import type { PushDevice, PushPlatform, PushSwitches } from '../core/push/types.js';
import type { AccountId } from '../core/kernel/ids.js';

export interface DeviceRegistration {
  readonly token: string;
  readonly accountId: AccountId;
  readonly platform: PushPlatform;
  readonly provider: string;
  readonly at: Date;
}

/** The push devices of people's logins, one row per token. Reads and writes by token are scoped by the login. */
export interface PushDeviceStore {
  /**
   * Registers a token, one row per token also under simultaneous registrations. A new token is stored with
   * `switches`; the caller's own token gets the platform and provider said, lastSeenAt `at`, and keeps its
   * switches; a token of another login is handed to this one (createdAt and lastSeenAt `at`, `switches`): the
   * other login has it no more.
   */
  register(device: DeviceRegistration, switches: PushSwitches): Promise<PushDevice>;
  /** The login's device with this token; null when the token is not registered to this login. */
  get(accountId: AccountId, token: string): Promise<PushDevice | null>;
  /** Sets the switches (reminders undefined keeps its value); null when the token is not this login's. */
  setSwitches(accountId: AccountId, token: string, switches: Omit<PushSwitches, 'reminders'> & { readonly reminders?: boolean | undefined }): Promise<PushDevice | null>;
  /** false when the token is not registered to this login. */
  delete(accountId: AccountId, token: string): Promise<boolean>;
  /** Every device of these logins, by login then token. */
  ofAccounts(accountIds: readonly AccountId[]): Promise<PushDevice[]>;
  /** Drops a token its provider reported gone, whichever login holds it. */
  forget(token: string): Promise<void>;
}
