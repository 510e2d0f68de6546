import { JSON_BODY_LIMIT_BYTES } from '../../adapters/http/raw-body.js';
import type { JsonSchema, Operation } from './operations.js';
import {
  arrayPlaces,
  limitedArrays,
  limitedStrings,
  limitHoldsForAll,
  markAt,
  MARK,
  objectAt,
  objectPlaces,
  pathText,
  sampleValue,
  withMark,
  wrongTypedProperty,
} from './schema-walk.js';

/**
 * The requests of the hostile-input fuzzer (hostile.fuzz.ts, issue 42): for every operation of the OpenAPI
 * document, the classes of input that once cost the service time, memory or its prototypes. Each is made from the
 * document alone, deterministically, so that a failure names a request that is sent again by running the suite.
 */

/** What one request must get beyond a 4xx problem+json in time: its code, the path its first problem names. */
export interface Want {
  readonly code?: string;
  /** The code it must not be (a body at the limit is not too large: it must be read and judged). */
  readonly notCode?: string;
  /** errors[0].path */
  readonly firstPath?: string;
  /** Some errors[i].path */
  readonly somePath?: string;
  /** No errors[i].path inside this one: the items of an over-long array are never looked at. */
  readonly nothingUnder?: string;
}

export interface HostileRequest {
  /** METHOD template */
  readonly route: string;
  /** The class and what in it was made hostile. */
  readonly what: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly want: Want;
  /**
   * A step on the way to a large body: the same request at this fraction of its size, sent before it, and held to
   * the same fraction of the time bound. Work that grows with the input then fails on a small step, and the larger
   * ones of the ladder are not sent: at the limit such work could take the whole process's memory, the test's too.
   */
  readonly ladder?: { readonly id: string; readonly fraction: number };
}

/** A route with a body, as the fuzzer treats it. */
export interface BodyRoute {
  readonly op: Operation;
  /**
   * - json: a JSON body up to the service's JSON limit, refused by the documented rules;
   * - own-limit: a JSON body up to a limit of its own, which the route parses in its own steps (the household
   *   import): it answers in its own words (not_a_household_document, ...), so only a 4xx in time is asked of it,
   *   but for bytes that are not UTF-8 (body_not_utf8, as every body);
   * - raw: bytes checked against a signature before anything is parsed;
   * - multipart: form data whose JSON parts validate like a JSON body;
   * - binary: bytes of one of `mediaTypes` (a photo), never read as text.
   */
  readonly kind: 'json' | 'own-limit' | 'raw' | 'multipart' | 'binary';
  readonly mediaTypes?: readonly string[];
  readonly schema: JsonSchema;
  /** The largest body it takes, in bytes. */
  readonly limit: number;
}

export interface HostileContext {
  readonly ops: readonly Operation[];
  readonly bodyRoutes: readonly BodyRoute[];
  readonly realValues: Readonly<Record<string, readonly string[]>>;
  readonly token: string;
  /** A read-write personal access token of the seeded household. */
  readonly bearer: string;
}

/** The three keys that name or reach a prototype, in other letter cases too: property names match in any case. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', '__PROTO__', 'Constructor'] as const;

/** Byte sequences that are not UTF-8: a UTF-16 byte order mark, an overlong '/', a lone surrogate, a cut '€'. */
export const NOT_UTF8: readonly { readonly name: string; readonly bytes: Buffer }[] = [
  { name: 'FF FE', bytes: Buffer.from([0xff, 0xfe]) },
  { name: 'C0 AF', bytes: Buffer.from([0xc0, 0xaf]) },
  { name: 'ED A0 80', bytes: Buffer.from([0xed, 0xa0, 0x80]) },
  { name: 'E2 82 (cut)', bytes: Buffer.from([0xe2, 0x82]) },
];

/** Percent-escapes of bytes that are not UTF-8, each well-formed as an escape. */
export const NOT_UTF8_ESCAPES = ['%FF', '%C0%AF', '%ED%A0%80'] as const;

/**
 * Node refuses a request line and headers of more than 16 KiB (431) before the service sees them: a hostile query
 * is cut to this many characters, so that it is the service that judges it.
 */
