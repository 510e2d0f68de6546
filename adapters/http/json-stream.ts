import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { Tokenizer, TokenType } from '@streamparser/json';
import type * as v from 'valibot';
import { HttpProblem, problems } from './problem.js';
import { hasBody, MAX_NESTING, mib } from './raw-body.js';
import { childSchema, dropsOtherKeys, isObjectSchema, limitOfSchema, refusal, sameSpellingAs, screenKey, stepKind, unwrapSchema, validateItem, type SchemaNode } from './validation.js';

/**
 * A large JSON body (the household import: tens of megabytes) read in bounded steps as it arrives, never held
 * whole as text and never handed to JSON.parse in one piece (which blocks the event loop for a long while on tens
 * of megabytes: docs/performance.md, figures from code comments). @streamparser/json's tokenizer turns each chunk
 * into tokens; the value is built here from them, so that the request rules apply while it is read:
 * - every array is held to its schema's maxLength as its items arrive, and every string to its own: the first
 *   item past a limit ends the read with 400 value_too_long, whatever follows;
 * - nothing nests deeper than MAX_DEPTH;
 * - a key that reaches a prototype (`__proto__`, `constructor`, `prototype`) or holds a NUL is refused when it is
 *   read, before any value is put under it; keys are written in the schema's spelling into objects without a
 *   prototype;
 * - each item of an array that validateInSteps would take item by item (the household's recipes, plans, pantry
 *   log...) is validated as soon as it is read, and the first that does not fit ends the read with its problems:
 *   a file of junk items costs the reading of one;
 * - values under keys the schema does not have are read for their form only and kept nowhere, and at most
 *   MAX_DISCARDED_TOKENS of them are read;
 * - the bytes must be UTF-8 (a fatal decoder checks them as they come: 400 body_not_utf8);
 * - more than `maxBytes` answers 413 (a larger Content-Length before a byte is read).
 * A chunk that takes longer than a slice of time to work through is followed by a turn of the event loop, so other
 * requests are answered meanwhile. The answer is the value (undefined for an empty body), not yet validated, and a
 * digest of the bytes (for the Idempotency-Key's fingerprint).
 */
export async function readJsonStream(ctx: Koa.Context, schema: v.GenericSchema, maxBytes: number): Promise<StreamedJson> {
  const digest = createHash('sha256');
  if (!hasBody(ctx)) return { value: undefined, digest: digest.digest('hex'), validated: new WeakMap() };
  const limit = mib(maxBytes);
  if (Number(ctx.req.headers['content-length'] || 0) > maxBytes) throw problems.tooLarge(limit);
  const builder = new ValueBuilder(schema as unknown as SchemaNode);
  const tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  tokenizer.onToken = (t) => builder.take(t.token, t.value);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let sliceStart = performance.now();
  // Text that is no JSON is only known to be no UTF-8 either once all of it is read (bytes cut at a chunk's end
  // may be completed by the next): after a syntax error the rest is still read and decoded, not tokenized, so
  // that a body that is neither answers body_not_utf8, as a JSON body of the other routes does.
  let notJson = false;
  try {
    for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw problems.tooLarge(limit);
      digest.update(chunk);
      decodeOrRefuse(utf8, chunk);
      if (!notJson) notJson = !tokenized(() => tokenizer.write(chunk));
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    decodeOrRefuse(utf8, undefined);
    if (!notJson && size > 0) notJson = !tokenized(() => tokenizer.end());
    if (notJson) throw problems.validation(NOT_JSON);
  } catch (err) {
    // The rest of the body is not wanted: it drains (the loop above leaves the request open for that), so the
    // client reads the answer on this connection and may send its next one.
    ctx.req.resume();
    throw err;
  }
  return { value: builder.result(), digest: digest.digest('hex'), validated: builder.validated };
}

export interface StreamedJson {
  /** The value read (undefined for an empty body), its limits kept but not yet validated as a whole. */
  readonly value: unknown;
  /** SHA-256 of the bytes, for the Idempotency-Key's fingerprint. */
  readonly digest: string;
  /** The items validated as they were read, by the object read: validateInSteps takes their outputs. */
  readonly validated: WeakMap<object, unknown>;
}

/** How long one step may hold the event loop before the next waits for a turn of it. */
const SLICE_MS = 10;
/** Deeper than any document this service reads (the household document nests 7 levels), as for every JSON body. */
const MAX_DEPTH = MAX_NESTING;
/** How many tokens under keys the schema does not have are read (and dropped) before the body is refused. */
export const MAX_DISCARDED_TOKENS = 100_000;

