import { isUtf8 } from 'node:buffer';
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Logger } from '../../ports/logger.js';
import { StoreBusyError, StoreUnavailableError } from '../../ports/store-errors.js';
import type { Config, RateClass } from '../../config/config.js';
import { stepDone, type RequestMetrics } from '../observability/request-context.js';
import type { RateDecision, RateLimiter } from '../ratelimit/rate-limiter.js';
import { observe } from './observe.js';
import { HttpProblem, problems, problemType } from './problem.js';
import { koaPath, signedIn, type AnyRoute } from './route.js';
import { readMultipart, type ParsedMultipart } from './multipart.js';
import { BODY_TIMEOUT_MS, hasBody, JSON_BODY_LIMIT_BYTES, readBodyBytes, readJsonBody, readRawBody, refuseIgnoredBody, withinDeadline } from './raw-body.js';
import { readJsonStream, type StreamedJson } from './json-stream.js';
import { parseWith, validateInSteps } from './validation.js';
import { versionGate } from './version-gate.js';
import { authenticateRequest, crossSiteGuard, type SessionDeps } from './session-cookie.js';
import { IDEMPOTENCY_HEADER, requestFingerprint, underIdempotencyKey, type IdempotencySettings } from './idempotency.js';
import { authenticateToken, sentToken, type TokenDeps } from './access-token-auth.js';

export { JSON_BODY_LIMIT_BYTES } from './raw-body.js';

export interface HttpSettings {
  readonly config: Pick<Config, 'publicBaseUrl' | 'problemBaseUrl' | 'trustProxy' | 'appVersionFloor'>;
  readonly logger: Logger;
  readonly rateLimiter: RateLimiter;
  readonly sessions: SessionDeps;
  /** Personal access tokens, for the routes that take them (adapters/http/access-token-auth.ts). */
  readonly accessTokens: TokenDeps;
  /** Idempotency-Keys of state-changing signed-in requests (adapters/http/idempotency.ts). */
  readonly idempotency: IdempotencySettings;
  /** The web app (adapters/http/web-app.ts): answers what no route does outside /api/, else false. */
  readonly web?: (ctx: Koa.Context) => boolean;
}

/** The Koa application: the API's conventions (see the OpenAPI document's description) applied around every route of `routes`. */
export function createHttpApp(settings: HttpSettings, routes: readonly AnyRoute[]): Koa {
  const app = new Koa({ proxy: settings.config.trustProxy });
  // Errors of the middleware are answered as problems below; what reaches Koa's own handler is a streamed answer
  // that failed while it was being sent. A client that went away (a live stream closed, a tab shut) is no fault.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    settings.logger.error('answer failed while being sent', { err });
  });

  // The API's conventions around every request, as one middleware (each layer of Koa's chain is a promise more):
  // the trace and measurements outermost, then problems for every error, then the request line and version checks.
  const gate = versionGate(settings.config.appVersionFloor, new Set(routes.filter((r) => r.versionGated === false).map((r) => koaPath(r.path))));
  const answerProblem = problemResponder(settings);
  app.use(
    observe(
      settings.logger,
      (ctx) => {
        screenRequestLine(ctx);
        gate(ctx);
      },
      answerProblem,
    ),
  );
  app.use(routing(settings, routes));
  app.use(async (ctx, next) => {
    // A known path with a method it does not answer: 405 with Allow; anything else: 404.
    // The router only passes a request on when no route of its method matched.
    const allowed = [...new Set((ctx.matched ?? []).flatMap((layer: { methods: string[] }) => layer.methods))];
    if (allowed.length > 0) throw problems.methodNotAllowed(allowed.join(', '));
    await next();
    if (ctx.body === undefined && ctx.status === 404 && !settings.web?.(ctx)) throw problems.notFound(`no route ${ctx.method} ${ctx.path}`);
  });
  return app;
}

/** Positions of a path's segments ('', 'api', 'v1', 'households', id, 'plans', ...) that may tell routes apart. */
const KEY_POSITIONS = [3, 5];

const routeKey = (segments: readonly string[], positions: readonly number[]): string => {
  let key = String(segments.length);
  for (const p of positions) key += `/${segments[p] ?? ''}`;
  return key;
};

/**
 * Matches each request with @koa/router and runs the first route that answers the path by its method (a GET route
 * answers HEAD too). The routes are split among several routers by what a path must have to match any of them (its
 * number of segments, and its segments at KEY_POSITIONS where no route has a parameter), so that a request is tested
 * against the patterns of a few routes rather than all of them; a path's routes all share one router, so the router
 * still tells 405 from 404. The router's matching and parameter decoding are used as they are; its dispatch is not:
 * `router.routes()` builds a chain of closures and composes it for every request, a promise more per layer, and a
 * route never passes a request on, so the route found is called directly (docs/performance.md, "One router"). No
 * route of the method: the paths matched are left on `ctx.matched` for the 405 that follows, and the request goes on.
 */
