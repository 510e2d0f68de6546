import { connect } from 'node:net';
import type { FuzzRequest } from './requests.js';

export interface FuzzAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** Sends one fuzzed request with fetch, as a client would: a body without Content-Type goes as bytes (fetch adds none). */
export async function send(baseUrl: string, r: FuzzRequest): Promise<FuzzAnswer> {
  const hasType = Object.keys(r.headers).some((h) => h.toLowerCase() === 'content-type');
  let body: RequestInit['body'];
  if (r.body) {
    const bytes = Buffer.from(r.body.bytes, 'utf8');
    // A stream has no known length: fetch sends it chunked, with no Content-Length.
    body = r.body.chunked
      ? new ReadableStream({
          start(c) {
            c.enqueue(new Uint8Array(bytes));
            c.close();
          },
        })
      : hasType
        ? r.body.bytes
        : new Uint8Array(bytes);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: r.method, headers: r.headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) };
  if (r.body?.chunked) init.duplex = 'half';
  const res = await fetch(baseUrl + r.url, init);
  const contentType = res.headers.get('content-type') ?? '';
  // A live stream (GET /api/v1/me/changes) never ends by itself: its status and type are the answer.
  if (contentType.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, contentType, text: '' };
  }
  return { status: res.status, contentType, text: await res.text() };
}

/** What is wrong with the answer, or null: never a 5xx, an error is a problem with a code, a refusal a 4xx. */
export function verdict(r: FuzzRequest, a: FuzzAnswer): string | null {
  if (a.status >= 500) return `answered ${a.status}: ${a.text.slice(0, 300)}`;
  if (a.status >= 400) {
    if (!a.contentType.startsWith('application/problem+json')) return `answered ${a.status} as ${a.contentType || 'no Content-Type'}, not application/problem+json`;
    let code: unknown;
    try {
      code = (JSON.parse(a.text) as { code?: unknown }).code;
    } catch {
      return `answered ${a.status} with a body that is not JSON: ${a.text.slice(0, 200)}`;
    }
    if (typeof code !== 'string' || code === '') return `answered ${a.status} with a problem without a code: ${a.text.slice(0, 200)}`;
  }
  if (r.expect === 'refused' && !(a.status >= 400 && a.status < 500)) return `answered ${a.status} to a request that must be refused (${r.fault}): ${a.text.slice(0, 200)}`;
  return null;
}

/** Writes raw bytes on a fresh connection and reads the whole answer (the server closes after a refused request). */
export function sendRaw(baseUrl: string, bytes: Buffer, timeoutMs = 5000): Promise<FuzzAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer in time'));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, contentType, text: rest.join('\r\n\r\n') });
    });
    socket.end(bytes);
  });
}
