import fc from 'fast-check';
import type { JsonSchema } from './operations.js';

/**
 * The places of a request body's JSON schema, and bodies built to reach one of them, for the hostile-input fuzzer
 * (hostile.fuzz.ts): it needs every array with a maxItems, every object a key could be slipped into, and every
 * string with a maxLength, each inside a body that is otherwise of the documented shape, so that the one thing made
 * hostile is the reason for the answer.
 */

/** One step from a schema to a part of it: a property, the items of an array, or one branch of an anyOf. */
export type Step = { readonly prop: string } | { readonly item: true } | { readonly option: number };

export interface Place {
  readonly steps: readonly Step[];
  readonly schema: JsonSchema;
  /** The schema whose anyOf this place is a branch of, when it is one. */
  readonly branchOf?: JsonSchema;
}

/** Far deeper than any request schema of the document; a guard against a schema that refers to itself. */
const MAX_DEPTH = 16;

const propsOf = (s: JsonSchema) => (s['properties'] as Record<string, JsonSchema> | undefined) ?? {};
const requiredOf = (s: JsonSchema) => (s['required'] as string[] | undefined) ?? [];
const isObject = (s: JsonSchema) => s['type'] === 'object' || (s['type'] === undefined && s['properties'] !== undefined);

/** Every place of the schema, outermost first; a branch of an anyOf is a place of its own (the body picks one). */
export function placesOf(schema: JsonSchema, steps: readonly Step[] = [], branchOf?: JsonSchema): Place[] {
  if (steps.length > MAX_DEPTH) return [];
  const out: Place[] = [{ steps, schema, ...(branchOf ? { branchOf } : {}) }];
  const options = schema['anyOf'] as JsonSchema[] | undefined;
  if (Array.isArray(options)) {
    options.forEach((o, i) => out.push(...placesOf(o, [...steps, { option: i }], schema)));
    return out;
  }
  for (const [k, p] of Object.entries(propsOf(schema))) out.push(...placesOf(p, [...steps, { prop: k }]));
  if (schema['items'] && typeof schema['items'] === 'object') out.push(...placesOf(schema['items'] as JsonSchema, [...steps, { item: true }]));
  return out;
}

/**
 * Whether a string longer than the place's maxLength is too long for the whole value: the place is no branch of an
 * anyOf, or every string branch of it has a maxLength. (A uuid or a "library:" key, say, is a union of a format
 * without a maxLength and a pattern with one: a long string there is only not of the shape.)
 */
export const limitHoldsForAll = (place: Place): boolean =>
  !place.branchOf ||
  ((place.branchOf['anyOf'] as JsonSchema[] | undefined) ?? []).every((o) => (o['type'] !== 'string' && o['type'] !== undefined) || typeof o['maxLength'] === 'number');

/** Arrays with a maxItems. */
export const limitedArrays = (schema: JsonSchema) => placesOf(schema).filter((p) => p.schema['type'] === 'array' && typeof p.schema['maxItems'] === 'number');
/** Objects (the top level, nested objects, the items of arrays of objects). */
export const objectPlaces = (schema: JsonSchema) => placesOf(schema).filter((p) => isObject(p.schema));
/** Strings with a maxLength. */
export const limitedStrings = (schema: JsonSchema) => placesOf(schema).filter((p) => p.schema['type'] === 'string' && typeof p.schema['maxLength'] === 'number');
/** Arrays, limited or not. */
export const arrayPlaces = (schema: JsonSchema) => placesOf(schema).filter((p) => p.schema['type'] === 'array');

/** The place as a refusal names it: properties and the index 0 of each array on the way (branches are not named). */
export const pathText = (root: string, steps: readonly Step[]) =>
  [root, ...steps.flatMap((s): string[] => ('prop' in s ? [s.prop] : 'item' in s ? ['0'] : []))].join('.');

/** Where the place lies in a value: the property names and array indexes on the way. */
const locationOf = (steps: readonly Step[]): (string | number)[] => steps.flatMap((s): (string | number)[] => ('prop' in s ? [s.prop] : 'item' in s ? [0] : []));

const SAMPLE_UUID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** A string the string schema takes, plain ASCII without control characters (a NUL would be a fault of its own). */
function sampleString(s: JsonSchema): string {
  if (s['format'] === 'uuid') return SAMPLE_UUID;
  if (s['format'] === 'date-time') return '2030-01-07T17:00:00.000Z';
  if (s['format'] === 'email') return 'kari@example.com';
  if (s['format'] === 'uri' || s['format'] === 'url') return 'https://example.com/feed.ics';
  if (typeof s['pattern'] === 'string') {
    // A fixed seed: the same body every run, so that a failure is reproduced by running the suite again.
    const [match] = fc.sample(fc.stringMatching(new RegExp(s['pattern'] as string), { size: 'xsmall' }).filter((x) => /^[\x20-\x7e]*$/.test(x)), { seed: 42, numRuns: 1 });
    if (match !== undefined) return match;
  }
  const max = (s['maxLength'] as number | undefined) ?? 40;
  const min = (s['minLength'] as number | undefined) ?? 0;
  // YYYY-MM-DD: the day parameters and fields are strings of at most 10 characters.
  if (max === 10) return '2030-01-07';
  return 'Kari'.padEnd(min, 'x').slice(0, Math.max(max, min));
}

