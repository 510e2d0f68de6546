import * as v from 'valibot';
import { HttpProblem, problems } from './problem.js';

type AnySchema = v.GenericSchema<unknown, unknown>;

/** What this module reads of a valibot schema: its kind, what it wraps or holds, and its pipe. */
export interface SchemaNode {
  type: string;
  wrapped?: AnySchema;
  entries?: Record<string, AnySchema>;
  item?: AnySchema;
  /** A record's schema of its values. */
  value?: AnySchema;
  options?: AnySchema[];
  pipe?: readonly { type: string; kind: string; requirement?: unknown; message?: unknown }[];
}

/** One thing wrong with a request, as a refusal lists it. */
export interface RequestIssue {
  readonly path: string;
  readonly message: string;
  /** About a length: the refusal is value_too_long. */
  readonly tooLong?: boolean;
}

/**
 * How much one refusal says: at most this many problems in `errors`, each path and message cut to
 * ISSUE_TEXT_MAX characters (a message may quote the value it refuses), and a `detail` that names the first few.
 * So a refusal stays a few kilobytes whatever the body held (docs/security.md, Bounded work).
 */
export const MAX_PROBLEMS = 20;
export const ISSUE_TEXT_MAX = 200;
const DETAIL_ISSUES = 3;

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/**
 * Keys that name or reach an object's prototype. A body that holds one anywhere, in any letter case (property
 * names match case-insensitively), is refused: no code should ever have to wonder whether a field it reads came
 * from the body or from Object.prototype.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// screenKey looks only at keys of these lengths (9, 11, 9).


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

/** The most items (of an array) or characters (of a string) a schema takes, and its own words for it. */
export interface Limit {
  readonly max: number;
  readonly message: string | null;
}

// Read once from a schema's pipe.
const limits = new WeakMap<object, Limit | null>();
function limitOf(schema: SchemaNode): Limit | null {
  let limit = limits.get(schema);
  if (limit === undefined) {
    limit = null;
    for (const action of schema.pipe ?? []) {
      if ((action.type !== 'max_length' && action.type !== 'max_entries') || typeof action.requirement !== 'number') continue;
      if (limit === null || action.requirement < limit.max) limit = { max: action.requirement, message: typeof action.message === 'string' ? action.message : null };
    }
    limits.set(schema, limit);
  }
  return limit;
}

/**
 * The limit a union holds a value of this kind to: the largest of its options of that kind (strings, or arrays),
 * when every one of them is limited; null when one is not, or none is of that kind (valibot refuses the kind).
 */
function unionLimit(schema: SchemaNode, kind: 'string' | 'array'): Limit | null {
  let widest: Limit | null = null;
  for (const option of schema.options ?? []) {
    const o = unwrapSchema(option);
    if (o.type !== kind) continue;
    const limit = limitOf(o);
    if (limit === null) return null;
    if (widest === null || limit.max > widest.max) widest = limit;
  }
  return widest;
}

/** The schema inside optional(), nullable() and nullish(). */
export function unwrapSchema(schema: AnySchema | SchemaNode): SchemaNode {
  let s = schema as unknown as SchemaNode;
  while (s.wrapped) s = s.wrapped as unknown as SchemaNode;
  return s;
}

/**
 * The limit of a string, an array or a record (its entries), or of a union for a value of `kind` (a string when not
 * said); null when it has none.
 */
export function limitOfSchema(s: SchemaNode, kind: 'string' | 'array' = 'string'): Limit | null {
  return s.type === 'union' ? unionLimit(s, kind) : s.type === 'string' || s.type === 'array' || s.type === 'record' ? limitOf(s) : null;
}

/** Whether `s` is one of valibot's object schemas (of named entries). */
export const isObjectSchema = (s: SchemaNode): boolean => OBJECT_TYPES.has(s.type) && s.entries !== undefined;

/** Whether `s` is an object schema of named entries, whose other keys are dropped when it is validated. */
export const dropsOtherKeys = (s: SchemaNode | null): boolean => s !== null && s.type === 'object' && s.entries !== undefined;

