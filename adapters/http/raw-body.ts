import type Koa from 'koa';
import { problems } from './problem.js';

const mib = (bytes: number) => `${+(bytes / 1024 / 1024).toFixed(2)} MiB`;

/**
 * The request body's exact bytes, for a route that checks a signature over them: nothing is parsed or decoded
 * here. Larger than `maxBytes` answers 413 (refused from Content-Length before a byte is read, else counted as it
 * arrives). The NUL rule covers these bodies too: a NUL byte or a JSON \u0000 escape answers 400.
 */
export async function readRawBody(ctx: Koa.Context, maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared === 0 && ctx.get('Transfer-Encoding') === '') return Buffer.alloc(0);
  if (declared > maxBytes) throw problems.tooLarge(mib(maxBytes));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw problems.tooLarge(mib(maxBytes));
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  if (body.includes(0) || /\\u0000/i.test(body.toString('latin1'))) throw problems.validation('a NUL character is not allowed anywhere in a request');
  return body;
}