function routing(settings: HttpSettings, routes: readonly AnyRoute[]): Koa.Middleware {
  const templates = routes.map((r) => koaPath(r.path).split('/'));
  // A wildcard may span segments, which would make a segment's position mean nothing; no route has one.
  if (templates.some((t) => t.some((segment) => segment.includes('*')))) throw new Error('routes with a wildcard cannot be split by their segments');
  const positions = KEY_POSITIONS.filter((p) => templates.every((t) => !(t[p] ?? '').includes(':')));
  const routers = new Map<string, Router>();
  routes.forEach((route, i) => {
    const key = routeKey(templates[i]!, positions);
    // Exact paths only (strict, case-sensitive): one spelling per route, so the version gate's exemptions and the routes agree.
    const router = routers.get(key) ?? new Router({ strict: true, sensitive: true });
    routers.set(key, router);
    router.register(templates[i]!.join('/'), [route.method], routeMiddleware(settings, route), { name: route.operationId });
  });
  return (ctx, next) => {
    const path = ctx.path;
    const router = routers.get(routeKey(path.split('/'), positions));
    if (!router) return next();
    const found = router.match(path, ctx.method);
    const layer = found.pathAndMethod[0];
    if (!layer) {
      ctx.matched = found.path;
      return next();
    }
    ctx.params = layer.params(path, layer.captures(path));
    return (layer.stack[0] as Koa.Middleware)(ctx, next);
  };
}

/**
 * One route as one function: its rate limits, browser-safety check, session, body and validation in order, then its
 * handler, each timed as a named step of Server-Timing. One function rather than a middleware each: every layer
 * of Koa's chain, and every async wrapper, is a promise more for each request, and each promise costs the request
 * context's hooks (docs/performance.md, W1).
 */
