import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Koa from 'koa';
import { DOCS_ASSETS, DOCS_CSP } from './routes/docs.js';

/** Starts Swagger UI on the service's own document, asking nothing of anyone else (no validator badge). */
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout', defaultModelsExpandDepth: 0 });
});
`;
/** The page's own few rules: room around the reference, and the no-script page readable. */
const CSS = `body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#222}#reference{max-width:80rem;margin:0 auto;padding:0 1rem}
.static{max-width:60rem;margin:2rem auto;padding:0 1rem}.static pre{background:#f5f5f5;padding:.5rem;overflow:auto;font-size:13px}.static section{border-top:1px solid #ddd}
`;

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * The API reference's scripts and styles (swagger-ui-dist, a dependency, read at their first request: not held by
 * an idle server), at `/api/docs/assets/...`, and `extra` documents by path (the household document's JSON Schema,
 * made at its first request too): answered where no route matched, like the web app's files, cached for a day.
 */
export function docsAssets(extra: Readonly<Record<string, { readonly type: string; readonly text: () => string }>> = {}): (ctx: Koa.Context) => boolean {
  const dist = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const made = new Map<string, Asset>();
  const makers = new Map<string, () => Asset>([
    [`${DOCS_ASSETS}/swagger-ui.css`, () => ({ type: 'text/css; charset=utf-8', body: readFileSync(join(dist(), 'swagger-ui.css')) })],
    [`${DOCS_ASSETS}/swagger-ui-bundle.js`, () => ({ type: 'text/javascript; charset=utf-8', body: readFileSync(join(dist(), 'swagger-ui-bundle.js')) })],
    [`${DOCS_ASSETS}/init.js`, () => ({ type: 'text/javascript; charset=utf-8', body: Buffer.from(INIT) })],
    [`${DOCS_ASSETS}/docs.css`, () => ({ type: 'text/css; charset=utf-8', body: Buffer.from(CSS) })],
    ...Object.entries(extra).map(([path, { type, text }]): [string, () => Asset] => [path, () => ({ type, body: Buffer.from(text()) })]),
  ]);
  const fileAt = (path: string): Asset | undefined => {
    const make = makers.get(path);
    if (!make) return undefined;
    const file = made.get(path) ?? make();
    made.set(path, file);
    return file;
  };
  return (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    const file = fileAt(ctx.path);
    if (!file) return false;
    ctx.status = 200;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.type = file.type;
    ctx.body = file.body;
    return true;
  };
}
