import type { PushMessage, PushSender, PushTarget, SendOutcome } from '../../ports/push-sender.js';

export interface RecordedPush {
  readonly provider: string;
  readonly target: PushTarget;
  readonly message: PushMessage;
  readonly outcome: SendOutcome;
}

/**
 * A push provider that delivers nowhere and remembers every send, for tests and the in-memory composition root.
 * `answer` scripts the outcome per send (default: sent); `sent` holds the sends answered `sent`.
 */
export interface RecordingPushSender extends PushSender {
  readonly calls: RecordedPush[];
  readonly sent: RecordedPush[];
  answer: (target: PushTarget, message: PushMessage) => SendOutcome | Promise<SendOutcome>;
}

/** `log` (optional) receives every send too, in order: one log shared by several senders. */
export function recordingPushSender(provider = 'log', log?: RecordedPush[]): RecordingPushSender {
  const calls: RecordedPush[] = [];
  const self: RecordingPushSender = {
    provider,
    calls,
    get sent() {
      return calls.filter((c) => c.outcome.kind === 'sent');
    },
    answer: () => ({ kind: 'sent' }),
    async send(target, message) {
      const outcome = await self.answer(target, message);
      const call = { provider, target: structuredClone(target), message: structuredClone(message), outcome };
      calls.push(call);
      log?.push(call);
      return outcome;
    },
  };
  return self;
}

/**
 * The push providers of a test or in-memory service: recording senders by name, the first one the default;
 * `calls` holds the sends of all of them in the order they happened.
 */
export function recordingPushSenders(...providers: string[]): { senders: Map<string, RecordingPushSender>; defaultProvider: string; calls: RecordedPush[] } {
  const names = providers.length > 0 ? providers : ['log'];
  const calls: RecordedPush[] = [];
  return { senders: new Map(names.map((p) => [p, recordingPushSender(p, calls)])), defaultProvider: names[0]!, calls };
}
