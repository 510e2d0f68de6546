import fc from 'fast-check';
import { acceptedTypes, deepArrayText, invalidObject, invalidString, plausibleFor } from './json-schema-arbitraries.js';
import type { JsonSchema, Method, Operation, Parameter } from './operations.js';

/** One request of the fuzzer, and what it must get. */
export interface FuzzRequest {
  /** Which part was made wrong: the reason a refusal is certain (or 'probe' when none is). */
  readonly fault: string;
  readonly method: string;
  /** Path and query, already percent-encoded (or deliberately mis-encoded). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: { readonly bytes: string; readonly chunked: boolean };
  /** 'refused': any answer but a 4xx is a failure; 'any': only a 5xx or a non-problem error is. */
  readonly expect: 'refused' | 'any';
}

export interface FuzzContext {
  readonly ops: readonly Operation[];
  /** Some route answers this raw path (any method). */
  readonly routed: (path: string) => boolean;
  /** Real values of path parameters by name (ids of the seeded household), used beside well-formed fakes. */
  readonly realValues: Readonly<Record<string, readonly string[]>>;
  /** The Owner's session token. */
  readonly token: string;
  /** X-App-Version values below the configured floor. */
  readonly oldVersions: readonly string[];
}

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const enc = encodeURIComponent;

const printableAscii = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
/** fetch sends a header value's characters as single bytes (Latin-1): this spells the UTF-8 bytes of the text. */
const asUtf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * Header values fetch will send, never CR, LF or NUL: mostly printable ASCII; at times text beyond ASCII sent as its
 * UTF-8 bytes; now and then bare Latin-1 bytes 0xA0–0xFF. Those are not UTF-8, and the service refuses such a
 * header (400 header_not_utf8) before it looks at anything else, so they are kept rare: in every header they would
 * hide the fault a request was made to carry.
 */
const headerText = fc.oneof(
  { weight: 80, arbitrary: fc.string({ unit: printableAscii, maxLength: 60 }) },
  { weight: 15, arbitrary: fc.string({ unit: fc.oneof(printableAscii, fc.integer({ min: 0xa0, max: 0x2fff }).map((c) => String.fromCodePoint(c))), maxLength: 30 }).map(asUtf8Bytes) },
  { weight: 1, arbitrary: fc.string({ unit: fc.oneof(printableAscii, fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c))), maxLength: 60 }) },
);

/** Headers that change nothing about validity: junk in every header the service reads or might. */
const noiseHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'If-None-Match': fc.oneof(headerText, fc.constantFrom('*', 'W/', '"', 'W/"x", *', '"a","b"', ',,,', 'W/W/"x"')),
    'X-App-Version': fc.oneof(headerText, fc.constantFrom('ios/99.0.0', 'android/', 'ios/1.2', 'web/0.0.1', 'ios/999999999.0.0', 'IOS/1.0.0')),
    traceparent: fc.oneof(headerText, fc.constantFrom('00-00000000000000000000000000000000-0000000000000000-01', 'ff-' + 'a'.repeat(32) + '-' + 'b'.repeat(16) + '-01')),
    'X-Diagnostics': fc.oneof(headerText, fc.constant('1')),
    Accept: fc.oneof(headerText, fc.constantFrom('application/xml', '*/*;q=abc', 'text/html')),
    'Accept-Language': headerText,
    'If-Modified-Since': headerText,
    'X-Forwarded-For': fc.oneof(headerText, fc.constantFrom('::1, 999.1.1.1', 'unknown')),
    Authorization: headerText,
    Range: fc.oneof(headerText, fc.constant('bytes=-1')),
  },
  { requiredKeys: [] },
);

/** Cookie header values that carry no valid session. */
const deadCookies = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((t) => `app_session=${t}`),
  fc.base64String({ minLength: 16, maxLength: 128 }).map((t) => `app_session=${t.replace(/[+/=]/g, '_')}`),
  headerText.filter((c) => !c.includes('app_session')),
  fc.constantFrom('app_session=', 'app_session', '=app_session', 'app_session="', 'app_session=%zz', 'app_session=a; app_session=b', ';;;;', 'a=b=c'),
);