const URL_BUDGET = 12_000;
/** Arrays past their maxItems are cut to fit this, so that they are judged rather than refused as too large (413). */
const ARRAY_BODY_BUDGET = 1024 * 1024 - 4096;
/** The junk under the import's members: large, but a fraction of its limit, to keep the run short. */
const IMPORT_JUNK_BYTES = 8 * 1024 * 1024;

const enc = encodeURIComponent;
const label = (op: Operation) => `${op.method} ${op.template}`;

/** The operation's path with real ids of the seeded household (a wrong id would be refused for itself first). */
export function pathFor(ctx: HostileContext, op: Operation, override?: { name: string; raw: string }): string {
  return op.template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    if (override?.name === name) return override.raw;
    const real = ctx.realValues[name]?.[0];
    if (real !== undefined) return enc(real);
    const p = op.pathParams.find((x) => x.name === name);
    return enc(String(p ? sampleValue(p.schema) : 'x'));
  });
}

/** The seeded Owner's way in: the session cookie, or the household's personal access token where only a token opens (/mcp). */
const session = (ctx: HostileContext, op: Operation): Record<string, string> => (op.tokenOnly ? { Authorization: `Bearer ${ctx.bearer}` } : { Cookie: `app_session=${ctx.token}` });

/** The JSON parts of a multipart body: its object-typed fields. */
export const jsonPartsOf = (schema: JsonSchema): [string, JsonSchema][] =>
  Object.entries((schema['properties'] as Record<string, JsonSchema> | undefined) ?? {}).filter(([, p]) => p['type'] === 'object');

const BOUNDARY = 'hostileBoundary42';