/** A key as the object schema spells it (property names match case-insensitively); as sent when it has no such entry. */
export function sameSpellingAs(s: SchemaNode | null, key: string): string {
  if (!s?.entries || !OBJECT_TYPES.has(s.type) || Object.hasOwn(s.entries, key)) return key;
  return lowerKeysOf(s.entries).get(key.toLowerCase()) ?? key;
}

/** The schema of a value inside `s`: an object's entry (by its spelling), an array's item, a record's value. */
export function childSchema(s: SchemaNode | null, key: string | null): SchemaNode | null {
  if (!s) return null;
  if (key !== null && s.entries && OBJECT_TYPES.has(s.type)) return Object.hasOwn(s.entries, key) ? unwrapSchema(s.entries[key]!) : null;
  if (s.type === 'array' && s.item) return unwrapSchema(s.item);
  if (s.type === 'record' && s.value) return unwrapSchema(s.value);
  return null;
}

/** Refuses a key that holds a NUL or reaches a prototype; `path` names it (made only when it is refused). */
export function screenKey(key: string, path: () => string): void {
  if (key.includes('\0')) throw problems.nul();
  // Only keys of their lengths are lower-cased to be looked up: most keys are not, and a body may hold many.
  if ((key.length === 9 || key.length === 11) && PROTOTYPE_KEYS.has(key.toLowerCase())) {
    throw refusal([{ path: path(), message: `"${key}" is not allowed as a property name` }]);
  }
}

const pathText = (path: readonly (string | number)[]): string => path.join('.');

/**
 * Walks a parsed request value (a JSON body, a form's fields, a query) once, with its own stack rather than by
 * recursion (bodies are held to 64 levels of nesting before they are parsed, but the walk does not lean on it), and refuses
 * a NUL character in any string or key, and a prototype key (PROTOTYPE_KEYS) at any depth, naming its path.
 */
export function screenRequestValue(value: unknown, where: 'body' | 'query'): void {
  // Each pending value keeps its parent link, so a path is made only for the one key refused.
  interface Pending {
    readonly value: unknown;
    readonly key: string | number;
    readonly parent: Pending | null;
  }
  const pathOf = (p: Pending, key: string) => {
    const keys: (string | number)[] = [key];
    for (let at: Pending | null = p; at && at.parent; at = at.parent) keys.unshift(at.key);
    return pathText([where, ...keys]);
  };
  const stack: Pending[] = [{ value, key: where, parent: null }];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const x = p.value;
    if (typeof x === 'string') {
      if (x.includes('\0')) throw problems.nul();
    } else if (Array.isArray(x)) {
      // One by one: spreading a long array into push() would overflow the argument limit.
      for (let i = 0; i < x.length; i++) {
        const y: unknown = x[i];
        if (y !== null && typeof y === 'object') stack.push({ value: y, key: i, parent: p });
        else if (typeof y === 'string' && y.includes('\0')) throw problems.nul();
      }
    } else if (x !== null && typeof x === 'object') {
      for (const k of Object.keys(x)) {
        screenKey(k, () => pathOf(p, k));
        const y: unknown = (x as Record<string, unknown>)[k];
        if (y !== null && typeof y === 'object') stack.push({ value: y, key: k, parent: p });
        else if (typeof y === 'string' && y.includes('\0')) throw problems.nul();
      }
    }
  }
}

/**
 * Makes a screened request value ready for its schema, and checks its limits before any item is validated:
 * - property names match case-insensitively (older clients send PascalCase): keys are rewritten to the schema's
 *   spelling, into objects without a prototype;
 * - an array longer than its schema's maxLength, or a string longer than its maxLength, is a problem at once, and
 *   its items are not looked at (valibot checks a pipe's length only after every item of the array);
 * - an array where the schema wants an object is a problem (valibot's object schemas take arrays as objects, so
 *   `[]` would pass as an object of optional fields).
 * Collects at most MAX_PROBLEMS + 1 issues (one more tells that there were more). Unions are not looked into but
 * for the limit of their strings and arrays. Recursion follows the schema, whose depth is the code's, never the body's.
 */
