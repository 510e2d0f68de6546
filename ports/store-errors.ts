/**
 * Infrastructure faults a store may throw that callers can answer sensibly (not bugs).
 * Adapters translate their drivers' codes into these; nothing above a store parses a driver error.
 */
export class StoreBusyError extends Error {
  constructor(cause?: unknown) {
    super('the store is busy; try again', { cause });
    this.name = 'StoreBusyError';
  }
}

/**
 * The database cannot be reached right now (connection refused, reset or timed out; the server shutting down or
 * not accepting connections; an I/O error on the SQLite file). Transient from the caller's side: try again later.
 */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('the store is unavailable; try again later', { cause });
    this.name = 'StoreUnavailableError';
  }
}