/** A multipart/form-data body of one text part (or one with a Content-Type, as some clients send a JSON part). */
function multipartBody(name: string, text: Buffer, partType?: string): { body: Buffer; contentType: string } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n${partType ? `Content-Type: ${partType}\r\n` : ''}\r\n`;
  return { body: Buffer.concat([Buffer.from(head), text, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}
const multipartOverhead = (name: string) => multipartBody(name, Buffer.alloc(0)).body.length;

/**
 * The places a JSON document goes in a body route: the body itself, or each JSON part of a multipart body. `wrap`
 * makes the request body of the document's text; `root` is how refusals name the document.
 */
interface Document {
  readonly route: BodyRoute;
  readonly schema: JsonSchema;
  readonly root: string;
  /** The most bytes the document may have for the whole body to stay within the route's limit. */
  readonly room: number;
  wrap(text: Buffer, partType?: string): { body: Buffer; contentType: string };
}

function documentsOf(route: BodyRoute): Document[] {
  if (route.kind === 'multipart') {
    return jsonPartsOf(route.schema).map(([name, schema]) => ({
      route,
      schema,
      root: `body.${name}`,
      // A JSON part is held to what a JSON body may be, whatever room the form's own limit leaves.
      room: Math.min(route.limit - multipartOverhead(name), JSON_BODY_LIMIT_BYTES),
      wrap: (text, partType) => multipartBody(name, text, partType),
    }));
  }
  if (route.kind === 'raw' || route.kind === 'binary') return [];
  return [{ route, schema: route.schema, root: 'body', room: route.limit, wrap: (text) => ({ body: text, contentType: 'application/json' }) }];
}

function request(ctx: HostileContext, d: Document, what: string, text: Buffer | string, want: Want, partType?: string, ladder?: HostileRequest['ladder']): HostileRequest {
  const { body, contentType } = d.wrap(typeof text === 'string' ? Buffer.from(text) : text, partType);
  const op = d.route.op;
  return { route: label(op), what, method: op.method, url: pathFor(ctx, op), headers: { ...session(ctx, op), 'Content-Type': contentType }, body, want, ...(ladder ? { ladder } : {}) };
}

/** The fractions of a large body sent on the way to it: a thousandth, a hundredth, a tenth, and all of it. */
const LADDER = [0.001, 0.01, 0.1, 1] as const;

/** The request at each step of the ladder to `size` bytes (what(size) names it; text(size) is the document). */
function* ladder(ctx: HostileContext, d: Document, size: number, what: (size: number) => string, text: (size: number) => string, want: Want): Generator<HostileRequest> {
  const id = `${label(d.route.op)} ${what(size)}`;
  for (const fraction of LADDER) {
    const at = Math.round(size * fraction);
    yield request(ctx, d, fraction === 1 ? what(at) : `${what(at)} (${fraction} of the way to ${size})`, text(at), want, undefined, { id, fraction });
  }
}

/** The route judges its body by the documented rules; the household import is only asked for a 4xx in time. */
const strict = (d: Document) => d.route.kind === 'json' || d.route.kind === 'multipart';

/** A JSON array of `count` copies of `item`. */
const junkArray = (item: string, count: number) => `[${new Array<string>(count).fill(item).join(',')}]`;

/** 1. Arrays 10× and 1,000× past their maxItems, in the body and in query parameters. */
export function* arraysPastMaxItems(ctx: HostileContext): Generator<HostileRequest> {
  for (const route of ctx.bodyRoutes) {
    for (const d of documentsOf(route)) {
      for (const place of limitedArrays(d.schema)) {
        const max = place.schema['maxItems'] as number;
        const base = withMark(markAt(sampleValue(d.schema, place.steps), place.steps), '[]');
        const where = pathText(d.root, place.steps);
        // Empty objects, then zeros (denser): junk, as the count alone must refuse the array, its items unread.
        for (const [factor, item] of [[10, '{}'], [1000, '0']] as const) {
          const fits = Math.floor((Math.min(d.room, ARRAY_BODY_BUDGET) - base.length) / (item.length + 1));
          const count = Math.min(factor * max, fits);
          if (count <= max) continue;
          const text = withMark(markAt(sampleValue(d.schema, place.steps), place.steps), junkArray(item, count));
          const what = `arrays: ${where} of ${count} items (${factor}× maxItems ${max}${count < factor * max ? ', cut to fit the body limit' : ''})`;
          yield request(ctx, d, what, text, strict(d) ? { code: 'value_too_long', somePath: where, nothingUnder: where } : {});
        }
      }
    }
  }
  for (const op of ctx.ops) {
    for (const p of op.queryParams) {
      const options = Array.isArray(p.schema['anyOf']) ? (p.schema['anyOf'] as JsonSchema[]) : [p.schema];
      const array = options.find((o) => o['type'] === 'array' && typeof o['maxItems'] === 'number');
      if (!array) continue;
      const max = array['maxItems'] as number;
      const pair = `${enc(p.name)}=0`;
      for (const factor of [10, 1000]) {
        const count = Math.min(factor * max, Math.floor(URL_BUDGET / (pair.length + 1)));
        if (count <= max) continue;
        const url = `${pathFor(ctx, op)}?${new Array<string>(count).fill(pair).join('&')}`;
        const what = `arrays: query ${p.name} sent ${count} times (${factor}× maxItems ${max}${count < factor * max ? ', cut to fit the header limit' : ''})`;
        yield { route: label(op), what, method: op.method, url, headers: session(ctx, op), want: { code: 'value_too_long', somePath: `query.${p.name}`, nothingUnder: `query.${p.name}` } };
      }
    }
  }
}

/**
 * 2. A prototype key at every object place of every body (the top level, nested objects, objects in arrays), and
 * in the query of every route that reads one. Its value is an object, or the place's own required fields (moved
 * out of the object: a body that reached a prototype would seem to have them).
 */
export function* prototypeKeys(ctx: HostileContext): Generator<HostileRequest> {
  for (const route of ctx.bodyRoutes) {
    for (const d of documentsOf(route)) {
      for (const place of objectPlaces(d.schema)) {
        const required = ((place.schema['required'] as string[] | undefined) ?? []).filter((k) => k in ((place.schema['properties'] as object | undefined) ?? {}));
        for (const [i, key] of PROTOTYPE_KEYS.entries()) {
          for (const value of required.length ? (['object', 'required fields'] as const) : (['object'] as const)) {
            const body = sampleValue(d.schema, place.steps);
            const obj = objectAt(body, place.steps);
            let inner: unknown = { x: true };
            if (value === 'required fields') {
              const moved: Record<string, unknown> = {};
              for (const k of required) {
                moved[k] = obj[k];
                delete obj[k];
              }
              // A constructor reaches a prototype through its own "prototype".
              inner = key.toLowerCase() === 'constructor' ? { prototype: moved } : moved;
            }
            // First among the keys or last, by turns: a reader that stops early must not miss it.
            if (i % 2 === 0) {
              const rest = { ...obj };
              for (const k of Object.keys(obj)) delete obj[k];
              Object.assign(obj, { [MARK]: inner }, rest);
            } else obj[MARK] = inner;
            const text = withMark(body, JSON.stringify(key));
            const where = `${pathText(d.root, place.steps)}.${key}`;
            yield request(ctx, d, `prototype key: ${where} = ${value}`, text, strict(d) ? { code: 'validation_failed', firstPath: where } : {});
          }
        }
      }
    }
  }
  for (const op of ctx.ops) {
    if (op.queryParams.length === 0) continue;
    const first = op.queryParams[0]!;
    const plausible = `${enc(first.name)}=${enc(String(sampleValue(Array.isArray(first.schema['anyOf']) ? ((first.schema['anyOf'] as JsonSchema[])[0] ?? {}) : first.schema)))}`;
    for (const [i, key] of PROTOTYPE_KEYS.entries()) {
      const query = i % 2 === 0 ? `${enc(key)}=1` : `${plausible}&${enc(key)}=x`;
      yield { route: label(op), what: `prototype key: query ${key}`, method: op.method, url: `${pathFor(ctx, op)}?${query}`, headers: session(ctx, op), want: { code: 'validation_failed', firstPath: `query.${key}` } };
    }
  }
}

/** JSON text with `bytes` at the start of the first string value (or of a string added for them). */
function inFirstString(text: string, bytes: Buffer): Buffer {
  const m = /:"/.exec(text);
  if (m) return Buffer.concat([Buffer.from(text.slice(0, m.index + 2)), bytes, Buffer.from(text.slice(m.index + 2))]);
  return Buffer.concat([Buffer.from('{"zz":"'), bytes, Buffer.from(`"${text === '{}' ? '' : ','}${text.slice(1)}`)]);
}

