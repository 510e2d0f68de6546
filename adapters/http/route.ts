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
  readonly caller: A extends 'session' ? Authenticated : null;
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