/**
 * The valid session, at times among junk cookies (after it: a cookie jar reads the first app_session). A junk
 * cookie beyond ASCII is mostly UTF-8 ('æ' as C3 A6), rarely a bare Latin-1 byte (E6), which is refused for itself.
 */
const liveCookie = (token: string) =>
  fc.oneof(
    fc.constant(`app_session=${token}`),
    fc.oneof({ weight: 24, arbitrary: fc.constantFrom('x=%zz', 'y="', '=', `z=${asUtf8Bytes('\u00e6')}`) }, { weight: 1, arbitrary: fc.constant('z=\u00e6') }).map((junk) => `app_session=${token}; ${junk}`),
  );

const FOREIGN_ORIGINS = fc.oneof(fc.constantFrom('https://evil.example', 'null', 'http://localhost:8081', 'http://127.0.0.1', 'file://'), headerText.filter((o) => o.trim() !== ''));

/**
 * Bad percent-encoding (or an encoded NUL) that makes the whole URL unreadable. Inside a path only the escapes
 * that stay bad whatever follows them ('%' + 'ab' would be a good escape); at the very end of a query, any.
 */
const PATH_ESCAPES_LIST = ['%z', '%zz', '%G0', '%C0%80', '%ED%A0%80', '%FF', '%00', '%%', '%u0041'];
const QUERY_ESCAPES = fc.constantFrom('%', '%z', '%zz', '%G0', '%E0%A4%A', '%C0%80', '%ED%A0%80', '%FF', '%00', '%%', '%0', '%u0041');

function valueFor(ctx: FuzzContext, p: Parameter): fc.Arbitrary<string> {
  const real = ctx.realValues[p.name] ?? [];
  const fake = p.schema['format'] === 'uuid' ? fc.uuid() : fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
  return real.length ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 4 }, { arbitrary: fake, weight: 1 }) : fake;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => enc(values[name]!));

const pathOf = (ctx: FuzzContext, op: Operation, override?: { name: string; value: string }) =>
  fc.tuple(...op.pathParams.map((p) => (override?.name === p.name ? fc.constant(override.value) : valueFor(ctx, p)))).map((vals) => fill(op.template, Object.fromEntries(op.pathParams.map((p, i) => [p.name, vals[i]!]))));

/** Day-strings at and past the edges of the calendar, for the date parameters (YYYY-MM-DD, maxLength 10). */
const DATES = fc.oneof(
  fc.constantFrom('0001-01-01', '9999-12-31', '2024-02-29', '2023-02-29', '1970-01-01', '2000-13-01', '2025-00-10', '+10000-01', '2025-1-1'),
  fc.date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2200-01-01') }).map((d) => d.toISOString().slice(0, 10)),
);

function plausibleQueryValue(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema['maxLength'] === 10) return fc.oneof(DATES, fc.string({ maxLength: 10 }));
  return plausibleFor(schema).map((t) => {
    const v: unknown = JSON.parse(t);
    return typeof v === 'string' ? v : String(v);
  });
}

/** The declared query parameters, some of them, with plausible values; and junk ones no route reads. */
function queryOf(op: Operation): fc.Arbitrary<[string, string][]> {
  const declared = new Set(op.queryParams.map((p) => p.name.toLowerCase()));
  const own = op.queryParams.map((p) => fc.option(plausibleQueryValue(p.schema).map((v) => [p.name, v] as [string, string]), { nil: undefined }));
  const junk = fc.array(fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter((k) => !declared.has(k.toLowerCase())), fc.string({ unit: 'grapheme', maxLength: 30 })), { maxLength: 3 });
  return fc.tuple(fc.tuple(...own), junk).map(([o, j]) => [...o.filter((x): x is [string, string] => x !== undefined), ...j]);
}