/**
 * 3. Bytes that are not UTF-8: in the body of every route that reads one (at its start, inside a string, at its
 * end), percent-escaped in a path segment and in the query of every route, and in a header of every route.
 */
export function* notUtf8(ctx: HostileContext): Generator<HostileRequest> {
  for (const route of ctx.bodyRoutes) {
    const op = route.op;
    // A binary body (a photo) is bytes, never text: there is no UTF-8 to break.
    if (route.kind === 'binary') continue;
    for (const seq of NOT_UTF8) {
      const cases: { where: string; text: (json: string) => Buffer }[] = [
        { where: 'at the start', text: (json) => Buffer.concat([seq.bytes, Buffer.from(json)]) },
        { where: 'in a string', text: (json) => inFirstString(json, seq.bytes) },
        { where: 'at the end', text: (json) => Buffer.concat([Buffer.from(json), seq.bytes]) },
      ];
      for (const c of cases) {
        const what = `not UTF-8: ${seq.name} ${c.where} of the body`;
        if (route.kind === 'raw') {
          const body = c.text(JSON.stringify(sampleValue(route.schema)));
          // The signature is read only after the body: its bytes are judged first.
          yield { route: label(op), what, method: op.method, url: pathFor(ctx, op), headers: { ...session(ctx, op), 'Content-Type': 'application/json', 'Provider-Signature': `t=1,v1=${'0'.repeat(64)}` }, body, want: { code: 'body_not_utf8' } };
          continue;
        }
        for (const d of documentsOf(route)) {
          const json = JSON.stringify(sampleValue(d.schema));
          yield request(ctx, d, d.route.kind === 'multipart' ? `${what} part ${d.root}` : what, c.text(json), { code: 'body_not_utf8' });
          // A JSON part sent with a Content-Type of its own is read another way: it must be judged the same.
          if (d.route.kind === 'multipart') yield request(ctx, d, `${what} part ${d.root} (Content-Type: application/json)`, c.text(json), { code: 'body_not_utf8' }, 'application/json');
        }
      }
    }
  }
  for (const [n, op] of ctx.ops.entries()) {
    const declared = op.queryParams[0]?.name ?? 'q';
    for (const esc of NOT_UTF8_ESCAPES) {
      const param = op.pathParams[0];
      const url = param ? pathFor(ctx, op, { name: param.name, raw: `x${esc}y` }) : `${op.template}${esc}`;
      yield { route: label(op), what: `not UTF-8: ${esc} in the path`, method: op.method, url, headers: session(ctx, op), want: { code: 'url_not_utf8' } };
      yield { route: label(op), what: `not UTF-8: ${esc} in the query`, method: op.method, url: `${pathFor(ctx, op)}?${enc(declared)}=a${esc}`, headers: session(ctx, op), want: { code: 'url_not_utf8' } };
    }
    // fetch sends a header's characters U+0080..U+00FF as single bytes: these spell the sequences byte for byte.
    const seq = NOT_UTF8[n % NOT_UTF8.length]!;
    yield { route: label(op), what: `not UTF-8: ${seq.name} in a header`, method: op.method, url: pathFor(ctx, op), headers: { ...session(ctx, op), 'X-Hostile': `a${seq.bytes.toString('latin1')}b` }, want: { code: 'header_not_utf8' } };
  }
}

