import fc from 'fast-check';
import type { JsonSchema } from './operations.js';

/**
 * fast-check arbitraries over the JSON schemas of the OpenAPI document. Values are JSON TEXT, so that a body may
 * hold what JSON.stringify cannot write (1e400, 400-digit numbers, nesting a hundred thousand deep).
 * `invalidFor(schema)` only yields text that no value of the schema accepts; `plausibleFor` yields text near
 * the schema, valid or not, for the parts of a request that are not the one made wrong.
 */

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

const typeOf = (v: unknown): JsonType =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : (typeof v as JsonType);

/** The options of a schema: itself, or the branches of its anyOf. */
const optionsOf = (s: JsonSchema): JsonSchema[] => (Array.isArray(s['anyOf']) ? (s['anyOf'] as JsonSchema[]).flatMap(optionsOf) : [s]);

/** The JSON types some value of the schema may have; null when the schema does not say (anything goes). */
export function acceptedTypes(s: JsonSchema): Set<JsonType> | null {
  const out = new Set<JsonType>();
  for (const o of optionsOf(s)) {
    if ('const' in o) out.add(typeOf(o['const']));
    else if (Array.isArray(o['enum'])) for (const e of o['enum']) out.add(typeOf(e));
    else if (typeof o['type'] === 'string') out.add(o['type'] as JsonType);
    else return null;
  }
  // An integer is a number too.
  if (out.has('number')) out.add('integer');
  return out;
}

/** The one option of the schema that takes values of `type` (enum and const count), or null (none, or several). */
function soleOption(s: JsonSchema, type: JsonType): JsonSchema | null {
  const matching = optionsOf(s).filter((o) => ('const' in o ? typeOf(o['const']) === type : Array.isArray(o['enum']) ? o['enum'].some((e) => typeOf(e) === type) : o['type'] === type || (type === 'integer' && o['type'] === 'number')));
  return matching.length === 1 ? matching[0]! : null;
}

