/** A small HTTP client over fetch that keeps the session cookie, as a browser or an app would. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (undefined when empty). */
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (no JSON encoding): text, or bytes (a photo). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export class Client {
  cookie: string | undefined;

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.cookie && !('Cookie' in headers)) headers['Cookie'] = `app_session=${this.cookie}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}), redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const m = /^app_session=([^;]*)/.exec(c);
      if (m) this.cookie = m[1] === '' ? undefined : m[1];
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  get = (path: string, o?: RequestOptions) => this.request('GET', path, o);
  post = (path: string, body?: unknown, o?: RequestOptions) => this.request('POST', path, { ...o, body });
  patch = (path: string, body?: unknown, o?: RequestOptions) => this.request('PATCH', path, { ...o, body });
  put = (path: string, body?: unknown, o?: RequestOptions) => this.request('PUT', path, { ...o, body });
  delete = (path: string, o?: RequestOptions) => this.request('DELETE', path, o);
}

let counter = 0;
/** A fresh, valid address per call. */
export const freshEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${++counter}@example.com`;

/** Registers a new account and returns a client signed in as it. */
export async function signedInClient(baseUrl: string, displayName = 'Test Person'): Promise<{ client: Client; email: string; password: string }> {
  const client = new Client(baseUrl);
  const email = freshEmail();
  const password = 'correct horse battery';
  const res = await client.post('/api/v1/auth/register', { email, password, displayName });
  if (res.status !== 200 || !client.cookie) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { client, email, password };
}
