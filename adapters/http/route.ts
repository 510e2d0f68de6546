import type Koa from 'koa';
import * as v from 'valibot';
import type { RateClass } from '../../config/config.js';
import type { Authenticated } from '../../core/accounts/sessions.js';
import type { Caller, TokenCaller } from '../../core/households/access-tokens.js';
import type { AppError, ErrorOf } from '../../core/kernel/errors.js';
import type { Result } from '../../core/kernel/result.js';
import { answersOf, problemFor, type HttpProblem } from './problem.js';
import { Uuid } from './schemas.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * Closed by default: a route is Public only when it says so, and a personal access token (Authorization: Bearer)
 * reaches only a household's route that says 'session-or-token' (adapters/http/access-token-auth.ts), or a route
 * that says 'token': one only a token may call, not a household's path (the MCP endpoint), whose handler works for
 * the token's household and offers what the token's scope allows. Every other route takes the session cookie alone.
 */
export type Auth = 'public' | 'session' | 'session-or-token' | 'token';

/** Whether a route of this kind needs a signed-in caller (a session, or a token where the route takes one). */
export const signedIn = (auth: Auth): boolean => auth !== 'public';

type Schema<T> = v.GenericSchema<unknown, T>;

export interface ResponseDoc {
  readonly description: string;
  readonly schema?: v.GenericSchema;
  /** Default application/json. */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RouteInput<A extends Auth, P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** The file parts of a multipart body, by part name (a part sent empty counts as absent); {} otherwise. */
  readonly files: Readonly<Record<string, UploadedFile>>;
  /** A session's person; on a route a token may call, a session's or a token's (isTokenCaller tells). */
  readonly caller: A extends 'public' ? null : A extends 'session' ? Authenticated : A extends 'token' ? TokenCaller : Caller;
  /** The body's exact bytes on a route that declares rawBody (empty when none was sent); empty on any other route. */
  readonly rawBody: Buffer;
}

/** One file part a multipart route takes. */
export interface FilePartDef {
  readonly description: string;
  /** Larger answers 400 value_too_long. */
  readonly maxBytes: number;
  /** Media types the part's BYTES must have (sniffed, whatever its Content-Type says); else 400. Omitted: any. */
  readonly mediaTypes?: readonly string[];
}

/**
 * A multipart/form-data body: text fields validated together like a JSON body (`body` of the handler), and
 * files held in memory (`files`). A route has either `body` or `multipart`.
 */
export interface MultipartDef<B> {
  /** The text fields as one object; names match case-insensitively. */
  readonly fields: Schema<B>;
  /** Text fields that hold JSON text, parsed before validation (documented with encoding application/json). */
  readonly jsonFields?: readonly string[];
  readonly files: Readonly<Record<string, FilePartDef>>;
  /** The whole body, part headers and boundaries included; larger answers 413 payload_too_large. */
  readonly maxTotalBytes: number;
}

/**
 * A body read as bytes and handed to the handler unparsed, for a signature over the exact bytes (the handler
 * decodes it itself, after the check). A route has at most one of `body`, `multipart` and `rawBody`.
 */
