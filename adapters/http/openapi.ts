import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ProblemBody } from './schemas.js';
import { signedIn, type AnyRoute, type MultipartDef } from './route.js';
import { IDEMPOTENCY_DOC, IDEMPOTENCY_HEADER } from './idempotency.js';

type Json = Record<string, unknown>;

const jsonSchema = (schema: v.GenericSchema): Json => {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input' }) as Json;
  return rest;
};

/** Problems any route may answer, besides the ones it names itself. */
const COMMON: Record<number, string> = {
  400:
    'validation_failed or value_too_long: the request is not of the documented shape (at most 20 problems listed in errors), ' +
    'a NUL character was sent, or a property is named __proto__, constructor or prototype; body_not_utf8, url_not_utf8, ' +
    'header_not_utf8: the body, a percent escape of the path or query, or a header is not well-formed UTF-8',
  426: 'app_version_unsupported: X-App-Version is below the platform floor',
  429: 'rate_limited: over the route\'s rate-limit class; Retry-After gives seconds',
  500: 'internal_error: no stack trace or SQL in the body; the trace id finds it in the logs',
  503: 'store_busy: the database stayed locked; store_unavailable: the database cannot be reached (the same process recovers once it can); Retry-After gives seconds',
};

/** Personal access tokens, as the document's description tells them. */
const PERSONAL_ACCESS_TOKENS_DOC = [
  'Personal access tokens: a person makes one in the web app (Settings, Access tokens) or with POST /api/v1/me/access-tokens',
  'for ONE household they are a member of, read or read-write, expiring after 1 to 365 days (90 by default); its secret',
  '(dp_pat_…) is shown once and kept only as its SHA-256. Send it as Authorization: Bearer <secret>. It reaches only the',
  'operations marked x-token-access read (GET; read and read-write tokens) or read-write (writes; read-write tokens), and',
  'only for its own household: another household answers 404 household_not_found; an operation a token may not call',
  '(x-token-access none: the account, password, e-mail, sign-ins and sessions, the tokens themselves, deleting the',
  'account or the household, members and invites, and what is not a household\'s data) answers 403 token_not_for_route,',
  'a read token on a writing operation 403 token_read_only; an unknown, revoked or expired token 401 token_invalid or',
  'token_expired (with WWW-Authenticate). A revoked token fails on its next request in every process. x-token-access',
  'token-only marks the MCP endpoint (/mcp), which takes a token and nothing else, read or read-write: it offers a read',
  'token only its reading tools.',
];

/** Idempotency-Key belongs to a session. */
const IDEMPOTENCY_NOT_BY_TOKEN = 'Not with a personal access token: a token\'s request with this header is 400 validation_failed.';

/**
 * A multipart/form-data request body: the text fields' schema with the file parts added as binary strings; the
 * encoding names the JSON fields and the media types a file's bytes must have.
 */
function multipartBody(m: MultipartDef<unknown>): Json {
  const fields = jsonSchema(m.fields);
  const properties: Record<string, Json> = { ...((fields['properties'] as Record<string, Json> | undefined) ?? {}) };
  const encoding: Record<string, Json> = {};
  for (const name of m.jsonFields ?? []) encoding[name] = { contentType: 'application/json' };
  for (const [name, f] of Object.entries(m.files)) {
    const kinds = f.mediaTypes ? ` Its bytes must be ${f.mediaTypes.join(', ')} (sniffed; the declared type is not trusted), else 400 validation_failed.` : '';
    properties[name] = {
      type: 'string',
      format: 'binary',
      description: `${f.description} Optional; an empty part counts as absent. At most ${f.maxBytes} bytes, else 400 value_too_long.${kinds}`,
    };
    if (f.mediaTypes) encoding[name] = { contentType: f.mediaTypes.join(', ') };
  }
  return {
    required: true,
    description: `multipart/form-data of at most ${m.maxTotalBytes} bytes in all (413 payload_too_large above). Part names match case-insensitively; parts not listed are ignored.`,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', properties, required: (fields['required'] as string[] | undefined) ?? [] },
        ...(Object.keys(encoding).length ? { encoding } : {}),
      },
    },
  };
}

export interface ApiInfo {
  readonly version: string;
  readonly publicBaseUrl: string;
  readonly problemBaseUrl: string;
}

