import { pino } from 'pino';
import type { Logger, LogFields } from '../../ports/logger.js';
import { currentMetrics } from '../observability/request-context.js';

import type { Config } from '../../config/config.js';

export type LogLevel = Config['logLevel'];

/** An Error as a log field: its name, message and stack (JSON alone would write `{}`); pino's own serializer takes `err`. */
const plain = (fields: LogFields): LogFields => {
  let out: LogFields | null = null;
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Error && k !== 'err') (out ??= { ...fields })[k] = { name: v.name, message: v.message, stack: v.stack };
  }
  return out ?? fields;
};

/**
 * One JSON object per line through pino: `level` (its name), `time` (ISO 8601), under a request its `traceId` and
 * `requestId` (the span it answers in the `traceparent` header), the fields, and `msg`. `write` takes each line (stdout unless told); in development
 * `npm run dev` pipes the lines through pino-pretty.
 */
export function jsonLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const log = pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Under a request: its trace (continued from traceparent, or begun here) and its own span, as the request's id.
      mixin: () => {
        const m = currentMetrics();
        return m ? { traceId: m.traceId, requestId: m.spanId } : {};
      },
    },
    { write },
  );
  // The level is fixed for the process: a level below it costs a call and a comparison, no fields looked at.
  const on = { debug: log.isLevelEnabled('debug'), info: log.isLevelEnabled('info'), warn: log.isLevelEnabled('warn'), error: log.isLevelEnabled('error') };
  return {
    debug: (m, f) => on.debug && (f ? log.debug(plain(f), m) : log.debug(m)),
    info: (m, f) => on.info && (f ? log.info(plain(f), m) : log.info(m)),
    warn: (m, f) => on.warn && (f ? log.warn(plain(f), m) : log.warn(m)),
    error: (m, f) => on.error && (f ? log.error(plain(f), m) : log.error(m)),
    enabled: (l) => on[l],
  };
}
