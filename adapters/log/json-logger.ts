import type { Logger, LogFields } from '../../ports/logger.js';
import { currentMetrics } from '../observability/request-context.js';

import type { Config } from '../../config/config.js';

export type LogLevel = Config['logLevel'];
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** One JSON object per line, with the trace id of the request it was written under. */
export function jsonLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    const traceId = currentMetrics()?.traceId;
    const line: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, msg, ...(traceId ? { traceId } : {}) };
    if (fields) {
      for (const [k, v] of Object.entries(fields)) line[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
    }
    write(JSON.stringify(line) + '\n');
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
