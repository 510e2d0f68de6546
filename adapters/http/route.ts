import type Koa from 'koa';
import type * as v from 'valibot';
import type { RateClass } from '../../config/config.js';
import type { Authenticated } from '../../core/accounts/sessions.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Closed by default: a route is Public only when it says so. */
export type Auth = 'public' | 'session';

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
  readonly caller: A extends 'session' ? Authenticated : null;
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
  /** Problem codes this handler itself may answer, with their status (documented in OpenAPI). */
  readonly problems?: Readonly<Record<string, number>>;
  handler(ctx: Koa.Context, input: RouteInput<A, P, Q, B>): Promise<void> | void;
}

// The registry holds routes of every shape; the generic parameters only matter inside each definition.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<Auth, any, any, any>;

export function defineRoute<A extends Auth, P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RouteDef<A, P, Q, B>,
): AnyRoute {
  return def as AnyRoute;
}

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
