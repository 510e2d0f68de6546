import type { PushConfig } from '../../config/config.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { PushSender } from '../../ports/push-sender.js';
import { systemClock } from '../clock/system-clock.js';
import { apnsPushSender } from './apns.js';
import { fcmPushSender } from './fcm.js';
import { logPushSender } from './log.js';
import { webPushSender } from './webpush.js';

export interface PushSenders {
  /** By provider name (log, fcm, apns, webpush): log always, the others when configured. */
  readonly senders: ReadonlyMap<string, PushSender>;
  /** For devices registered with provider null. */
  readonly defaultProvider: string;
  /** Ends the providers' open connections (the APNs HTTP/2 session). */
  close(): Promise<void>;
}

export function createPushSenders(config: PushConfig, deps: { logger: Logger; clock?: Clock; fetch?: typeof fetch }): PushSenders {
  const clock = deps.clock ?? systemClock;
  const senders = new Map<string, PushSender>([['log', logPushSender(deps.logger)]]);
  const closers: Array<() => Promise<void>> = [];
  if (config.fcm) {
    senders.set(
      'fcm',
      fcmPushSender({
        serviceAccount: config.fcm.serviceAccount,
        endpoint: config.fcm.endpoint,
        timeoutMs: config.timeoutMs,
        clock,
        logger: deps.logger,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      }),
    );
  }
  if (config.apns) {
    const apns = apnsPushSender({ ...config.apns, timeoutMs: config.timeoutMs, clock });
    senders.set('apns', apns);
    closers.push(apns.close);
  }
  if (config.webpush) {
    const { endpointHosts, ...vapid } = config.webpush;
    senders.set('webpush', webPushSender({ vapid, endpointHosts, timeoutMs: config.timeoutMs, clock }));
  }
  return {
    senders,
    defaultProvider: config.defaultProvider,
    close: async () => {
      await Promise.all(closers.map((c) => c()));
    },
  };
}