const NOT_JSON = 'the body is not valid JSON';

function decodeOrRefuse(utf8: TextDecoder, chunk: Buffer | undefined): void {
  try {
    if (chunk) utf8.decode(chunk, { stream: true });
    else utf8.decode();
  } catch {
    throw problems.notUtf8('body');
  }
}

/** Text that is not JSON, found by the tokenizer or the builder; the refusals of the request rules are problems. */
class NotJson extends Error {}

/** Runs a step of the tokenizer: false when the text is no JSON; a refusal of the rules is thrown as it is. */
function tokenized(step: () => void): boolean {
  try {
    step();
    return true;
  } catch (err) {
    if (err instanceof HttpProblem) throw err;
    return false;
  }
}

/** The schema of an array's items, as declared (optional or nullable kept). */
const declaredItem = (s: SchemaNode | null): SchemaNode | null => (s?.type === 'array' && s.item ? (s.item as unknown as SchemaNode) : null);
/** The schema of an object's entry, as declared. */
const declaredEntry = (s: SchemaNode | null, key: string): SchemaNode | null =>
  s?.entries && Object.hasOwn(s.entries, key) ? (s.entries[key] as unknown as SchemaNode) : null;

/** Where the builder stands in one open object or array, and what it may read next. */
interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  readonly isArray: boolean;
  readonly schema: SchemaNode | null;
  /** Its key in the frame around it, for the paths of refusals. */
  readonly at: string | number;
  readonly parent: Frame | null;
  /** The key whose value comes next (objects). */
  key: string;
  /** Keys read so far (objects), for a record's limit of entries. */
  entries: number;
  /**
   * Read for its form only and kept nowhere: the value of a key its object's schema drops (valibot keeps only the
   * named entries), and all inside it. So junk under an unknown key costs no memory, however long.
   */
  readonly discard: boolean;
  /**
   * How validateInSteps will take this value ('object': entry by entry, 'array': item by item, each item whole), or
   * null when it lies inside something validated whole. An item of an 'array' frame is validated when it is read.
   */
  readonly steps: 'object' | 'array' | null;
  /** key: a key or '}' (first) / a key (after a comma); colon; value; next: ',' or the closing bracket. */
  expect: 'first' | 'key' | 'colon' | 'value' | 'next';
}

/** Builds one JSON value from tokens, keeping the request rules as it goes (see readJsonStream). */
class ValueBuilder {
  private frame: Frame | null = null;
  private depth = 0;
  private root: unknown = undefined;
  private done = false;
  private discarded = 0;
  /** The outputs of the items validated as they were read (see Frame.steps). */
  readonly validated = new WeakMap<object, unknown>();

  constructor(private readonly schema: SchemaNode) {}

  result(): unknown {
    if (this.frame) throw problems.validation(NOT_JSON);
    return this.root;
  }

  take(token: TokenType, value: unknown): void {
    const f = this.frame;
    switch (token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET: {
        const isArray = token === TokenType.LEFT_BRACKET;
        const container = isArray ? [] : (Object.create(null) as Record<string, unknown>);
        const { schema, declared, at, discard } = this.place(container);
        if (++this.depth > MAX_DEPTH) throw problems.validation(`the body nests deeper than ${MAX_DEPTH} levels`);
        // valibot's object schemas take an array as an object (`[]` would pass as an object of optional fields).
        if (isArray && schema && isObjectSchema(unwrapSchema(schema))) {
          throw refusal([{ path: f ? this.pathOf(f, at) : 'body', message: 'Invalid type: Expected Object but received Array' }]);
        }
        // On validateInSteps' path while every frame above is taken apart: the root, an object's entries.
        const onPath = f === null || f.steps === 'object';
        const kind = onPath ? stepKind(f === null ? this.schema : (declared ?? undefined)) : 'whole';
        const steps = kind === 'whole' ? null : kind;
        this.frame = { container, isArray, schema: schema && unwrapSchema(schema), steps, at, parent: f, key: '', entries: 0, discard, expect: isArray ? 'value' : 'first' };
        return;
      }
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET: {
        const closesArray = token === TokenType.RIGHT_BRACKET;
        const empty = closesArray ? f?.expect === 'value' && f.container.length === 0 : f?.expect === 'first';
        if (!f || f.isArray !== closesArray || !(f.expect === 'next' || empty)) throw new NotJson();
        this.depth--;
        this.frame = f.parent;
        if (this.frame) this.frame.expect = 'next';
        else this.done = true;
        if (this.frame?.steps === 'array') this.validateItem(this.frame, f.container, f.at);
        return;
      }
      case TokenType.COLON:
        if (!f || f.expect !== 'colon') throw new NotJson();
        f.expect = 'value';
        return;
      case TokenType.COMMA:
        if (!f || f.expect !== 'next') throw new NotJson();
        f.expect = f.isArray ? 'value' : 'key';
        return;
      case TokenType.STRING:
        if (f && !f.isArray && (f.expect === 'first' || f.expect === 'key')) {
          const key = value as string;
          screenKey(key, () => this.pathOf(f, key));
          f.key = sameSpellingAs(f.schema, key);
          f.expect = 'colon';
          const limit = f.schema?.type === 'record' ? limitOfSchema(f.schema) : null;
          if (limit && ++f.entries > limit.max) throw refusal([{ path: this.pathOf(f, null), message: limit.message ?? `at most ${limit.max} entries`, tooLong: true }]);
          return;
        }
        this.placeString(value as string);
        return;
      case TokenType.NUMBER:
      case TokenType.TRUE:
      case TokenType.FALSE:
      case TokenType.NULL: {
        const { at } = this.place(value);
        if (f?.steps === 'array') this.validateItem(f, value, at);
        return;
      }
      default:
        throw new NotJson();
    }
  }

