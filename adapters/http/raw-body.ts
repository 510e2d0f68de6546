import type Koa from 'koa';
import { problems } from './problem.js';

/** JSON bodies up to 1 MiB (the OpenAPI document says so of every JSON route); a JSON field of a form is held to the same. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** How long a body (but the household import's, which has its own) may take to arrive once its headers have. */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * `reading` (of the request's body), or 408 request_timeout when it has not ended within `ms`: a client that sends
 * slowly holds a connection for so long and no longer. The reading left behind ends with the connection, which the
 * answer closes.
 */
export async function withinDeadline<T>(ms: number, reading: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(problems.requestTimeout(Math.round(ms / 1000))), ms);
  });
  reading.catch(() => undefined);
  try {
    return await Promise.race([reading, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A byte limit as the refusals say it: "1 MiB", "0.5 MiB". */
export const mib = (bytes: number): string => `${+(bytes / 1024 / 1024).toFixed(2)} MiB`;


// Node's own lower-case headers (ctx.get lower-cases its argument on every call).
export const hasBody = (ctx: Koa.Context): boolean => Number(ctx.req.headers['content-length'] || 0) > 0 || (ctx.req.headers['transfer-encoding'] ?? '') !== '';

/**
 * The request body's bytes, at most `maxBytes` of them: a larger Content-Length is refused (413) before a byte is
 * read, and a body without one is counted as it arrives. Empty when none was sent.
 */
export async function readBodyBytes(ctx: Koa.Context, maxBytes: number): Promise<Buffer> {
  if (!hasBody(ctx)) return NO_BYTES;
  if (Number(ctx.req.headers['content-length'] || 0) > maxBytes) throw problems.tooLarge(mib(maxBytes));
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early must not destroy the request (and with it the socket the refusal goes out on): the
  // rest of the body is drained instead, so the client reads the answer and may send its next request.
  for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      ctx.req.resume();
      throw problems.tooLarge(mib(maxBytes));
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

const NO_BYTES = Buffer.alloc(0);

// Fatal: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD. A leading byte order mark is dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text; 400 body_not_utf8 when they are not well-formed UTF-8 (never replaced by U+FFFD). */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw problems.notUtf8('body');
  }
}

/**
 * The request body's exact bytes, for a route that checks a signature over them or parses them itself: nothing is
 * parsed here. Larger than `maxBytes` answers 413. The request rules hold for these bodies too: bytes that are not
 * well-formed UTF-8 answer 400 body_not_utf8, a NUL byte or a JSON \u0000 escape 400 validation_failed.
 */
export async function readRawBody(ctx: Koa.Context, maxBytes: number): Promise<Buffer> {
  const body = await readBodyBytes(ctx, maxBytes);
  if (body.length === 0) return body;
  utf8Text(body);
  refuseNul(body);
  return body;
}

/** A NUL byte, or a JSON \u0000 escape (an escape is ASCII, so the bytes are searched as they are). */
export function refuseNul(body: Buffer): void {
  if (body.includes(0) || NUL_ESCAPE.test(body.toString('latin1'))) throw problems.nul();
}

const NUL_ESCAPE = /\\u0000/i;

/**
 * A JSON body of at most `maxBytes`: its text (for the Idempotency-Key fingerprint) and the value parsed from it;
 * undefined when nothing (or only white space) was sent. Not UTF-8: 400 body_not_utf8; not JSON: 400
 * validation_failed. JSON.parse makes a key "__proto__" an own property, never the prototype; such keys are refused
 * later, with the rest of the request rules (adapters/http/validation.ts).
 */
export async function readJsonBody(ctx: Koa.Context, maxBytes: number): Promise<{ text: string; value: unknown } | undefined> {
  const bytes = await readBodyBytes(ctx, maxBytes);
  if (bytes.length === 0) return undefined;
  const text = utf8Text(bytes);
  if (text.trim() === '') return undefined;
  refuseDeepNesting(bytes);
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw problems.validation('the body is not valid JSON');
  }
}

/** Deeper than any body this service reads; the household import keeps the same limit (json-stream.ts). */
export const MAX_NESTING = 64;

/**
 * Refuses JSON text nested deeper than MAX_NESTING before it is parsed: a megabyte of '[' parses into a million
 * arrays, and every walk over them after that costs as much again. One pass over the bytes, outside strings.
 */
export function refuseDeepNesting(bytes: Uint8Array): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > MAX_NESTING) throw problems.validation(`the body nests deeper than ${MAX_NESTING} levels`);
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) depth--;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * A route that takes no body ignores one that is sent, but the NUL rule covers every part of a request: such a
 * body is read (within the size limit) and refused when it holds a NUL byte or a JSON \u0000 escape. It is not
 * read as text, so its encoding is not judged.
 */
export async function refuseIgnoredBody(ctx: Koa.Context, maxBytes: number): Promise<void> {
  const body = await readBodyBytes(ctx, maxBytes);
  refuseNul(body);
}
