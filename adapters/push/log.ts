import type { Logger } from '../../ports/logger.js';
import type { PushSender } from '../../ports/push-sender.js';
import { sent, shortToken } from './outcome.js';

/** The embedded default (PUSH_PROVIDER=log): a push becomes a log line, so a single household needs no account anywhere. */
export function logPushSender(logger: Logger): PushSender {
  return {
    provider: 'log',
    async send(target, message) {
      logger.info('push sent to the log', {
        platform: target.platform,
        token: shortToken(target.token),
        title: message.title,
        body: message.body,
        data: message.data,
        collapseKey: message.collapseKey,
      });
      return sent;
    },
  };
}
