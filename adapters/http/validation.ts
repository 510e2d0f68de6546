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

/**
 * Request property names match case-insensitively (older clients send PascalCase, extensions.md > Wire
 * casing): rewrite the keys of `value` to the schema's spelling before validating.
 */
export function normalizeKeys(schema: AnySchema, value: unknown): unknown {
  const s = schema as unknown as Wrapped;
  if (s.wrapped) return normalizeKeys(s.wrapped, value);
  if (OBJECT_TYPES.has(s.type) && s.entries && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const byLower = new Map(Object.keys(s.entries).map((k) => [k.toLowerCase(), k]));
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

/** True when a NUL character hides in any string or key of a parsed body. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, x]) => k.includes('\0') || containsNul(x));
  }
  return false;
}

const LENGTH_ISSUES = new Set(['max_length', 'max_graphemes', 'max_bytes', 'max_size']);

/** Parses `value` with `schema`; a failure becomes 400 value_too_long (any over-long value) or validation_failed. */
export function parseWith<T>(schema: v.GenericSchema<unknown, T>, value: unknown, where: 'body' | 'query' | 'path'): T {
  const result = v.safeParse(schema, normalizeKeys(schema as AnySchema, value));
  if (result.success) return result.output;
  const errors = result.issues.map((i) => ({ path: [where, ...(i.path ?? []).map((p) => String(p.key))].join('.'), message: i.message }));
  const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  return result.issues.some((i) => LENGTH_ISSUES.has(i.type)) ? throwProblem(problems.tooLong(summary, errors)) : throwProblem(problems.validation(summary, errors));
}

function throwProblem(p: HttpProblem): never {
  throw p;
}