const json = (v: unknown) => JSON.stringify(v);
const shortText = fc.string({ unit: 'grapheme', maxLength: 24 });
/** Numbers JSON.stringify cannot write: they parse to Infinity or lose precision. */
const hugeNumberText = fc.constantFrom('1e400', '-1e400', '1e308', '-1e308', '9007199254740993', '1' + '0'.repeat(400), '-' + '9'.repeat(330));
export const deepArrayText = fc.integer({ min: 2, max: 150_000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
export const deepObjectText = fc.integer({ min: 2, max: 60_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n));
const smallJsonText = fc.jsonValue({ maxDepth: 3 }).map(json);

/** Every spelling a lenient reader might accept: the value itself, trimmed, and in either case. */
const variants = (s: string) => [s, s.trim(), s.toLowerCase(), s.toUpperCase(), s.trim().toLowerCase(), s.trim().toUpperCase()];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Strings the string option `o` certainly refuses, or null when it takes every string. */
export function invalidString(o: JsonSchema): fc.Arbitrary<string> | null {
  const gens: fc.Arbitrary<string>[] = [];
  const anyString = fc.oneof(shortText, fc.string({ unit: 'binary', maxLength: 40 }));
  if ('const' in o || Array.isArray(o['enum'])) {
    const allowed = new Set(('const' in o ? [o['const']] : (o['enum'] as unknown[])).map((x) => String(x).toLowerCase()));
    gens.push(anyString.filter((s) => !variants(s).some((x) => allowed.has(x.toLowerCase()))));
  }
  if (o['format'] === 'uuid') gens.push(anyString.filter((s) => !variants(s).some((x) => UUID.test(x))), fc.uuid().map((u) => `${u}0`), fc.uuid().map((u) => u.replace(/-/g, '')), fc.integer({ min: 37, max: 20_000 }).map((n) => 'f'.repeat(n)));
  if (o['format'] === 'date-time') gens.push(anyString.filter((s) => !/\d{4}-\d\d-\d\dT/.test(s)));
  if (typeof o['pattern'] === 'string') {
    const re = new RegExp(o['pattern'] as string);
    gens.push(anyString.filter((s) => !variants(s).some((x) => re.test(x))));
  }
  if (typeof o['maxLength'] === 'number') {
    const max = o['maxLength'] as number;
    gens.push(fc.string({ unit: 'grapheme', minLength: max + 1, maxLength: max + 40 }).filter((s) => s.trim().length > max), fc.constant('x'.repeat(max + 1 + 100_000)));
  }
  if (typeof o['minLength'] === 'number' && (o['minLength'] as number) > 0) gens.push(fc.constant(''));
  return gens.length ? fc.oneof(...gens) : null;
}

/** Number text the number option `o` certainly refuses (out of its range, or a fraction for an integer). */
function invalidNumber(o: JsonSchema): fc.Arbitrary<string> | null {
  const gens: fc.Arbitrary<string>[] = [];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = o as Record<string, number | undefined>;
  if (maximum !== undefined) gens.push(fc.integer({ min: 1, max: 1_000_000 }).map((k) => String(Math.floor(maximum) + k)), fc.constantFrom('1e400', '1' + '0'.repeat(400)));
  if (exclusiveMaximum !== undefined) gens.push(fc.constant(String(exclusiveMaximum)));
  if (minimum !== undefined) gens.push(fc.integer({ min: 1, max: 1_000_000 }).map((k) => String(Math.ceil(minimum) - k)), fc.constant('-1e400'));
  if (exclusiveMinimum !== undefined) gens.push(fc.constant(String(exclusiveMinimum)), fc.integer({ min: 1, max: 1000 }).map((k) => String(exclusiveMinimum - k)));
  if (o['type'] === 'integer') gens.push(fc.constantFrom('1.5', '0.1', '-2.25', '1e-7'));
  return gens.length ? fc.oneof(...gens) : null;
}

/** Values of the JSON types the schema does not take at all. */
function wrongType(accepted: Set<JsonType>): fc.Arbitrary<string> | null {
  const gens: fc.Arbitrary<string>[] = [];
  if (!accepted.has('string')) gens.push(shortText.map(json), fc.constantFrom('"42"', '"true"', '""', '"null"', '"[]"'));
  if (!accepted.has('integer')) gens.push(fc.integer().map(String), hugeNumberText, fc.constantFrom('0', '-1', '-0'));
  if (!accepted.has('number')) gens.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)).map(json));
  if (!accepted.has('boolean')) gens.push(fc.boolean().map(json));
  if (!accepted.has('null')) gens.push(fc.constant('null'));
  if (!accepted.has('array')) gens.push(fc.array(smallJsonText, { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`), deepArrayText);
  if (!accepted.has('object')) gens.push(fc.dictionary(fc.string({ maxLength: 8 }), smallJsonText, { maxKeys: 4 }).map((d) => `{${Object.entries(d).map(([k, v]) => `${json(k)}:${v}`).join(',')}}`), deepObjectText);
  return gens.length ? fc.oneof(...gens) : null;
}

/** JSON text near the schema: the right types, plausible lengths; not necessarily valid. */
export function plausibleFor(s: JsonSchema, depth = 0): fc.Arbitrary<string> {
  const options = optionsOf(s);
  if (options.length > 1) return fc.oneof(...options.map((o) => plausibleFor(o, depth)));
  if ('const' in s) return fc.constant(json(s['const']));
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]).map(json));
  switch (s['type']) {
    case 'string':
      if (s['format'] === 'uuid') return fc.uuid().map(json);
      if (typeof s['pattern'] === 'string') return fc.stringMatching(new RegExp(s['pattern'] as string)).map(json);
      if (s['format'] === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(2000, 0, 1), max: new Date(2100, 0, 1) }).map((d) => json(d.toISOString()));
      return fc.string({ unit: 'grapheme', minLength: Math.min((s['minLength'] as number) ?? 0, 8), maxLength: Math.min((s['maxLength'] as number) ?? 16, 16) }).map(json);
    case 'integer':
      return fc.integer({ min: (s['minimum'] as number) ?? -1000, max: (s['maximum'] as number) ?? 1000 }).map(String);
    case 'number':
      return fc.double({ min: (s['minimum'] as number) ?? -1000, max: (s['maximum'] as number) ?? 1000, noNaN: true }).map(json);
    case 'boolean':
      return fc.boolean().map(json);
    case 'null':
      return fc.constant('null');
    case 'array':
      if (depth > 3 || !s['items']) return fc.constant('[]');
      return fc
        .array(plausibleFor(s['items'] as JsonSchema, depth + 1), { minLength: Math.min((s['minItems'] as number) ?? 0, 2), maxLength: Math.min((s['maxItems'] as number) ?? 2, 2) })
        .map((xs) => `[${xs.join(',')}]`);
    case 'object':
      return depth > 3 ? fc.constant('{}') : objectText(s, depth, null);
    default:
      return smallJsonText;
  }
}

/**
 * An object of the schema's properties (required ones always, the others at times), with `replace` standing in
 * for one property: its text, or undefined to leave the property out.
 */
function objectText(s: JsonSchema, depth: number, replace: { key: string; text: fc.Arbitrary<string | undefined> } | null): fc.Arbitrary<string> {
  const props = (s['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  const entries = Object.entries(props).map(([k, p]) => {
    if (replace?.key === k) return replace.text.map((t) => [k, t] as const);
    const value = plausibleFor(p, depth + 1);
    return (required.has(k) ? value : fc.option(value, { nil: undefined })).map((t) => [k, t] as const);
  });
  return fc.tuple(...entries).map((kv) => `{${kv.filter(([, t]) => t !== undefined).map(([k, t]) => `${json(k)}:${t}`).join(',')}}`);
}

/** JSON text that the schema certainly refuses: a wrong type, a value out of range, or an object made wrong within. */
export function invalidFor(s: JsonSchema, depth = 0): fc.Arbitrary<string> | null {
  const accepted = acceptedTypes(s);
  if (accepted === null) return null;
  const gens: fc.Arbitrary<string>[] = [];
  const wrong = wrongType(accepted);
  if (wrong) gens.push(wrong);
  const str = soleOption(s, 'string');
  const strGen = str && invalidString(str);
  if (strGen) gens.push(strGen.map(json));
  const num = soleOption(s, 'integer');
  const numGen = num && invalidNumber(num);
  if (numGen) gens.push(numGen);
  const arr = soleOption(s, 'array');
  if (arr && depth < 4) {
    const items = (arr['items'] as JsonSchema | undefined) ?? {};
    const max = arr['maxItems'] as number | undefined;
    if (max !== undefined) gens.push(fc.array(plausibleFor(items, depth + 1), { minLength: max + 1, maxLength: max + 3 }).map((xs) => `[${xs.join(',')}]`));
    if (((arr['minItems'] as number | undefined) ?? 0) > 0) gens.push(fc.constant('[]'));
    const bad = invalidFor(items, depth + 1);
    if (bad) gens.push(fc.tuple(fc.array(plausibleFor(items, depth + 1), { maxLength: 2 }), bad).map(([xs, b]) => `[${[...xs, b].join(',')}]`));
  }
  const obj = soleOption(s, 'object');
  const objGen = obj && depth < 4 ? invalidObject(obj, depth) : null;
  if (objGen) gens.push(objGen);
  return gens.length ? fc.oneof(...gens) : null;
}

/** An object the object schema certainly refuses: one property made invalid, or a required one left out. */
export function invalidObject(s: JsonSchema, depth = 0): fc.Arbitrary<string> | null {
  const props = (s['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const gens: fc.Arbitrary<string>[] = [];
  for (const [k, p] of Object.entries(props)) {
    const bad = invalidFor(p, depth + 1);
    if (bad) gens.push(objectText(s, depth, { key: k, text: bad }));
  }
  for (const k of (s['required'] as string[] | undefined) ?? []) gens.push(objectText(s, depth, { key: k, text: fc.constant(undefined) }));
  if (s['additionalProperties'] === false) gens.push(objectText(s, depth, null).map((t) => (t === '{}' ? '{"zzExtra":1}' : `{"zzExtra":1,${t.slice(1)}`)));
  return gens.length ? fc.oneof(...gens) : null;
}