function sampleNumber(s: JsonSchema): number {
  const min = (s['minimum'] as number | undefined) ?? (s['exclusiveMinimum'] as number | undefined) ?? 1;
  const max = (s['maximum'] as number | undefined) ?? (s['exclusiveMaximum'] as number | undefined) ?? Math.max(min, 1);
  return Math.min(Math.max(1, Math.ceil(min)), Math.floor(max));
}

/**
 * A value of the schema: its required properties only, arrays empty (or of minItems), each leaf a plain value it
 * takes; but every property, array item and anyOf branch named by `steps` is there, so that the place exists.
 */
export function sampleValue(s: JsonSchema, steps: readonly Step[] = []): unknown {
  const [step, ...rest] = steps;
  const options = s['anyOf'] as JsonSchema[] | undefined;
  if (Array.isArray(options)) {
    if (step && 'option' in step) return sampleValue(options[step.option]!, rest);
    // A branch that says something (an object, a string) before null.
    return sampleValue(options.find((o) => o['type'] !== 'null') ?? options[0]!, steps);
  }
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return (s['enum'] as unknown[])[0];
  if (isObject(s)) {
    const props = propsOf(s);
    const out: Record<string, unknown> = {};
    for (const k of requiredOf(s)) if (props[k]) out[k] = sampleValue(props[k], step && 'prop' in step && step.prop === k ? rest : []);
    if (step && 'prop' in step && !(step.prop in out)) out[step.prop] = sampleValue(props[step.prop]!, rest);
    return out;
  }
  switch (s['type']) {
    case 'array': {
      const items = (s['items'] as JsonSchema | undefined) ?? {};
      if (step && 'item' in step) return [sampleValue(items, rest)];
      return Array.from({ length: (s['minItems'] as number | undefined) ?? 0 }, () => sampleValue(items));
    }
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return sampleNumber(s);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x';
  }
}

/**
 * A placeholder no schema value holds: put where a hostile part goes, it is replaced in the JSON text afterwards, so
 * that the part can be what JSON.stringify would not write (a key "__proto__", a million items, bytes not UTF-8).
 */
export const MARK = 'zzHostileMark7f3a';
export const MARK_TEXT = JSON.stringify(MARK);

/** The value with the place at `steps` replaced by MARK (the place must exist: make the value with sampleValue). */
export function markAt(value: unknown, steps: readonly Step[]): unknown {
  const at = locationOf(steps);
  if (at.length === 0) return MARK;
  let parent = value as Record<string | number, unknown>;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  parent[at[at.length - 1]!] = MARK;
  return value;
}

/** The object at the place (the place must exist and be an object). */
export function objectAt(value: unknown, steps: readonly Step[]): Record<string, unknown> {
  let at = value as Record<string | number, unknown>;
  for (const k of locationOf(steps)) at = at[k] as Record<string | number, unknown>;
  return at as Record<string, unknown>;
}

/** JSON text of the value with MARK_TEXT replaced by `text` (once: each value holds one mark). */
export function withMark(value: unknown, text: string): string {
  const json = JSON.stringify(value);
  const at = json.indexOf(MARK_TEXT);
  if (at < 0) throw new Error('no mark in the value');
  return json.slice(0, at) + text + json.slice(at + MARK_TEXT.length);
}

/** JSON types a value of the schema may have; null when the schema does not say. */
function typesOf(s: JsonSchema): Set<string> | null {
  const options = Array.isArray(s['anyOf']) ? (s['anyOf'] as JsonSchema[]) : [s];
  const out = new Set<string>();
  for (const o of options) {
    if ('const' in o) out.add(o['const'] === null ? 'null' : typeof o['const']);
    else if (Array.isArray(o['enum'])) for (const e of o['enum'] as unknown[]) out.add(e === null ? 'null' : typeof e);
    else if (typeof o['type'] === 'string') out.add(o['type'] === 'integer' ? 'number' : (o['type'] as string));
    else if (Array.isArray(o['anyOf'])) {
      const inner = typesOf(o);
      if (!inner) return null;
      for (const t of inner) out.add(t);
    } else return null;
  }
  return out;
}

/**
 * A top-level property and JSON text of a type it never takes: a fault certain to be refused whatever else a body
 * holds. Null when every property takes anything.
 */
export function wrongTypedProperty(schema: JsonSchema): { key: string; text: string } | null {
  for (const [key, p] of Object.entries(propsOf(schema))) {
    const types = typesOf(p);
    if (!types) continue;
    if (!types.has('string')) return { key, text: '"not of this type"' };
    if (!types.has('boolean')) return { key, text: 'true' };
    if (!types.has('number')) return { key, text: '12345' };
  }
  return null;
}
