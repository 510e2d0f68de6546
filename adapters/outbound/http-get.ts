import http from 'node:http';
import https from 'node:https';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { ForbiddenAddressError, type OutboundGuard, type VettedTarget } from './guard.js';

export type OutboundFailure = 'forbidden-address' | 'unresolvable' | 'timeout' | 'too-large' | 'http-status' | 'network';

export class OutboundFetchFailed extends Error {
  constructor(
    readonly reason: OutboundFailure,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'OutboundFetchFailed';
  }
}

export interface OutboundGetOptions {
  /** The whole fetch, redirects included, from the first connect to the last byte. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  accept: string;
  /** Sent as User-Agent; "dinner-planner" when not given. */
  userAgent?: string;
  /**
   * Ask for gzip, deflate and brotli and decode them. maxBytes then holds for the decoded bytes too, so a small
   * compressed bomb stops at the cap instead of filling memory.
   */
  decompress?: boolean;
}

/** A fetched body with what the server said it is, and where it was found after redirects. */
export interface OutboundAnswer {
  readonly body: Buffer;
  readonly contentType: string | null;
  readonly url: URL;
}

const redirects = new Set([301, 302, 303, 307, 308]);
const dnsFailures = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'EAI_FAIL']);

/**
 * GET a body from outside through the guard: every hop is vetted (scheme, port, IP literal) before it connects
 * and its name checked again on the addresses the socket is handed, so a redirect or a rebinding DNS answer
 * that points inside is refused. Throws OutboundFetchFailed.
 */
export async function outboundGet(guard: OutboundGuard, url: string, o: OutboundGetOptions): Promise<Buffer> {
  return (await outboundFetch(guard, url, o)).body;
}

/** outboundGet, answering the content type and final address as well. Throws OutboundFetchFailed. */
export async function outboundFetch(guard: OutboundGuard, url: string, o: OutboundGetOptions): Promise<OutboundAnswer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), o.timeoutMs);
  try {
    let next: string | URL = url;
    for (let hop = 0; ; hop++) {
      const vetted = guard.vet(next);
      if (!vetted.ok) throw new OutboundFetchFailed('forbidden-address', `${vetted.reason}: ${String(next)}`);
      const answer = await getOnce(guard, vetted.target, o, abort.signal);
      if (answer.body) return { body: answer.body, contentType: answer.contentType, url: vetted.target.url };
      if (hop >= o.maxRedirects) throw new OutboundFetchFailed('http-status', `more than ${o.maxRedirects} redirects`);
      next = answer.location;
    }
  } catch (e) {
    if (abort.signal.aborted) throw new OutboundFetchFailed('timeout', `no complete answer within ${o.timeoutMs} ms`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

type Answer = { body: Buffer; contentType: string | null; location?: never } | { body?: never; location: URL };

/** The decoder for a Content-Encoding, or null for identity; undefined for one we did not ask for. */
function decoderFor(encoding: string | undefined): Transform | null | undefined {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === '' || e === 'identity') return null;
  if (e === 'gzip' || e === 'x-gzip') return zlib.createGunzip();
  if (e === 'deflate') return zlib.createInflate();
  if (e === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

function getOnce(guard: OutboundGuard, target: VettedTarget, o: OutboundGetOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const fail = (e: unknown) => reject(translate(e));
    const client = target.url.protocol === 'https:' ? https : http;
    // agent: false, so that no pooled socket opened before (or by other code) skips the connect-time check.
    const req = client.request(
      target.url,
      {
        agent: false,
        lookup: guard.connectLookup(target),
        signal,
        headers: { accept: o.accept, 'user-agent': o.userAgent ?? 'dinner-planner', ...(o.decompress ? { 'accept-encoding': 'gzip, deflate, br' } : {}) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (redirects.has(status)) {
          res.destroy();
          const location = res.headers.location;
          if (!location) return fail(new OutboundFetchFailed('http-status', `${status} without Location`));
          try {
            return resolve({ location: new URL(location, target.url) });
          } catch {
            return fail(new OutboundFetchFailed('http-status', `${status} with a bad Location`));
          }
        }
        if (status < 200 || status > 299) {
          res.destroy();
          return fail(new OutboundFetchFailed('http-status', String(status)));
        }
        if (Number(res.headers['content-length']) > o.maxBytes) {
          res.destroy();
          return fail(new OutboundFetchFailed('too-large', `declared ${res.headers['content-length']} bytes`));
        }
        const decoder = o.decompress ? decoderFor(res.headers['content-encoding']) : null;
        if (decoder === undefined) {
          res.destroy();
          return fail(new OutboundFetchFailed('http-status', `content-encoding ${res.headers['content-encoding']} was not asked for`));
        }
        // The cap counts the bytes as they come out of the decoder: a bomb stops at maxBytes of decoded text.
        const body: Readable = decoder ? res.pipe(decoder) : res;
        const chunks: Buffer[] = [];
        let size = 0;
        const stop = (e: OutboundFetchFailed) => {
          res.destroy();
          decoder?.destroy();
          fail(e);
        };
        body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > o.maxBytes) stop(new OutboundFetchFailed('too-large', `more than ${o.maxBytes} bytes${decoder ? ' decoded' : ''}`));
          else chunks.push(chunk);
        });
        body.on('end', () => resolve({ body: Buffer.concat(chunks), contentType: res.headers['content-type'] ?? null }));
        // The response's own errors go to res's handler below; the decoder's mean the bytes were not what they claimed.
        decoder?.on('error', () => stop(new OutboundFetchFailed('network', `the ${res.headers['content-encoding']} body does not decode`)));
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new OutboundFetchFailed('network', 'connection closed before the end of the body'));
        });
      },
    );
    req.on('error', fail);
    req.end();
  });
}

function translate(e: unknown): OutboundFetchFailed {
  if (e instanceof OutboundFetchFailed) return e;
  if (e instanceof ForbiddenAddressError) return new OutboundFetchFailed('forbidden-address', e.message);
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code && dnsFailures.has(code)) return new OutboundFetchFailed('unresolvable', (e as Error).message);
  return new OutboundFetchFailed('network', e instanceof Error ? e.message : String(e));
}
