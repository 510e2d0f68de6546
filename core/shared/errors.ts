/**
 * Every expected failure a use case can return. Each area adds its tags here so that the HTTP layer's
 * switch over `AppError['type']` stays exhaustive (the compiler names a tag nobody maps).
 */
export type AppError =
  // accounts
  | { type: 'signup-rejected'; reason: 'email' | 'password' }
  | { type: 'invalid-credentials' }
  | { type: 'account-name-length' }
  | { type: 'unauthenticated' }
  // households
  | { type: 'household-not-found' }
  | { type: 'adults-only' }
  | { type: 'time-zone-unknown'; timeZoneId: string };

export type ErrorOf<T extends AppError['type']> = Extract<AppError, { type: T }>;
