/** Counts one use of something rationed per key (a household's imports, say), shared by every process. */
export type RateGate = (key: string) => Promise<{ readonly allowed: true } | { readonly allowed: false; readonly retryAfterSec: number }>;
