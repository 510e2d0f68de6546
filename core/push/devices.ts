import type { Clock } from '../../ports/clock.js';
import type { PushDeviceStore } from '../../ports/push-device-store.js';
import type { PushSender } from '../../ports/push-sender.js';
import type { Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { DEFAULT_SWITCHES, type PushDevice, type PushPlatform } from './types.js';

export interface PushDeviceDeps {
  pushDevices: PushDeviceStore;
  /** The configured push providers by name; a device names one of them. */
  pushSenders: ReadonlyMap<string, PushSender>;
  /** The provider of a device registered with provider null (PUSH_PROVIDER). */
  defaultPushProvider: string;
  clock: Clock;
}

type NotFound = ErrorOf<'push-device-not-found'>;

/**
 * PUT me/devices, idempotent per token: a new token is stored for the caller with every switch on; the caller's
 * own known token is marked seen (platform and provider as said now, switches kept); a token another login holds
 * is handed to the caller with every switch on, and the other login gets nothing more on it.
 */
export async function registerPushDevice(
  deps: PushDeviceDeps,
  caller: Account,
  input: { token: string; platform: PushPlatform; provider: string | null },
): Promise<Result<PushDevice, ErrorOf<'push-provider-unknown'>>> {
  const provider = input.provider ?? deps.defaultPushProvider;
  if (!deps.pushSenders.has(provider)) return fail({ type: 'push-provider-unknown', provider, known: [...deps.pushSenders.keys()].sort() });
  const device = await deps.pushDevices.register({ token: input.token, accountId: caller.id, platform: input.platform, provider, at: deps.clock.now() }, DEFAULT_SWITCHES);
  return ok(device);
}

export async function getPushDevice(deps: PushDeviceDeps, caller: Account, token: string): Promise<Result<PushDevice, NotFound>> {
  const device = await deps.pushDevices.get(caller.id, token);
  return device ? ok(device) : fail({ type: 'push-device-not-found' });
}

/** PATCH me/devices/{token}: the three switches as said; reminders left out (or null) keeps its value. */
export async function updatePushDevice(
  deps: PushDeviceDeps,
  caller: Account,
  token: string,
  input: { listChanges: boolean; householdNews: boolean; runDone: boolean; reminders?: boolean | null | undefined },
): Promise<Result<PushDevice, NotFound>> {
  const device = await deps.pushDevices.setSwitches(caller.id, token, {
    listChanges: input.listChanges,
    householdNews: input.householdNews,
    runDone: input.runDone,
    reminders: input.reminders ?? undefined,
  });
  return device ? ok(device) : fail({ type: 'push-device-not-found' });
}

/** DELETE me/devices/{token}: its pending deliveries go with it, so nothing more is sent to it. */
export async function deletePushDevice(deps: PushDeviceDeps, caller: Account, token: string): Promise<Result<void, NotFound>> {
  return (await deps.pushDevices.delete(caller.id, token)) ? ok(undefined) : fail({ type: 'push-device-not-found' });
}