function routeMiddleware(settings: HttpSettings, route: AnyRoute): Koa.Middleware {
  if (route.body && route.multipart) throw new Error(`${route.operationId}: a route takes a JSON body or a multipart body, not both`);
  if (route.rawBody && (route.body || route.multipart)) throw new Error(`${route.operationId}: a raw body route takes no parsed body`);
  if (route.largeJson && (route.body || route.multipart || route.rawBody)) throw new Error(`${route.operationId}: a large JSON body route takes no other body`);
  const { rateLimiter } = settings;
  // Public classes count per client IP before anything else; the backstop counts per signed-in account.
  const ipClass = route.rateLimit !== 'none' && route.rateLimit !== 'backstop' ? route.rateLimit : null;
  const crossSite = route.method !== 'GET' ? crossSiteGuard(settings.config.publicBaseUrl) : null;
  const authenticate = signedIn(route.auth) ? authenticateRequest(settings.sessions, settings.config.publicBaseUrl) : null;
  // A request with Authorization: Bearer is a token's, whether or not the route takes tokens (403 when it does not).
  const authenticateByToken = signedIn(route.auth) ? authenticateToken(settings.accessTokens, route) : null;
  const rawBody = route.rawBody;
  const largeJson = route.largeJson;
  const multipartDef = route.multipart;
  // A state-changing signed-in route takes an Idempotency-Key (from a session; see below for a token).
  const idempotent = route.method !== 'GET' && signedIn(route.auth);
  // Counts the request; a promise only when the limiter had to ask its counter (far from the limit it answers at once).
  const limit = (metrics: RequestMetrics, cls: RateClass, key: string): Promise<void> | undefined => {
    const since = process.hrtime.bigint();
    const decision = rateLimiter.consume(cls, key);
    if (!(decision instanceof Promise)) return rateDecided(metrics, since, decision);
    return decision.then(
      (d) => rateDecided(metrics, since, d),
      (err: unknown) => {
        stepDone(metrics, 'ratelimit', since);
        throw err;
      },
    );
  };
  // Validates the input and runs the handler, each a step of Server-Timing (one function for the route, not one a request).
  const handle = async (ctx: Koa.Context, metrics: RequestMetrics, raw: Buffer | undefined, multipart: ParsedMultipart | undefined, json: unknown, validated?: WeakMap<object, unknown>) => {
    let since = process.hrtime.bigint();
    let input: Parameters<AnyRoute['handler']>[1];
    try {
      const params = route.params ? parseWith(route.params, { ...ctx.params }, 'path') : {};
      const query = route.query ? parseWith(route.query, { ...ctx.query }, 'query') : {};
      largeJson?.recognise?.(json);
      input = {
        params,
        query,
        // A multipart body's text fields validate like a JSON body; a large one is validated in steps.
        body: route.body
          ? parseWith(route.body, json, 'body')
          : multipartDef && multipart
            ? parseWith(multipartDef.fields, multipart.fields, 'body')
            : largeJson
              ? await validateInSteps(largeJson.schema, json, 'body', validated)
              : undefined,
        files: multipart?.files ?? {},
        caller: ctx.state['caller'] ?? null,
        rawBody: raw ?? NO_BYTES,
      };
    } finally {
      stepDone(metrics, 'validate', since);
    }
    since = process.hrtime.bigint();
    try {
      await route.handler(ctx, input);
    } finally {
      stepDone(metrics, 'handler', since);
    }
  };
  return async (ctx) => {
    const metrics = ctx.state['metrics'] as RequestMetrics;
    // The route's template, for the request-duration metric (adapters/observability/prometheus.ts).
    ctx.state['route'] = route.path;
    if (ipClass) {
      const counting = limit(metrics, ipClass, `ip:${ctx.ip}`);
      if (counting) await counting;
    }
    crossSite?.(ctx);
    const since = process.hrtime.bigint();
    // A route only a token may call takes no cookie: without a Bearer header it answers 401 as for a missing token.
    const byToken = authenticateByToken !== null && (route.auth === 'token' || sentToken(ctx));
    if (authenticate) {
      try {
        await (byToken ? authenticateByToken(ctx) : authenticate(ctx));
      } finally {
        stepDone(metrics, 'auth', since);
      }
    }
    // A token's requests count in a class of their own, per account, in place of the backstop: a script that runs
    // away spends its own budget, not the one its person's web app and phone share.
    if (byToken) {
      const counting = limit(metrics, 'token', `account:${ctx.state['caller'].account.id}`);
      if (counting) await counting;
      // Keys are kept per session (a session's end takes them along): a token's write is never answered from a key,
      // so one sent is refused rather than silently not kept.
      if (idempotent && ctx.get(IDEMPOTENCY_HEADER) !== '') throw problems.validation(`${IDEMPOTENCY_HEADER} is taken only with the session cookie, not with a personal access token`);
    } else if (route.rateLimit === 'backstop') {
      const counting = limit(metrics, 'backstop', ctx.state['caller'] ? `account:${ctx.state['caller'].account.id}` : `ip:${ctx.ip}`);
      if (counting) await counting;
    }
    // Most requests send no body: no reader, and no promise, for them.
    const body = rawBody || multipartDef || largeJson || hasBody(ctx) ? await readBody(ctx, route, metrics) : NO_BODY;
    const { raw, multipart, json, streamed } = body;
    const login = idempotent && !byToken ? (ctx.state['caller'] as { session: { tokenHash: string } } | undefined)?.session.tokenHash : undefined;
    if (!login) {
      await handle(ctx, metrics, raw, multipart, streamed ? streamed.value : json?.value, streamed?.validated);
      return;
    }
    // What the request sent, for telling a repeat from another request under the same key.
    // The query is part of the request a key belongs to: complete?unticked=drop is not complete?unticked=keep.
    const fingerprint = () => bodyFingerprint(ctx.querystring, body);
    await underIdempotencyKey(settings.idempotency, ctx, login, fingerprint, () => handle(ctx, metrics, raw, multipart, streamed ? streamed.value : json?.value, streamed?.validated));
  };
}

/** The body of a request, read as its route takes it. */
interface ReadBody {
  readonly raw?: Buffer;
  readonly multipart?: ParsedMultipart;
  readonly json?: { text: string; value: unknown };
  readonly streamed?: StreamedJson;
}

const NO_BODY: ReadBody = Object.freeze({});

/**
 * Reads the request's body as the route takes it (raw bytes, multipart, a large JSON read in steps, or JSON), each
 * within its deadline and timed as a step; a body sent to a route that takes none is read only to be refused.
 */
async function readBody(ctx: Koa.Context, route: AnyRoute, metrics: RequestMetrics): Promise<ReadBody> {
  const since = process.hrtime.bigint();
  if (route.rawBody) {
    const binary = route.rawBody.mediaTypes;
    if (binary && !ctx.is(...binary)) throw problems.unsupportedMediaType(binary.join(', '));
    try {
      return { raw: await withinDeadline(BODY_TIMEOUT_MS, binary ? readBodyBytes(ctx, route.rawBody.maxBytes) : readRawBody(ctx, route.rawBody.maxBytes)) };
    } finally {
      stepDone(metrics, 'body', since);
    }
  }
  if (route.multipart) {
    try {
      return { multipart: await withinDeadline(BODY_TIMEOUT_MS, readMultipart(ctx, route.multipart)) };
    } finally {
      stepDone(metrics, 'multipart', since);
    }
  }
  if (route.largeJson) {
    if (hasBody(ctx) && !ctx.is('application/json', '+json')) throw problems.unsupportedMediaType();
    try {
      return { streamed: await withinDeadline(route.largeJson.timeoutMs, readJsonStream(ctx, route.largeJson.schema, route.largeJson.maxBytes)) };
    } finally {
      stepDone(metrics, 'body', since);
    }
  }
  if (!hasBody(ctx)) return NO_BODY;
  if (route.body === undefined) {
    await withinDeadline(BODY_TIMEOUT_MS, refuseIgnoredBody(ctx, JSON_BODY_LIMIT_BYTES));
    return NO_BODY;
  }
  if (!ctx.is('application/json', '+json')) throw problems.unsupportedMediaType();
  try {
    return { json: await withinDeadline(BODY_TIMEOUT_MS, readJsonBody(ctx, JSON_BODY_LIMIT_BYTES)) };
  } finally {
    stepDone(metrics, 'body', since);
  }
}

