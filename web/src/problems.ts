import type { Middleware } from 'openapi-fetch';

// The app's problem value and the client middleware that makes it, in one place for every call (web/src/api.ts
// installs it). Kept apart from the generated types, so that it reads, and is tested, on its own.

/** The members of a problem+json answer that the app reads (the service's Problem schema has them all). */
interface ProblemJson {
  readonly code?: unknown;
  readonly errors?: readonly { readonly path: string }[];
}

/** An answer that was not a success: its status and problem code (null when the answer had none, e.g. no network). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    /** The fields the service named (`errors[].path`, e.g. `body.email`), by their last segment. */
    readonly fields: readonly string[] = [],
    /** The problem's own members besides the standard ones (e.g. avoid_conflict's avoid and ingredient). */
    readonly extra: Readonly<Record<string, unknown>> = {},
    /** The same fields by their whole path (e.g. `body.ingredients.2.quantity`). */
    readonly paths: readonly string[] = [],
  ) {
    super(code ?? `HTTP ${status}`);
  }
}

/**
 * Called on a 401 from any call, the sign-in having ended (signed out, revoked, expired, the account deleted): the
 * app forgets the person and asks them to sign in again. Not on the 401s that refuse credentials just offered (a
 * wrong password, a spent sign-in code): those end no sign-in, and the person may well still be signed in.
 */
let onUnauthorized: () => void = () => {};
const REFUSED_CREDENTIALS: ReadonlySet<string> = new Set(['invalid_credentials', 'signin_code_spent', 'idp_signin_rejected']);
export const whenSignedOut = (fn: () => void) => {
  onUnauthorized = fn;
};

/** The ApiProblem an answer that was not a success stands for, read from its problem+json (when it has one). */
async function problemOf(response: Response): Promise<ApiProblem> {
  const problem = ((await response.json().catch(() => null)) ?? {}) as ProblemJson;
  const paths = (problem.errors ?? []).map((e) => e.path);
  const fields = paths.map((p) => p.split('.').pop() ?? p);
  return new ApiProblem(response.status, typeof problem.code === 'string' ? problem.code : null, fields, problem as Record<string, unknown>, paths);
}

/**
 * The ApiProblem of an answer that was not a success, a 401 that ends the sign-in forgetting the person first: for
 * every call through the client, and for a call the client cannot make (an upload whose progress is shown).
 */
export async function refusalOf(response: Response): Promise<ApiProblem> {
  const problem = await problemOf(response);
  if (problem.status === 401 && !REFUSED_CREDENTIALS.has(String(problem.code))) onUnauthorized();
  return problem;
}

/**
 * The cross-cutting part of every call: an answer that is not a success throws its ApiProblem (a 304 is a success:
 * the copy shown is current), a 401 that ends the sign-in forgets the person first, and no network at all is the
 * problem `network`. A call that returns has succeeded.
 */
export const problems: Middleware = {
  async onResponse({ response }) {
    if (response.ok || response.status === 304) return undefined;
    throw await refusalOf(response);
  },
  onError: () => new ApiProblem(0, 'network'),
};
