import { mount, resource, PUBLIC_PER_IP } from '../route.js';

type Json = Record<string, unknown>;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const pretty = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

/** The reference page of the OpenAPI document: Swagger UI, and the document as plain HTML for a browser without scripts. */
export function renderDocs(doc: Json): string {
  const info = doc['info'] as Json;
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc['paths'] as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op['tags'] as string[])[0] ?? 'Other';
      const params = (op['parameters'] as Json[] | undefined) ?? [];
      const body = (op['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined;
      const responses = op['responses'] as Record<string, Json>;
      const html = [
        `<section id="${esc(String(op['operationId']))}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>`,
        `<p><strong>${esc(String(op['summary']))}</strong>${(op['security'] as unknown[]).length ? ' · session' : ' · public'} · rate limit <code>${esc(String(op['x-rate-limit-class']))}</code></p>`,
        op['description'] ? `<p>${esc(String(op['description']))}</p>` : '',
        params.length ? `<h4>Parameters</h4><ul>${params.map((p) => `<li><code>${esc(String(p['name']))}</code> in ${esc(String(p['in']))}${p['required'] ? ' (required)' : ''}: <code>${esc(JSON.stringify(p['schema']))}</code></li>`).join('')}</ul>` : '',
        // JSON, or multipart/form-data with the encoding of its parts.
        body
          ? `<h4>Request body</h4>${Object.entries(body)
              .map(([type, media]) => `<p><code>${esc(type)}</code></p>${pretty(media['schema'] ?? {})}${media['encoding'] ? pretty({ encoding: media['encoding'] }) : ''}`)
              .join('')}`
          : '',
        `<h4>Responses</h4><ul>${Object.entries(responses)
          .map(([status, r]) => {
            const content = r['content'] as Record<string, Json> | undefined;
            const json = content?.['application/json']?.['schema'];
            return `<li><strong>${esc(status)}</strong> ${esc(String(r['description']))}${json ? pretty(json) : ''}</li>`;
          })
          .join('')}</ul></section>`,
      ].join('\n');
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const toc = [...byTag.keys()].map((t) => `<li><a href="#tag-${esc(t)}">${esc(t)}</a></li>`).join('');
  const title = `${esc(String(info['title']))} — API reference`;
  // The reference is Swagger UI (swagger-ui-dist, served from this service: no CDN), under a CSP that lets scripts
  // and styles come from here only. Without scripts, the same document as plain HTML.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css"><link rel="stylesheet" href="${DOCS_ASSETS}/docs.css"></head>
<body><div id="reference"></div>
<noscript><div class="static"><h1>${esc(String(info['title']))}</h1><p>API version ${esc(String(info['version']))}. Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<p>${esc(String(info['description']))}</p><ul>${toc}</ul>
${[...byTag].map(([tag, ops]) => `<h2 id="tag-${esc(tag)}">${esc(tag)}</h2>${ops.join('\n')}`).join('\n')}
</div></noscript>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script><script src="${DOCS_ASSETS}/init.js"></script></body></html>`;
}

/** Where the reference's scripts and styles are served from (adapters/http/docs-assets.ts). */
export const DOCS_ASSETS = '/api/docs/assets';
/** Scripts and styles from this origin only; Swagger UI sets style attributes, and shows SVG icons as data: URLs. */
export const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const { handledRoute } = resource<{ readonly document: () => Promise<Json> }>('Application and health');

let html: string | undefined;

const openApiDocumentRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/openapi.json',
  operationId: 'openApiDocument',
  summary: 'This OpenAPI 3.1 document',
  ...PUBLIC_PER_IP,
  responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
  handle: async (ctx, { deps }) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = await deps.document();
  },
});

const apiReferenceRoute = handledRoute({
  method: 'GET',
  path: '/api/docs',
  operationId: 'apiReference',
  summary: 'The API reference (Swagger UI, served from this service) of the OpenAPI document',
  ...PUBLIC_PER_IP,
  responses: { 200: { description: 'HTML reference', contentType: 'text/html' } },
  handle: async (ctx, { deps }) => {
    html ??= renderDocs(await deps.document());
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  },
});

/** `document` makes the OpenAPI document, at the first request of either route (adapters/http/openapi.ts). */
export const docsRoutes = (document: () => Promise<Json>) =>
  mount({ document }, [
    openApiDocumentRoute,
    apiReferenceRoute,
  ]);