const queryString = (pairs: [string, string][]) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
const join = (path: string, query: string) => (query ? `${path}?${query}` : path);

/** A body for the request when its fault lies elsewhere: near the schema, or junk (never a NUL: that would be a fault). */
function anyBody(op: Operation): fc.Arbitrary<FuzzRequest['body'] | undefined> {
  if (op.method === 'GET') return fc.constant(undefined);
  const text = op.body?.kind === 'json' ? fc.oneof(plausibleFor(op.body.schema), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v))) : fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v));
  return fc.option(text.filter((t) => !t.includes('\\u0000')).map((bytes) => ({ bytes, chunked: false })), { nil: undefined });
}

const NOT_JSON_TYPES = fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'image/png', 'application/octet-stream', 'application/json-patch', 'text/json', 'multipart/form-data; boundary=x');
const INVALID_JSON = fc.oneof(
  fc.constantFrom('{', '{"a":}', "{'a':1}", '{"a":1,}', '[1,]', 'undefined', 'NaN', '{"a":1}{"b":2}', '\u0000', '{"a":"\u0000"}', 'tru', '"unterminated', '{"a":1e}', '01', '+1', '{"__proto__":'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => { try { JSON.parse(s); return false; } catch { return s.trim() !== ''; } }),
);

/** A JSON body the schema certainly refuses, with the Content-Type it goes with. */
function badJsonBody(schema: JsonSchema): fc.Arbitrary<{ bytes: string; contentType?: string; why: string }> {
  const withType = (why: string, contentType?: string) => (bytes: string) => ({ bytes, why, ...(contentType ? { contentType } : {}) });
  const obj = invalidObject(schema);
  const gens: fc.WeightedArbitrary<{ bytes: string; contentType?: string; why: string }>[] = [
    { arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)).map((v) => JSON.stringify(v)), deepArrayText, plausibleFor(schema).map((t) => `[${t}]`)).map(withType('not an object', 'application/json')), weight: 2 },
    { arbitrary: plausibleFor(schema).map((t) => (t === '{}' ? '{"zz\\u0000":1}' : `{"zz":"a\\u0000b",${t.slice(1)}`)).map(withType('NUL', 'application/json')), weight: 1 },
    { arbitrary: INVALID_JSON.map(withType('invalid JSON', 'application/json')), weight: 1 },
    { arbitrary: fc.constantFrom('', ' ', '\n\t').map(withType('empty', 'application/json')), weight: 1 },
    { arbitrary: fc.tuple(plausibleFor(schema), NOT_JSON_TYPES).map(([bytes, contentType]) => ({ bytes, contentType, why: `Content-Type ${contentType}` })), weight: 1 },
    { arbitrary: plausibleFor(schema).map(withType('no Content-Type')), weight: 1 },
  ];
  if (obj) gens.push({ arbitrary: obj.map(withType('schema violation', 'application/json')), weight: 8 });
  return fc.oneof(...gens);
}