/** A body the route reads as bytes: JSON text it checks itself, or a binary body of its media types (a photo). */
function rawRequestBody(raw: NonNullable<AnyRoute['rawBody']>): Json {
  return {
    required: true,
    description: `${raw.description} At most ${raw.maxBytes} bytes (413 payload_too_large above).`,
    content: raw.mediaTypes
      ? Object.fromEntries(raw.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]))
      : { 'application/json': raw.schema ? { schema: jsonSchema(raw.schema) } : {} },
  };
}

/** The problems an operation may answer besides its successes, by status: its own codes, then those every route of its kind may. */
function problemStatuses(r: AnyRoute): Map<number, string> {
  const statuses = new Map<number, string>();
  const add = (status: number, text: string) => statuses.set(status, [statuses.get(status), text].filter(Boolean).join('; '));
  const own: Record<number, string[]> = {};
  for (const [code, status] of Object.entries(r.problems ?? {})) (own[status] ??= []).push(code);
  for (const [status, codes] of Object.entries(own)) add(Number(status), codes.join(', '));
  const byToken = r.auth === 'session-or-token' || r.auth === 'token';
  if (signedIn(r.auth)) add(401, 'unauthenticated: no session, or it is no longer valid');
  if (byToken) add(401, 'token_invalid: the Bearer token is unknown, revoked, or its person left its household; token_expired: it has expired');
  if (r.multipart) {
    add(413, `payload_too_large: the body is over ${r.multipart.maxTotalBytes} bytes in all`);
    add(415, 'unsupported_media_type: the body is not multipart/form-data');
  }
  if (r.rawBody?.mediaTypes) add(415, `unsupported_media_type: the Content-Type is not ${r.rawBody.mediaTypes.join(', ')}`);
  const rawMax = r.rawBody?.maxBytes ?? r.largeJson?.maxBytes;
  if (rawMax !== undefined) add(413, `payload_too_large: the body is over ${rawMax} bytes`);
  if (r.method !== 'GET' && signedIn(r.auth)) {
    add(409, 'idempotency_key_in_progress: a request with this Idempotency-Key is being answered right now (Retry-After: 1)');
    add(422, 'idempotency_key_reused: this Idempotency-Key was first used for another request');
    add(403, 'cross_site_request: a cross-site request carried the session cookie');
  }
  if (r.auth === 'session') add(403, 'token_not_for_route: a personal access token may not call this operation');
  if (r.auth === 'session-or-token' && r.method !== 'GET') add(403, 'token_read_only: a read token may not call a writing operation');
  for (const [status, text] of Object.entries(COMMON)) {
    const s = Number(status);
    if (s === 426 && r.versionGated === false) continue;
    if (s === 429 && r.rateLimit === 'none') continue;
    add(s, s === 429 && byToken ? `${text} (with a personal access token: over the token class)` : text);
  }
  return statuses;
}