/** A digest of what the request sent (its query and body), for telling a repeat from another request under one Idempotency-Key. */
function bodyFingerprint(query: string, { raw, multipart, streamed, json }: ReadBody): string {
  // A request without a query digests as before, so keys kept before the query counted still match their repeats.
  const asked = query === '' ? [] : [`?${query}`];
  const sent = raw
    ? [raw]
    : multipart
      ? [JSON.stringify(multipart.fields), ...Object.entries(multipart.files).sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([name, f]) => [name, f.bytes])]
      : streamed
        ? [streamed.digest]
        : [json?.text ?? ''];
  return requestFingerprint([...sent, ...asked]);
}

/** A rate limiter's answer for the request: its step timed, and 429 when it was refused. */
function rateDecided(metrics: RequestMetrics, since: bigint, decision: RateDecision): undefined {
  stepDone(metrics, 'ratelimit', since);
  if (!decision.allowed) throw problems.rateLimited(decision.retryAfterSec);
  return undefined;
}

/** The raw body of a route that takes none: one empty buffer for every request. */
const NO_BYTES = Buffer.alloc(0);

/**
 * The request line and headers, before routing: a NUL character anywhere in the path or query (percent-encoded or
 * not) is refused, as is a percent escape that is broken (400 validation_failed) or that spells bytes that are not
 * UTF-8 (400 url_not_utf8), and a header whose bytes are not UTF-8 (400 header_not_utf8). Node's parser already
 * refuses a raw NUL (or any other control character) in the request line and the headers, and any byte above 0x7F
 * in the request line; it hands header bytes above 0x7F on as Latin-1 characters, read here as the bytes they were.
 * Nothing is made for a request without a percent sign or such a byte, as most are.
 */
function screenRequestLine(ctx: Koa.Context): void {
  const url = ctx.originalUrl;
  if (url.includes('\0')) throw problems.nul();
  if (url.includes('%')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(url);
    } catch {
      throw BROKEN_ESCAPE.test(url) ? problems.validation('the request URL is not validly percent-encoded') : problems.notUtf8('url');
    }
    if (decoded.includes('\0')) throw problems.nul();
  }
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i < raw.length; i++) {
    const text = raw[i]!;
    if (text.includes('\0')) throw problems.nul();
    if (BEYOND_ASCII.test(text) && !isUtf8(Buffer.from(text, 'latin1'))) throw problems.notUtf8('header', i % 2 === 1 ? raw[i - 1] : text);
  }
}

const BROKEN_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const BEYOND_ASCII = /[^\x00-\x7f]/;

/** Every error leaves as application/problem+json with the trace id; unexpected ones are logged, never echoed. */
function problemResponder(settings: HttpSettings): (ctx: Koa.Context, err: unknown) => void {
  return (ctx, err) => {
    const problem = toProblem(err);
    // An outage of the database is one fact, not one bug per request: warn, and keep error for the unexpected.
    if (err instanceof StoreUnavailableError || err instanceof StoreBusyError) settings.logger.warn('database not available', { code: problem.code, method: ctx.method, path: ctx.path });
    else if (problem.status >= 500 && !(err instanceof HttpProblem)) settings.logger.error('unhandled error', { err, method: ctx.method, path: ctx.path });
    ctx.status = problem.status;
    for (const [k, v] of Object.entries(problem.headers)) ctx.set(k, v);
    ctx.type = 'application/problem+json';
    ctx.body = {
      type: problemType(settings.config.problemBaseUrl, problem.code),
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      instance: ctx.path,
      code: problem.code,
      traceId: (ctx.state['metrics'] as { traceId: string }).traceId,
      ...problem.extensions,
    };
  };
}

function toProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (err instanceof StoreBusyError) return problems.busy();
  if (err instanceof StoreUnavailableError) return problems.storeUnavailable();
  return problems.internal();
}