function multipart(parts: { name: string; text: string }[], boundary = 'fuzzBoundary') {
  const body = parts.map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.text}\r\n`).join('') + `--${boundary}--\r\n`;
  return { bytes: body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A multipart body the route certainly refuses: its JSON part wrong, missing, or not multipart at all. */
function badMultipartBody(schema: JsonSchema): fc.Arbitrary<{ bytes: string; contentType?: string; why: string }> {
  const props = (schema['properties'] as Record<string, JsonSchema>) ?? {};
  const required = (schema['required'] as string[] | undefined) ?? [];
  const jsonParts = Object.entries(props).filter(([, p]) => p['type'] === 'object');
  const gens: fc.Arbitrary<{ bytes: string; contentType?: string; why: string }>[] = [
    plausibleFor(schema).map((bytes) => ({ bytes, contentType: 'application/json', why: 'JSON instead of multipart' })),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }).filter((s) => !s.includes('--x')).map((bytes) => ({ bytes, contentType: 'multipart/form-data; boundary=x', why: 'garbage multipart' })),
  ];
  for (const [name, p] of jsonParts) {
    const bad = invalidObject(p);
    const texts = bad ? fc.oneof(bad, INVALID_JSON, deepArrayText) : fc.oneof(INVALID_JSON, deepArrayText);
    gens.push(texts.map((text) => ({ ...multipart([{ name, text }]), why: `part ${name} invalid` })));
    gens.push(plausibleFor(p).map((t) => ({ ...multipart([{ name, text: t.length > 2 ? `{"zz":"\\u0000",${t.slice(1)}` : '{"zz":"\\u0000"}' }]), why: `NUL in part ${name}` })));
    if (required.includes(name)) gens.push(fc.constant({ ...multipart([{ name: 'other', text: 'x' }]), why: `part ${name} missing` }));
  }
  return fc.oneof(...gens);
}

/** What every family of faults of one operation builds on: its path, query, cookies and a base request. */
function faultKit(ctx: FuzzContext, op: Operation, add: (weight: number, arbitrary: fc.Arbitrary<FuzzRequest>) => void) {
  const path = pathOf(ctx, op);
  const query = queryOf(op);
  const cookie = liveCookie(ctx.token);
  const base = fc.record({ path, query, noise: noiseHeaders, body: anyBody(op) });
  const build = (fault: string, method: string, url: string, headers: Record<string, string>, body: FuzzRequest['body'] | undefined): FuzzRequest => ({
    fault,
    method,
    url,
    headers,
    ...(body && method !== 'GET' ? { body } : {}),
    expect: 'refused',
  });
  // Most requests carry the live session, some none: each fault must be refused either way.
  const maybeCookie = fc.option(cookie, { nil: undefined, freq: 4 });
  const live = (b: { noise: Record<string, string> }, c: string | undefined): Record<string, string> => (c === undefined ? { ...b.noise } : { ...b.noise, Cookie: c });
  return { ctx, op, path, query, cookie, base, build, maybeCookie, live, add };
}

type FaultKit = ReturnType<typeof faultKit>;

/** Every way to make a request to `op` that the service must refuse with a 4xx. */
export function refusedRequest(ctx: FuzzContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  // Weighted: the body, path and query, where most of the parsing lies, get the larger share of the runs.
  const faults: fc.WeightedArbitrary<FuzzRequest>[] = [];
  const kit = faultKit(ctx, op, (weight, arbitrary) => faults.push({ weight, arbitrary }));
  // In this order, so that a FUZZ_SEED reproduces the same requests.
  urlFaults(kit);
  accessFaults(kit);
  parameterFaults(kit);
  bodyFaults(kit);
  return fc.oneof(...faults);
}

/** The URL: an escape that does not decode, a NUL in the query, a path no route answers, a method the path does not answer. */
function urlFaults({ ctx, op, base, build, maybeCookie, live, add }: FaultKit): void {
  // The URL cannot be percent-decoded, or decodes to a NUL: refused before routing.
  add(1, 
    fc.record({ b: base, c: maybeCookie, esc: QUERY_ESCAPES, where: fc.nat(), inQuery: fc.boolean() }).map(({ b, c, esc, where, inQuery }) => {
      let url: string;
      if (inQuery || !PATH_ESCAPES_LIST.includes(esc)) url = `${b.path}?${queryString(b.query)}${b.query.length ? '&' : ''}${where % 2 ? `k=${esc}` : `${esc}=v`}`;
      else {
        const at = 1 + (where % b.path.length);
        url = join(b.path.slice(0, at) + esc + b.path.slice(at), queryString(b.query));
      }
      return build(`bad escape ${esc}`, op.method, url, live(b, c), b.body);
    }),
  );
  // A NUL in a query name or value.
  add(1, 
    fc.record({ b: base, c: maybeCookie, k: fc.string({ maxLength: 8 }), v: fc.string({ maxLength: 8 }), inKey: fc.boolean() }).map(({ b, c, k, v, inKey }) =>
      build('NUL in query', op.method, join(b.path, queryString([...b.query, inKey ? [`${k}\0`, v] : [k || 'q', `${v}\0`]])), live(b, c), b.body),
    ),
  );
  // A path no route answers: a sub-path, a trailing slash, another case. Not for a GET outside /api and /health
  // (robots.txt): every such path is the web app's (below), and a filter that never passes would never end.
  if (op.method !== 'GET' || /^\/(api|health)(\/|$)/.test(op.template)) add(1, 
    fc
      .record({ b: base, c: maybeCookie, suffix: fc.oneof(fc.constantFrom('/', '//', '/..', '/.', '.json', '/%2e%2e'), fc.stringMatching(/^(\/[a-z0-9_~-]{1,12}){1,3}$/)), upper: fc.boolean() })
      .map(({ b, c, suffix, upper }) => ({ b, c, p: upper ? b.path.replace('/api/', '/API/') : b.path + suffix }))
      // Judged as fetch will send it: the URL parser resolves /. and /.. (and their %2e spellings). A GET of
      // a path outside /api and /health is the web app's, which answers its own routes with index.html
      // (test/http/web-app.test.ts), so only paths of the API are expected to be refused.
      .filter(({ p }) => {
        const pathname = new URL(p, 'http://x').pathname;
        return !ctx.routed(pathname) && (op.method !== 'GET' || /^\/(api|health)(\/|$)/i.test(pathname));
      })
      .map(({ b, c, p }) => build(`unrouted path ${p}`, op.method, join(p, queryString(b.query)), live(b, c), b.body)),
  );
  // A method the path does not answer: 405.
  const answered = new Set(ctx.ops.filter((o) => o.template === op.template).map((o) => o.method as string));
  const others = [...METHODS, 'OPTIONS'].filter((m) => !answered.has(m));
  if (others.length) add(1, fc.record({ b: base, c: maybeCookie, m: fc.constantFrom(...others) }).map(({ b, c, m }) => build(`method ${m}`, m, join(b.path, queryString(b.query)), live(b, c), b.body)));
}

/** Who calls: no session or a dead one, a cross-site write, an app below the version floor. */
function accessFaults({ ctx, op, base, cookie, build, maybeCookie, live, add }: FaultKit): void {
  // No session, or a dead one.
  if (op.session) {
    add(1, 
      fc.record({ b: base, dead: fc.option(deadCookies, { nil: undefined }) }).map(({ b, dead }) =>
        build('no session', op.method, join(b.path, queryString(b.query)), { ...b.noise, ...(dead !== undefined ? { Cookie: dead } : {}) }, b.body),
      ),
    );
  }
  // A state-changing request with the session cookie from another site.
  if (op.method !== 'GET') {
    add(1, 
      fc.record({ b: base, c: cookie, origin: fc.option(FOREIGN_ORIGINS, { nil: undefined }) }).map(({ b, c, origin }) =>
        build('cross-site', op.method, join(b.path, queryString(b.query)), { ...live(b, c), ...(origin !== undefined ? { Origin: origin } : { 'Sec-Fetch-Site': 'cross-site' }) }, b.body),
      ),
    );
  }
  // An app below the version floor.
  if (op.versionGated) {
    add(1, fc.record({ b: base, c: maybeCookie, v: fc.constantFrom(...ctx.oldVersions) }).map(({ b, c, v }) => build(`app version ${v}`, op.method, join(b.path, queryString(b.query)), { ...live(b, c), 'X-App-Version': v }, b.body)));
  }
}

/** Path and query parameters of the wrong shape. */
function parameterFaults({ ctx, op, query, base, build, maybeCookie, live, add }: FaultKit): void {
  // A path parameter of the wrong shape.
  for (const p of op.pathParams) {
    const bad = invalidString(p.schema);
    if (!bad) continue;
    add(2, 
      fc.record({ v: bad.filter((s) => s !== ''), c: maybeCookie, query, noise: noiseHeaders, body: anyBody(op) }).chain(({ v, c, query: q, noise, body }) =>
        pathOf(ctx, op, { name: p.name, value: v }).map((pth) => build(`path ${p.name}`, op.method, join(pth, queryString(q)), live({ noise }, c), body)),
      ),
    );
  }
  // A query parameter of the wrong shape, or sent twice where one is read.
  for (const p of op.queryParams) {
    const bad = invalidString(p.schema);
    const repeatable = acceptedTypes(p.schema)?.has('array') ?? true;
    const values: fc.Arbitrary<[string, string][]>[] = [];
    if (bad) values.push(bad.map((v) => [[p.name, v]]));
    if (!repeatable) values.push(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([x, y]) => [[p.name, x], [p.name, y]]));
    if (!values.length) continue;
    add(2, 
      fc.record({ b: base, c: maybeCookie, bad: fc.oneof(...values) }).map(({ b, c, bad: pairs }) =>
        build(`query ${p.name}`, op.method, join(b.path, queryString([...b.query.filter(([k]) => k.toLowerCase() !== p.name.toLowerCase()), ...pairs])), live(b, c), b.body),
      ),
    );
  }
}

/** A body the route refuses: of the wrong shape, unsigned, or over the limit. */
function bodyFaults({ op, base, build, maybeCookie, live, add }: FaultKit): void {
  // A body the route refuses.
  if (op.body) {
    const bodies =
      op.body.kind === 'json'
        ? badJsonBody(op.body.schema)
        : op.body.kind === 'multipart'
          ? badMultipartBody(op.body.schema)
          : op.body.kind === 'binary'
            ? // A photo's bytes: junk of a type it takes, another type, or none.
              fc.record({ bytes: fc.string({ unit: 'binary', maxLength: 200 }), contentType: fc.option(fc.constantFrom(...op.body.mediaTypes, 'image/svg+xml', 'application/json', 'text/plain'), { nil: undefined }) }).map((b) => ({ ...b, why: 'not a photo' }))
          : // Signed raw body: without a valid Provider-Signature nothing is read.
            fc.tuple(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string()), fc.option(fc.oneof(headerText, fc.nat().map((t) => `t=${t},v1=${'0'.repeat(64)}`)), { nil: undefined })).map(([bytes, sig]) => ({
              bytes,
              contentType: 'application/json',
              why: 'unsigned',
              ...(sig !== undefined ? { signature: sig } : {}),
            }));
    add(6, 
      fc.record({ b: base, c: maybeCookie, body: bodies as fc.Arbitrary<{ bytes: string; contentType?: string; why: string; signature?: string }>, chunked: fc.boolean(), large: fc.integer({ min: 0, max: 40 }) }).map(({ b, c, body, chunked, large }) => {
        // Now and then a body over the 1 MiB limit, which must be refused before it is parsed.
        const bytes = large === 0 ? `{"x":"${'a'.repeat(1024 * 1024 + 10)}"}` : body.bytes;
        const headers: Record<string, string> = { ...live(b, c), ...(body.contentType ? { 'Content-Type': body.contentType } : {}), ...(body.signature !== undefined ? { 'Provider-Signature': body.signature } : {}) };
        return build(`body: ${large === 0 ? 'over 1 MiB' : body.why}`, op.method, join(b.path, queryString(b.query)), headers, { bytes, chunked });
      }),
    );
  }
}

/** A GET with the live session, plausible and junk query values and junk headers: any answer but a 5xx will do. */
export function probeRequest(ctx: FuzzContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  return fc.record({ path: pathOf(ctx, op), query: queryOf(op), noise: noiseHeaders, cookie: liveCookie(ctx.token) }).map(({ path, query, noise, cookie }) => ({
    fault: 'probe',
    method: op.method,
    url: join(path, queryString(query)),
    headers: { ...noise, Cookie: cookie },
    expect: 'any' as const,
  }));
}

