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
