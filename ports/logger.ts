export type LogFields = Record<string, unknown>;

/** Structured log lines; the adapter adds time, level and the request's trace id. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Whether lines of this level are written at all (a caller may then skip making one). */
  enabled(level: 'debug' | 'info' | 'warn' | 'error'): boolean;
}
