import * as v from 'valibot';
import { HttpProblem, problems } from './problem.js';

type AnySchema = v.GenericSchema<unknown, unknown>;

interface Wrapped {
  type: string;
  wrapped?: AnySchema;
  entries?: Record<string, AnySchema>;
  item?: AnySchema;
  options?: AnySchema[];
}

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

// An object schema's entry names by their lower case, made once per schema (schemas live as long as the routes).
const lowerKeys = new WeakMap<Record<string, AnySchema>, Map<string, string>>();
function lowerKeysOf(entries: Record<string, AnySchema>): Map<string, string> {
  let byLower = lowerKeys.get(entries);
  if (!byLower) {
    byLower = new Map(Object.keys(entries).map((k) => [k.toLowerCase(), k]));
    lowerKeys.set(entries, byLower);
  }
  return byLower;
}

/**
 * Request property names match case-insensitively (older clients send PascalCase, extensions.md > Wire
 * casing): rewrite the keys of `value` to the schema's spelling before validating.
 */
export function normalizeKeys(schema: AnySchema, value: unknown): unknown {
  const s = schema as unknown as Wrapped;
  if (s.wrapped) return normalizeKeys(s.wrapped, value);
  if (OBJECT_TYPES.has(s.type) && s.entries && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const byLower = lowerKeysOf(s.entries);
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(value)) {
      const key = k in s.entries ? k : (byLower.get(k.toLowerCase()) ?? k);
      const entry = s.entries[key];
      out[key] = entry ? normalizeKeys(entry, val) : val;
    }
    return out;
  }
  if (s.type === 'array' && s.item && Array.isArray(value)) return value.map((x) => normalizeKeys(s.item!, x));
  return value;
}

/**
 * True when a NUL character hides in any string or key of a parsed body. Walks with its own stack, not by
 * recursion: a 1 MiB body may nest hundreds of thousands of levels deep, past the call stack's reach.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const x = pending.pop();
    if (typeof x === 'string') {
      if (x.includes('\0')) return true;
    } else if (Array.isArray(x)) {
      // One by one: spreading a long array into push() would overflow the argument limit.
      for (const y of x) pending.push(y);
    } else if (x !== null && typeof x === 'object') {
      for (const [k, y] of Object.entries(x)) {
        if (k.includes('\0')) return true;
        pending.push(y);
      }
    }
  }
  return false;
}

/**
 * Where an array stands for an object of the schema (valibot's object schemas take arrays as objects, so `[]`
 * would pass as an object of optional fields), as a dotted path; null when nowhere. Unions are not looked into.
 */
function arrayForObject(schema: AnySchema, value: unknown, path: string[]): string | null {
  const s = schema as unknown as Wrapped;
  if (s.wrapped) return arrayForObject(s.wrapped, value, path);
  if (OBJECT_TYPES.has(s.type) && s.entries && value !== null && typeof value === 'object') {
    if (Array.isArray(value)) return path.join('.');
    for (const [k, entry] of Object.entries(s.entries)) {
      const at = arrayForObject(entry, (value as Record<string, unknown>)[k], [...path, k]);
      if (at) return at;
    }
  }
  if (s.type === 'array' && s.item && Array.isArray(value)) {
    for (const [i, x] of value.entries()) {
      const at = arrayForObject(s.item, x, [...path, String(i)]);
      if (at) return at;
    }
  }
  return null;
}

const LENGTH_ISSUES = new Set(['max_length', 'max_graphemes', 'max_bytes', 'max_size']);

/** Parses `value` with `schema`; a failure becomes 400 value_too_long (any over-long value) or validation_failed. */
export function parseWith<T>(schema: v.GenericSchema<unknown, T>, value: unknown, where: 'body' | 'query' | 'path'): T {
  // Path parameters are named by the route itself, in the schema's spelling, and are strings, never arrays.
  const normalized = where === 'path' ? value : normalizeKeys(schema as AnySchema, value);
  const result = v.safeParse(schema, normalized);
  if (result.success) {
    const at = where === 'path' ? null : arrayForObject(schema as AnySchema, normalized, [where]);
    if (at) throw problems.validation(`${at}: Invalid type: Expected Object but received Array`, [{ path: at, message: 'Invalid type: Expected Object but received Array' }]);
    return result.output;
  }
  const errors = result.issues.map((i) => ({ path: [where, ...(i.path ?? []).map((p) => String(p.key))].join('.'), message: i.message }));
  const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  return result.issues.some((i) => LENGTH_ISSUES.has(i.type)) ? throwProblem(problems.tooLong(summary, errors)) : throwProblem(problems.validation(summary, errors));
}

function throwProblem(p: HttpProblem): never {
  throw p;
}