export interface RawBodyDef {
  readonly description: string;
  /** Larger answers 413 payload_too_large. */
  readonly maxBytes: number;
  /** Documents the body in OpenAPI (application/json); not used to validate. */
  readonly schema?: v.GenericSchema;
  /**
   * A binary body (a photo): its Content-Type must be one of these (else 415 unsupported_media_type), and its bytes
   * are handed on as they came, not read as text. Left out, the body is text, held to the request rules (UTF-8, no NUL).
   */
  readonly mediaTypes?: readonly string[];
  /** Request headers the route reads, by name, with their description (documented as required header parameters). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A JSON body too large to parse in one piece (tens of megabytes): read and checked in bounded steps as it arrives
 * (adapters/http/json-stream.ts) and validated in steps (validateInSteps), so that other requests are answered
 * meanwhile. The handler gets it validated as `body`. A route has at most one of `body`, `multipart`, `rawBody`
 * and `largeJson`.
 */
export interface LargeJsonDef<B> {
  readonly description: string;
  /** Validates the body, guides the limits kept while it is read, and documents it. */
  readonly schema: Schema<B>;
  /** Larger answers 413 payload_too_large. */
  readonly maxBytes: number;
  /** How long the body may take to arrive once the headers have; then 408 request_timeout. */
  readonly timeoutMs: number;
  /** Looks at the parsed body before it is validated and throws an HttpProblem of its own (e.g. a file of another format). */
  readonly recognise?: (value: unknown) => void;
}

export interface UploadedFile {
  /** Sniffed from the bytes when the part declares mediaTypes; else the part's Content-Type. */
  readonly mediaType: string;
  readonly filename: string | null;
  readonly bytes: Buffer;
}

/**
 * One route: how it is reached, who may call it, the schemas that validate its input and document it, and the
 * handler. The router and the OpenAPI document are both built from these, so they cannot drift apart.
 */
export interface RouteDef<A extends Auth, P, Q, B> {
  readonly method: HttpMethod;
  /** OpenAPI style: /api/v1/households/{householdId} */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly auth: A;
  /** Which rate-limit class counts this route; 'none' only for the health probes. */
  readonly rateLimit: RateClass | 'none';
  /** false for /api/v1/app/version and the health probes. */
  readonly versionGated?: boolean;
  readonly params?: Schema<P>;
  readonly query?: Schema<Q>;
  readonly body?: Schema<B>;
  readonly multipart?: MultipartDef<B>;
  readonly rawBody?: RawBodyDef;
  readonly largeJson?: LargeJsonDef<B>;
  readonly responses: Readonly<Record<number, ResponseDoc>>;
  /** Problem codes this handler may answer, with their status (documented in OpenAPI). */
  readonly problems?: Readonly<Record<string, number>>;
  /** The failures of core the route answers (its `problems` hold their codes); set by the route kit below. */
  readonly errors?: readonly AppError['type'][];
  handler(ctx: Koa.Context, input: RouteInput<A, P, Q, B>): Promise<void> | void;
}

// The registry holds routes of every shape; the generic parameters only matter inside each definition.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<Auth, any, any, any>;

type Tag = AppError['type'];

/**
 * What a route declares, besides how it answers. Left out, `auth` is 'session' and `rateLimit` 'backstop' (most
 * routes are a signed-in person's), and `tag` is the resource's.
 */
interface Declaration<A extends Auth, P, Q, B, E extends Tag> extends Omit<RouteDef<A, P, Q, B>, 'handler' | 'tag' | 'auth' | 'rateLimit' | 'problems' | 'errors'> {
  readonly tag?: string;
  readonly auth?: A;
  readonly rateLimit?: RateClass | 'none';
  /**
   * The failures the route can answer, as core names them: each is answered and documented as problem.ts's table
   * says, in this order. What the route runs may fail only with these (the compiler holds it to them).
   */
  readonly errors?: readonly E[];
  /** Problems the route answers by itself rather than through a failure of core, by code, with their status. */
  readonly problems?: Readonly<Record<string, number>>;
}

/** What a route's code is handed: the validated request, the caller, and the resource's dependencies. */
export type Input<D, A extends Auth, P, Q, B> = RouteInput<A, P, Q, B> & { readonly deps: D };

/** A route whose answer is what one use case returns: its value is the body, its failure a problem. */
interface Answered<D, A extends Auth, P, Q, B, E extends Tag, O> extends Declaration<A, P, Q, B, E> {
  run(input: Input<D, A, P, Q, B>): Promise<Result<O, ErrorOf<NoInfer<E>>>> | Result<O, ErrorOf<NoInfer<E>>>;
  /** The status of a success: 200 unless said; 204 answers no body. */
  readonly status?: 200 | 201 | 202 | 204;
  /** The body of a success, made from the value; the value itself unless said. */
  reply?(value: O, input: Input<D, A, P, Q, B>): unknown;
  /** Headers of a success (a Location). */
  headers?(value: O, input: Input<D, A, P, Q, B>): Readonly<Record<string, string>>;
}

/**
 * A route that does more with the request than answer one use case's value (conditional answers, files, streams,
 * several use cases): `refuse` makes the problem of a failure it declared, for it to throw.
 */
interface Handled<D, A extends Auth, P, Q, B, E extends Tag> extends Declaration<A, P, Q, B, E> {
  handle(ctx: Koa.Context, input: Input<D, A, P, Q, B> & { readonly refuse: (error: ErrorOf<NoInfer<E>>) => HttpProblem }): Promise<void> | void;
}

/** The path of a household's own routes, /api/v1/households/{householdId}/…, with no other parameter. */
export const HouseholdPath = v.object({ householdId: Uuid });
type InHousehold = v.InferOutput<typeof HouseholdPath>;
/** A declaration of a household's route, which leaves out its path schema and that the household may not be found. */
type OfHousehold<T, E extends Tag> = Omit<T, 'params' | 'errors'> & { readonly errors?: readonly E[] };

/** A declared route, waiting for the dependencies of its resource. */
export type Declared<D> = (deps: D) => AnyRoute;

/** A failure every route may answer, documented for all of them: not listed again as the route's own. */
const answeredByEveryRoute = (code: string, auth: Auth) => code === 'validation_failed' || (code === 'unauthenticated' && signedIn(auth));

/** The path a route a token may call must have: a household's own, whose household the token's must be. */
const TOKEN_PATH = /^\/api\/v1\/households\/\{householdId\}(\/|$)/;

function declared<D, A extends Auth, P, Q, B, E extends Tag>(tag: string, def: Declaration<A, P, Q, B, E>, handler: (deps: D) => RouteDef<A, P, Q, B>['handler']): Declared<D> {
  const auth = def.auth ?? ('session' as A);
  if (auth === 'session-or-token' && !TOKEN_PATH.test(def.path)) throw new Error(`${def.operationId}: only a household's route (/api/v1/households/{householdId}/…) may take a personal access token`);
  const problems: Record<string, number> = {};
  for (const type of def.errors ?? []) for (const a of answersOf(type)) if (!answeredByEveryRoute(a.code, auth)) problems[a.code] = a.status;
  Object.assign(problems, def.problems);
  const { errors = [], ...rest } = def;
  return (deps) => {
    const route: RouteDef<A, P, Q, B> = { ...rest, tag: def.tag ?? tag, auth, rateLimit: def.rateLimit ?? 'backstop', errors, problems, handler: handler(deps) };
    return route as AnyRoute;
  };
}

/**
 * The route kit of one resource: its tag, said once, and the type of the dependencies its routes are handed.
 * `route` declares a route one use case answers, `handledRoute` one that answers by itself.
 */
export function resource<D>(tag: string) {
  function route<A extends Auth = 'session', P = Record<string, never>, Q = Record<string, never>, B = undefined, E extends Tag = never, O = unknown>(def: Answered<D, A, P, Q, B, E, O>): Declared<D> {
    return declared<D, A, P, Q, B, E>(tag, def, (deps) => async (ctx, request) => {
      const input = { ...request, deps };
      const result = await def.run(input);
      if (!result.ok) throw problemFor(result.error);
      if (def.headers) ctx.set(def.headers(result.value, input));
      if (def.status !== 204) {
        const body = def.reply ? def.reply(result.value, input) : result.value;
        if (body !== undefined) ctx.body = body;
      }
      // After the body: Koa makes an empty body a 204, and a 202 with nothing to say keeps its status.
      if (def.status) ctx.status = def.status;
    });
  }
  function handledRoute<A extends Auth = 'session', P = Record<string, never>, Q = Record<string, never>, B = undefined, E extends Tag = never>(def: Handled<D, A, P, Q, B, E>): Declared<D> {
    return declared<D, A, P, Q, B, E>(tag, def, (deps) => (ctx, request) => def.handle(ctx, { ...request, deps, refuse: problemFor }));
  }
  return {
    route,
    handledRoute,
    /**
     * A route of a household (the path's only parameter is householdId): HouseholdPath validates it, and
     * household-not-found, the answer to anyone not a member, comes before the failures the route lists.
     */
    householdRoute<A extends Auth = 'session', Q = Record<string, never>, B = undefined, E extends Tag = never, O = unknown>(
      def: OfHousehold<Answered<D, A, InHousehold, Q, B, E | 'household-not-found', O>, E>,
    ): Declared<D> {
      return route<A, InHousehold, Q, B, E | 'household-not-found', O>({ ...def, params: HouseholdPath, errors: ['household-not-found', ...(def.errors ?? [])] });
    },
    /** householdRoute for a route that answers by itself. */
    handledHouseholdRoute<A extends Auth = 'session', Q = Record<string, never>, B = undefined, E extends Tag = never>(
      def: OfHousehold<Handled<D, A, InHousehold, Q, B, E | 'household-not-found'>, E>,
    ): Declared<D> {
      return handledRoute<A, InHousehold, Q, B, E | 'household-not-found'>({ ...def, params: HouseholdPath, errors: ['household-not-found', ...(def.errors ?? [])] });
    },
  };
}

/** Who may call a Public route anyone may call, and how it is counted: per client IP. */
export const PUBLIC_PER_IP = { auth: 'public', rateLimit: 'anonymous-per-ip' } as const;

/** Who may call a Public route of signing in or of an account's links, and how it is counted: the auth class. */
export const PUBLIC_SIGN_IN = { auth: 'public', rateLimit: 'auth' } as const;

/** The success of a route that answers no body: documented and answered 204. */
export const noContent = (description: string) => ({ responses: { 204: { description } }, status: 204 as const });

/** The success of a route that makes something: documented and answered 201 with its schema. */
export const created = (description: string, schema: v.GenericSchema) => ({ responses: { 201: { description, schema } }, status: 201 as const });

/** What a household route hands a use case: the caller and the household of the path (and the body, when taken). */
interface HouseholdAsk<D, B> {
  readonly deps: D;
  readonly caller: Pick<Caller, 'account'>;
  readonly params: { readonly householdId: string };
  readonly body: B;
}

/** The run of a route whose use case takes the caller's account and the household of the path. */
export const callerAndHousehold =
  <D, R>(useCase: (deps: D, account: Authenticated['account'], householdId: string) => R) =>
  ({ deps, caller, params }: HouseholdAsk<D, unknown>): R =>
    useCase(deps, caller.account, params.householdId);

/** callerAndHousehold for a use case that takes the body too. */
export const callerHouseholdAndBody =
  <D, B, R>(useCase: (deps: D, account: Authenticated['account'], householdId: string, body: B) => R) =>
  ({ deps, caller, params, body }: HouseholdAsk<D, B>): R =>
    useCase(deps, caller.account, params.householdId, body);

/** What a household route with one more path parameter hands a use case: the caller, the household and that parameter. */
interface HouseholdItemAsk<D, K extends string, X, B> {
  readonly deps: D;
  readonly caller: Pick<Caller, 'account'>;
  readonly params: { readonly householdId: string } & { readonly [k in K]: X };
  readonly body: B;
}

/** The run of a route whose use case takes the caller's account, the household and one more parameter of the path. */
export const callerHouseholdAnd =
  <K extends string, D, X, R>(param: K, useCase: (deps: D, account: Authenticated['account'], householdId: string, value: X) => R) =>
  ({ deps, caller, params }: HouseholdItemAsk<D, K, X, unknown>): R =>
    useCase(deps, caller.account, params.householdId, params[param]);

/** callerHouseholdAnd for a use case that takes the body too. */
export const callerHouseholdAndThenBody =
  <K extends string, D, X, B, R>(param: K, useCase: (deps: D, account: Authenticated['account'], householdId: string, value: X, body: B) => R) =>
  ({ deps, caller, params, body }: HouseholdItemAsk<D, K, X, B>): R =>
    useCase(deps, caller.account, params.householdId, params[param], body);

/** The reply of a paged list: its items made answers, the cursor and the count as they are. */
export const pageOf =
  <T, R>(answer: (item: T) => R) =>
  (p: { readonly items: readonly T[]; readonly nextCursor: string | null; readonly total: number }) => ({ items: p.items.map(answer), nextCursor: p.nextCursor, total: p.total });

/** The routes of a resource, handed its dependencies. */
export const mount = <D>(deps: D, routes: readonly Declared<D>[]): AnyRoute[] => routes.map((r) => r(deps));

/** /a/{b} → /a/:b for @koa/router. */
export const koaPath = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers `body` as JSON, the same bytes and headers as `ctx.body = body`, for the answers of every app start (GET
 * /me among them; W1): the media type set first, so Koa looks nothing up in its MIME table, and the text made here.
 * Given an object, Koa removes Content-Length, reads the Content-Type back and tests it for "json", then serializes
 * in its respond; given the text, it only counts its bytes.
 */
export function answerJson(ctx: Koa.Context, body: unknown): void {
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = JSON.stringify(body);
}

/** Answers 200 with an empty body (Koa types it text/plain, Content-Length 0). */
export function answerEmpty(ctx: Koa.Context): void {
  ctx.status = 200;
  ctx.body = '';
}