function prepare(schema: AnySchema, value: unknown, path: (string | number)[], issues: RequestIssue[]): unknown {
  if (issues.length > MAX_PROBLEMS) return value;
  const s = unwrapSchema(schema);
  if (value === null || value === undefined) return value;
  if (OBJECT_TYPES.has(s.type) && s.entries && typeof value === 'object') {
    if (Array.isArray(value)) {
      issues.push({ path: pathText(path), message: 'Invalid type: Expected Object but received Array' });
      return value;
    }
    const out = Object.create(null) as Record<string, unknown>;
    // valibot's plain object keeps only its entries: the other keys are not copied for it to drop.
    const dropsOthers = dropsOtherKeys(s);
    for (const k of Object.keys(value)) {
      const key = sameSpellingAs(s, k);
      const val = (value as Record<string, unknown>)[k];
      const entry = Object.hasOwn(s.entries, key) ? s.entries[key] : undefined;
      if (!entry && dropsOthers) continue;
      out[key] = entry ? prepare(entry, val, [...path, key], issues) : val;
    }
    return out;
  }
  if (s.type === 'record' && typeof value === 'object' && !Array.isArray(value)) {
    const limit = limitOf(s);
    if (limit !== null && Object.keys(value).length > limit.max) issues.push({ path: pathText(path), message: limit.message ?? `at most ${limit.max} entries`, tooLong: true });
    return value;
  }
  if ((s.type === 'array' || s.type === 'union') && Array.isArray(value)) {
    const limit = limitOfSchema(s, 'array');
    if (limit !== null && value.length > limit.max) {
      issues.push({ path: pathText(path), message: limit.message ?? `at most ${limit.max} items`, tooLong: true });
      return value;
    }
    if (s.type !== 'array' || !s.item) return value;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = prepare(s.item, value[i], [...path, i], issues);
    return out;
  }
  if (typeof value === 'string') {
    const limit = s.type === 'array' ? null : limitOfSchema(s);
    if (limit !== null && value.length > limit.max) issues.push({ path: pathText(path), message: limit.message ?? `at most ${limit.max} characters`, tooLong: true });
  }
  return value;
}

const LENGTH_ISSUES = new Set(['max_length', 'max_graphemes', 'max_bytes', 'max_size']);
const cut = (text: string) => (text.length > ISSUE_TEXT_MAX ? `${text.slice(0, ISSUE_TEXT_MAX - 1)}…` : text);

/**
 * The refusal of a request with these issues: value_too_long when any is about a length, else validation_failed;
 * at most MAX_PROBLEMS of them listed (the first found), each cut short, `detail` naming the first few.
 */
export function refusal(issues: readonly RequestIssue[]): HttpProblem {
  const tooLong = issues.some((i) => i.tooLong);
  const errors = issues.slice(0, MAX_PROBLEMS).map((i) => ({ path: cut(i.path), message: cut(i.message) }));
  const more = issues.length > MAX_PROBLEMS ? ' (and more)' : issues.length > DETAIL_ISSUES ? ` (and ${issues.length - DETAIL_ISSUES} more)` : '';
  const detail = `${errors.slice(0, DETAIL_ISSUES).map((e) => `${e.path}: ${e.message}`).join('; ')}${more}`;
  return tooLong ? problems.tooLong(detail, errors) : problems.validation(detail, errors);
}

/**
 * Parses `value` with `schema`; a failure becomes 400 value_too_long (any over-long value) or validation_failed.
 * Bodies and queries are screened (NUL, prototype keys) and their limits checked before valibot sees them.
 */
export function parseWith<T>(schema: v.GenericSchema<unknown, T>, value: unknown, where: 'body' | 'query' | 'path'): T {
  let prepared = value;
  if (where !== 'path') {
    // Path parameters are named by the route itself, in the schema's spelling, and are strings, never arrays.
    screenRequestValue(value, where);
    const issues: RequestIssue[] = [];
    prepared = prepare(schema as AnySchema, value, [where], issues);
    if (issues.length > 0) throw refusal(issues);
  }
  const result = v.safeParse(schema, prepared);
  if (result.success) return result.output;
  // Only the issues a refusal lists are turned into text (plus one, which tells that there were more).
  const issues = result.issues.slice(0, MAX_PROBLEMS + 1).map((i) => ({
    path: pathText([where, ...(i.path ?? []).map((p) => String(p.key))]),
    message: i.message,
    tooLong: LENGTH_ISSUES.has(i.type),
  }));
  throw refusal(issues);
}