/** JSON text of exactly `size` bytes: `head`, then `"zzNNNNNNN":[0,{}]` junk keys, then a padding string, then `}`. */
function junkKeys(head: string, size: number): string {
  const parts = [head];
  let length = head.length;
  const tail = ',"zzPad":""}';
  for (let i = 0; length + 19 + tail.length <= size; i++) {
    const entry = `,"zz${String(i).padStart(7, '0')}":[0,{}]`;
    parts.push(entry);
    length += entry.length;
  }
  parts.push(`,"zzPad":"${'x'.repeat(size - length - tail.length)}"}`);
  return parts.join('');
}

/** Text of exactly `size` bytes made of `start`, copies of `unit` and `end` (the last unit cut short by padding). */
function fill(start: string, unit: string, end: string, size: number, pad: (n: number) => string): string {
  const room = size - start.length - end.length;
  const count = Math.max(0, Math.floor(room / unit.length) - 1);
  const body = unit.repeat(count);
  return start + body + pad(room - body.length) + end;
}

/** An array item of ten nested arrays, repeated: wide and deep junk that is no item of any schema. */
const NEST = '[[[[[[[[[[0]]]]]]]]]],';

/**
 * 4. Bodies at the size limit: a string padded to fill it, junk keys beside a property of the wrong type, and
 * nested junk arrays under a real array property; 8 MB of junk arrays under the import's members.
 */