/** The OpenAPI 3.1 document of every route, generated from the same valibot schemas that validate requests. */
export function buildOpenApi(routes: readonly AnyRoute[], info: ApiInfo): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const parameters: Json[] = [];
    for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
      if (!schema) continue;
      const s = jsonSchema(schema);
      const required = new Set((s['required'] as string[] | undefined) ?? []);
      for (const [name, prop] of Object.entries((s['properties'] as Record<string, Json> | undefined) ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
      }
    }
    const idempotent = r.method !== 'GET' && signedIn(r.auth);
    const byToken = r.auth === 'session-or-token' || r.auth === 'token';
    if (idempotent) parameters.push({ name: IDEMPOTENCY_HEADER, in: 'header', required: false, description: byToken ? `${IDEMPOTENCY_DOC} ${IDEMPOTENCY_NOT_BY_TOKEN}` : IDEMPOTENCY_DOC, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' } });
    for (const [name, description] of Object.entries(r.rawBody?.headers ?? {})) {
      parameters.push({ name, in: 'header', required: true, description, schema: { type: 'string' } });
    }
    const responses: Json = {};
    for (const [status, doc] of Object.entries(r.responses)) {
      responses[status] = {
        description: doc.description,
        ...(doc.headers ? { headers: Object.fromEntries(Object.entries(doc.headers).map(([h, value]) => [h, { description: value, schema: { type: 'string' } }])) } : {}),
        ...(doc.schema || doc.contentType ? { content: { [doc.contentType ?? 'application/json']: doc.schema ? { schema: jsonSchema(doc.schema) } : {} } } : {}),
      };
    }
    const statuses = problemStatuses(r);
    for (const [status, text] of [...statuses].sort((a, b) => a[0] - b[0])) {
      if (responses[status]) continue;
      responses[status] = { description: text, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    }
    (paths[r.path] ??= {})[r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: [r.tag],
      security: r.auth === 'token' ? [{ personalAccessToken: [] }] : byToken ? [{ session: [] }, { personalAccessToken: [] }] : r.auth === 'session' ? [{ session: [] }] : [],
      'x-rate-limit-class': r.rateLimit,
      ...(signedIn(r.auth) ? { 'x-token-access': r.auth === 'token' ? 'token-only' : !byToken ? 'none' : r.method === 'GET' ? 'read' : 'read-write' } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(r.body) } } } } : {}),
      ...(r.multipart ? { requestBody: multipartBody(r.multipart) } : {}),
      ...(r.rawBody ? { requestBody: rawRequestBody(r.rawBody) } : {}),
      ...(r.largeJson
        ? {
            requestBody: {
              required: true,
              description:
                `${r.largeJson.description} At most ${r.largeJson.maxBytes} bytes (413 payload_too_large above), read and checked in ` +
                'steps as it arrives: the first array or string past its limit ends it (400 value_too_long), as does nesting deeper than 64 levels.',
              content: { 'application/json': { schema: jsonSchema(r.largeJson.schema) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Household Dinner-Planning Service',
      version: '1.0.0',
      'x-build-version': info.version,
      description: [
        'Every response carries X-Trace-Id (W3C trace id; a valid incoming traceparent is continued) and Server-Timing',
        '(total, db with query count, named steps); X-Diagnostics (the same as JSON) only with header X-Diagnostics: 1',
        'or query diagnostics=1. Errors are application/problem+json with type, title, status, detail, instance, code',
        `and traceId; type is ${info.problemBaseUrl}/{code}. Request property names match case-insensitively; answers`,
        'are camelCase. JSON bodies up to 1 MiB (413 above). A NUL character anywhere in a request gives 400.',
        'Before a body is validated, every array is held to its maxItems and every string to its maxLength (400',
        'value_too_long, the items never looked at); a property named __proto__, constructor or prototype (any case, any',
        'depth) gives 400 validation_failed naming its path; a refusal lists at most 20 problems. Text the service reads',
        '(a body, a percent escape in the path or query, a header) must be well-formed UTF-8: 400 body_not_utf8,',
        'url_not_utf8 or header_not_utf8, never a silent U+FFFD.',
        'A state-changing request carrying the session cookie from another site gets 403 cross_site_request.',
        'X-App-Version: <ios|android>/<x.y.z> below the floor gets 426 (type app-version-unsupported) except on',
        '/api/v1/app/version and the health probes; no or a malformed header is never gated.',
        'Rate-limit classes (x-rate-limit-class): auth (all /api/v1/auth/*, per client IP), anonymous-per-ip, data-per-ip,',
        'dinner-price-signup-per-ip, backstop (signed-in routes, per account), token (every request made with a personal',
        'access token, per account, in place of backstop; 120 a minute by default), none (health probes); configured by',
        'RATE_LIMITS.',
        'Sessions: cookie app_session, a 256-bit random token stored only as its SHA-256, HttpOnly, SameSite=Lax, Secure on',
        'https, 30 days from last use. Logout rotates the account security stamp, which ends every session of the account.',
        ...PERSONAL_ACCESS_TOKENS_DOC,
      ].join(' '),
    },
    servers: [{ url: info.publicBaseUrl }],
    paths,
    components: {
      schemas: { Problem: jsonSchema(ProblemBody) },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'app_session' },
        personalAccessToken: { type: 'http', scheme: 'bearer', description: 'A personal access token (dp_pat_…), made in the web app\'s settings or with POST /api/v1/me/access-tokens. Only operations with x-token-access read or read-write take it.' },
      },
    },
  };
}
