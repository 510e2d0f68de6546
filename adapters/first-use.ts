/**
 * A value made at its first use, once, for what serves rare work (a mail library, a calendar parser, push senders):
 * it is not loaded at start, so an idle server holds less memory. A failed make is tried again at the next use.
 */
export function atFirstUse<T>(make: () => Promise<T>): { (): Promise<T>; readonly made: () => T | null } {
  let pending: Promise<T> | null = null;
  let value: T | null = null;
  const get = () =>
    (pending ??= make().then(
      (v) => (value = v),
      (err: unknown) => {
        pending = null;
        throw err;
      },
    ));
  return Object.assign(get, { made: () => value });
}