export function* atTheLimit(ctx: HostileContext): Generator<HostileRequest> {
  for (const route of ctx.bodyRoutes) {
    const op = route.op;
    if (route.kind === 'binary') {
      // Exactly the documented limit of junk bytes, of a media type the route takes: no picture, but not too large.
      const body = Buffer.alloc(route.limit, 0xa5);
      yield { route: label(op), what: `at the limit: ${route.limit} bytes of junk`, method: op.method, url: pathFor(ctx, op), headers: { ...session(ctx, op), 'Content-Type': route.mediaTypes?.[0] ?? 'application/octet-stream' }, body, want: { notCode: 'payload_too_large' } };
      continue;
    }
    if (route.kind === 'raw') {
      // Exactly the documented limit, with a signature that does not hold.
      const text = fill('{"id":"evt_hostile","zz":[', '0,', '0]}', route.limit, (n) => ' '.repeat(n));
      yield { route: label(op), what: `at the limit: ${route.limit} bytes of junk, unsigned`, method: op.method, url: pathFor(ctx, op), headers: { ...session(ctx, op), 'Content-Type': 'application/json', 'Provider-Signature': `t=1,v1=${'0'.repeat(64)}` }, body: Buffer.from(text), want: { notCode: 'payload_too_large' } };
      continue;
    }
    for (const d of documentsOf(route)) {
      if (route.kind === 'own-limit') {
        const place = arrayPlaces(d.schema).find((p) => p.steps.length === 1) ?? arrayPlaces(d.schema)[0];
        if (!place) continue;
        const [start, end] = withMark(markAt(sampleValue(d.schema, place.steps), place.steps), '\u0001').split('\u0001') as [string, string];
        yield* ladder(
          ctx,
          d,
          Math.min(IMPORT_JUNK_BYTES, d.room),
          (size) => `at the limit: ${pathText(d.root, place.steps)} holding ${size} bytes of junk arrays`,
          (size) => fill(`${start}[`, '[0],', `[0]]${end}`, size, (n) => ' '.repeat(n)),
          {},
        );
        continue;
      }
      // A string with a maxLength, padded until the body is exactly at its limit: the outermost one and the deepest.
      const strings = limitedStrings(d.schema);
      const deepest = strings.reduce<(typeof strings)[number] | undefined>((a, b) => (!a || b.steps.length > a.steps.length ? b : a), undefined);
      for (const place of new Set([strings[0], deepest])) {
        if (!place) continue;
        const [start, end] = withMark(markAt(sampleValue(d.schema, place.steps), place.steps), '\u0001').split('\u0001') as [string, string];
        const text = fill(`${start}"`, 'x', `"${end}`, d.room, (n) => 'x'.repeat(n));
        const want = limitHoldsForAll(place) ? { code: 'value_too_long', notCode: 'payload_too_large' } : { notCode: 'payload_too_large' };
        yield request(ctx, d, `at the limit: ${pathText(d.root, place.steps)} padded to fill ${d.room} bytes`, text, want);
      }
      // Junk keys, and one property of a type it never takes: a refusal, whatever the keys.
      const wrong = wrongTypedProperty(d.schema);
      if (wrong) yield request(ctx, d, `at the limit: ${d.room} bytes of junk keys beside ${d.root}.${wrong.key} = ${wrong.text}`, junkKeys(`{${JSON.stringify(wrong.key)}:${wrong.text}`, d.room), { code: 'validation_failed', notCode: 'payload_too_large' });
      // Under a real array, one item made of nested junk arrays: an array is no item of these schemas.
      const array = arrayPlaces(d.schema).find((p) => {
        const type = (p.schema['items'] as JsonSchema | undefined)?.['type'];
        return typeof type === 'string' && type !== 'array';
      });
      if (array) {
        const [start, end] = withMark(markAt(sampleValue(d.schema, array.steps), array.steps), '\u0001').split('\u0001') as [string, string];
        yield* ladder(
          ctx,
          d,
          d.room,
          (size) => `at the limit: ${pathText(d.root, array.steps)}.0 holding ${size} bytes of nested junk arrays`,
          (size) => fill(`${start}[[`, NEST, `0]]${end}`, size, (n) => ' '.repeat(n)),
          { notCode: 'payload_too_large' },
        );
      }
      // An array of the document without a maxItems, filled with empty objects that are no item of it (an item of
      // another type, or an object with required fields): each one wrong, and nothing to stop at early.
      const refusesEmpty = (items: JsonSchema | undefined) =>
        items !== undefined && typeof items['type'] === 'string' && (items['type'] !== 'object' ? items['type'] !== 'array' : ((items['required'] as string[] | undefined) ?? []).length > 0);
      for (const place of arrayPlaces(d.schema).filter((p) => typeof p.schema['maxItems'] !== 'number' && refusesEmpty(p.schema['items'] as JsonSchema | undefined))) {
        const [start, end] = withMark(markAt(sampleValue(d.schema, place.steps), place.steps), '\u0001').split('\u0001') as [string, string];
        yield* ladder(
          ctx,
          d,
          d.room,
          (size) => `at the limit: ${pathText(d.root, place.steps)} (no maxItems) holding ${size} bytes of empty objects`,
          (size) => fill(`${start}[`, '{},', `{}]${end}`, size, (n) => ' '.repeat(n)),
          { notCode: 'payload_too_large' },
        );
      }
    }
  }
}

/** Every class, by name: each runs as a test of its own. */
export const CLASSES = {
  'arrays 10× and 1,000× past their maxItems': arraysPastMaxItems,
  'prototype keys at every depth': prototypeKeys,
  'bytes that are not UTF-8': notUtf8,
  'bodies at the size limit': atTheLimit,
} as const;