/**
 * Validates a large value (a streamed body whose limits, keys and spelling were kept as it was read) in steps,
 * with the same schema and the same answers as parseWith: objects are walked entry by entry and arrays item by
 * item, each item validated on its own, and a turn of the event loop is taken whenever a slice of time is used
 * up, so that other requests are answered meanwhile. Stops at the first MAX_PROBLEMS + 1 problems. An object or
 * array whose schema has more in its pipe than a length limit (already kept) is validated whole.
 */
export async function validateInSteps<T>(schema: v.GenericSchema<unknown, T>, value: unknown, where: 'body', done?: WeakMap<object, unknown>): Promise<T> {
  const issues: RequestIssue[] = [];
  let sliceStart = performance.now();
  const step = async () => {
    if (performance.now() - sliceStart < STEP_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  const whole = (s: AnySchema, x: unknown, path: (string | number)[]): unknown => {
    const result = validateItem(s, x, path);
    if (result.ok) return result.output;
    issues.push(...result.issues.slice(0, MAX_PROBLEMS + 1 - issues.length));
    return undefined;
  };
  const walk = async (s: AnySchema, x: unknown, path: (string | number)[]): Promise<unknown> => {
    const kind = stepKind(s);
    if (kind === 'object' && x !== null && typeof x === 'object' && !Array.isArray(x)) {
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries((s as unknown as SchemaNode).entries!)) {
        if (issues.length > MAX_PROBLEMS) break;
        const given = Object.hasOwn(x, key);
        const parsed = await walk(entry, given ? (x as Record<string, unknown>)[key] : undefined, [...path, key]);
        if (given || parsed !== undefined) out[key] = parsed;
      }
      return out;
    }
    if (kind === 'array' && Array.isArray(x)) {
      const item = (s as unknown as SchemaNode).item!;
      const out = new Array<unknown>(x.length);
      for (let i = 0; i < x.length && issues.length <= MAX_PROBLEMS; i++) {
        const y: unknown = x[i];
        // An item the streamed reader validated as it was read is not validated again.
        out[i] = y !== null && typeof y === 'object' && done?.has(y) ? done.get(y) : whole(item, y, [...path, i]);
        await step();
      }
      return out;
    }
    return whole(s, x, path);
  };
  const output = await walk(schema as AnySchema, value, [where]);
  if (issues.length > 0) throw refusal(issues);
  return output as T;
}

/**
 * How validateInSteps takes a value of this schema: an object entry by entry, an array item by item (each item
 * whole), or whole. Only objects and arrays with nothing in their pipe but a length limit (which was kept before)
 * are taken apart; anything wrapped (optional, nullable) is taken whole.
 */
export function stepKind(schema: AnySchema | SchemaNode | undefined): 'object' | 'array' | 'whole' {
  const node = schema as unknown as SchemaNode | undefined;
  if (!node) return 'whole';
  const pipeless = (node.pipe ?? []).every((a) => a.kind === 'schema' || a.type === 'max_length' || a.type === 'max_entries');
  if (!pipeless) return 'whole';
  if (node.type === 'object' && node.entries) return 'object';
  if (node.type === 'array' && node.item) return 'array';
  return 'whole';
}

/** Validates one value on its own: its output, or its problems (at most MAX_PROBLEMS + 1) with paths under `path`. */
export function validateItem(schema: AnySchema | SchemaNode, value: unknown, path: readonly (string | number)[]): { ok: true; output: unknown } | { ok: false; issues: RequestIssue[] } {
  const result = v.safeParse(schema as AnySchema, value);
  if (result.success) return { ok: true, output: result.output };
  return {
    ok: false,
    issues: result.issues.slice(0, MAX_PROBLEMS + 1).map((i) => ({
      path: pathText([...path, ...(i.path ?? []).map((p) => String(p.key))]),
      message: i.message,
      tooLong: LENGTH_ISSUES.has(i.type),
    })),
  };
}

const STEP_SLICE_MS = 10;
