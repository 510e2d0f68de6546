/** The operations of the served OpenAPI document, in the shape the fuzzer needs. */

export type JsonSchema = Record<string, unknown>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly schema: JsonSchema;
}

export interface Operation {
  readonly method: Method;
  /** OpenAPI template: /api/v1/households/{householdId} */
  readonly template: string;
  readonly operationId: string;
  readonly session: boolean;
  /** Only a personal access token opens it (the MCP endpoint): the seeded household's token is sent, not the cookie. */
  readonly tokenOnly: boolean;
  /** X-App-Version below the floor answers 426 here (the document lists 426 only for gated routes). */
  readonly versionGated: boolean;
  readonly pathParams: readonly Parameter[];
  readonly queryParams: readonly Parameter[];
  /**
   * The request body: a JSON schema, or the media type of a body checked another way (multipart, signed raw), or the
   * media types of a binary body (a photo's bytes).
   */
  readonly body:
    | { readonly kind: 'json'; readonly schema: JsonSchema }
    | { readonly kind: 'multipart'; readonly schema: JsonSchema }
    | { readonly kind: 'raw' }
    | { readonly kind: 'binary'; readonly mediaTypes: readonly string[] }
    | null;
}

interface OpenApiOperation {
  operationId: string;
  security: unknown[];
  parameters?: { name: string; in: Parameter['in']; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, unknown>;
}

export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const out: Operation[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = op.parameters ?? [];
      const content = op.requestBody?.content;
      let body: Operation['body'] = null;
      if (content?.['multipart/form-data']) body = { kind: 'multipart', schema: content['multipart/form-data'].schema ?? {} };
      // A route that requires a header of its own (a signature over the raw body) takes its body raw; the optional
      // Idempotency-Key of every signed-in write does not make a JSON body raw.
      else if (content?.['application/json']?.schema && !params.some((p) => p.in === 'header' && p.required)) body = { kind: 'json', schema: content['application/json'].schema };
      else if (content && Object.values(content).every((c) => c.schema?.['format'] === 'binary')) body = { kind: 'binary', mediaTypes: Object.keys(content) };
      else if (content) body = { kind: 'raw' };
      out.push({
        method: method.toUpperCase() as Method,
        template,
        operationId: op.operationId,
        session: op.security.length > 0,
        tokenOnly: JSON.stringify(op.security) === JSON.stringify([{ personalAccessToken: [] }]),
        versionGated: '426' in op.responses,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body,
      });
    }
  }
  return out;
}

/** Whether some route of the document answers this raw path (any method): templates as koa-router reads them. */
export function routeMatcher(ops: readonly Operation[]): (path: string) => boolean {
  const patterns = [...new Set(ops.map((o) => o.template))].map(
    (t) => new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[A-Za-z0-9_]+\}/g, '[^/]+')}$`),
  );
  return (path) => patterns.some((p) => p.test(path));
}
