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

const fileTypeLibrary = atFirstUse(() => import('file-type'));

/**
 * The media type that a file's bytes show (file-type's reading of their signature), or undefined. file-type and
 * its tokenizers are loaded at the first file judged: uploads and imports, not the routes an idle server answers.
 */
export async function sniffedMediaType(bytes: Uint8Array): Promise<string | undefined> {
  return (await fileTypeLibrary()).fileTypeFromBuffer(bytes).then((found) => found?.mime);
}

/** jose (JSON Web Tokens and keys), loaded at the first token signed or checked: push senders, native sign-in. */
export const joseLibrary = atFirstUse(() => import('jose'));