  private placeString(text: string): void {
    if (text.includes('\0')) throw problems.nul();
    const { schema, at } = this.place(text);
    const limit = schema ? limitOfSchema(schema) : null;
    if (limit && text.length > limit.max) throw refusal([{ path: this.frame ? this.pathOf(this.frame, at) : 'body', message: limit.message ?? `at most ${limit.max} characters`, tooLong: true }]);
    if (this.frame?.steps === 'array') this.validateItem(this.frame, text, at);
  }

  /** Validates an item of an array that validateInSteps takes item by item; the first that does not fit ends the read. */
  private validateItem(array: Frame, item: unknown, at: string | number): void {
    const itemSchema = declaredItem(array.schema);
    if (!itemSchema) return;
    const result = validateItem(itemSchema, item, this.pathOf(array, at).split('.'));
    if (!result.ok) throw refusal(result.issues);
    if (item !== null && typeof item === 'object') this.validated.set(item, result.output);
  }

  /**
   * Puts a value where the frame expects one; answers the schema of that place, its key there, and whether it is
   * read only for its form (see Frame.discard).
   */
  private place(value: unknown): { schema: SchemaNode | null; declared: SchemaNode | null; at: string | number; discard: boolean } {
    const f = this.frame;
    if (!f) {
      if (this.done || this.root !== undefined) throw new NotJson();
      this.root = value;
      if (value === null || typeof value !== 'object') this.done = true;
      return { schema: this.schema, declared: this.schema, at: 'body', discard: false };
    }
    if (f.expect !== 'value') throw new NotJson();
    f.expect = 'next';
    if (f.isArray) {
      const items = f.container as unknown[];
      const limit = f.schema ? limitOfSchema(f.schema, 'array') : null;
      if (limit && items.length >= limit.max) {
        throw refusal([{ path: this.pathOf(f, null), message: limit.message ?? `at most ${limit.max} items`, tooLong: true }]);
      }
      // A discarded array keeps no items (and, having no schema, has no limit to count them for).
      if (f.discard) return this.discarding();
      items.push(value);
      return { schema: childSchema(f.schema, null), declared: declaredItem(f.schema), at: items.length - 1, discard: false };
    }
    const schema = childSchema(f.schema, f.key);
    const discard = f.discard || (schema === null && dropsOtherKeys(f.schema));
    if (discard) return { ...this.discarding(), at: f.key };
    (f.container as Record<string, unknown>)[f.key] = value;
    return { schema, declared: declaredEntry(f.schema, f.key), at: f.key, discard };
  }

  /** One more value read for its form only; past MAX_DISCARDED_TOKENS, the body is refused. */
  private discarding(): { schema: null; declared: null; at: string | number; discard: true } {
    if (++this.discarded > MAX_DISCARDED_TOKENS) throw problems.validation(`the body holds more than ${MAX_DISCARDED_TOKENS} values under properties this operation does not take`);
    return { schema: null, declared: null, at: 0, discard: true };
  }

  /** body.recipes.3.steps (and the key, when one is given) for the frame. */
  private pathOf(frame: Frame | null, key: string | number | null): string {
    const keys: (string | number)[] = key === null ? [] : [key];
    for (let at = frame; at; at = at.parent) if (at.parent) keys.unshift(at.at);
    return ['body', ...keys].join('.');
  }
}
