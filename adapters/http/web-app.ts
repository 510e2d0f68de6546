import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type Koa from 'koa';
import { ifNoneMatchHolds } from './conditional.js';

/**
 * The web app's own rules for the browser: its scripts, styles, images and API calls come from this origin only,
 * nothing inline, no frames, no plugins, forms only to this origin.
 */
export const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Vite's hashed build output: a file's name changes whenever its bytes do, so it may be kept for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.webmanifest', '.svg', '.txt']);

interface WebFile {
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
}

function filesOf(dir: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      const ext = extname(name).toLowerCase();
      const body = readFileSync(path);
      const urlPath = `/${relative(dir, path).split(sep).join('/')}`;
      const gzip = COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body, { level: 9 }) : null;
      files.set(urlPath, {
        body,
        gzip: gzip && gzip.length < body.length ? gzip : null,
        type: TYPES[ext] ?? 'application/octet-stream',
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        // index.html names the hashed files: it is asked for again every time (no-cache still allows a 304).
        cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : 'no-cache',
      });
    }
  };
  walk(dir);
  return files;
}

const NOT_BUILT = Buffer.from(
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Dinner</title><body><h1>The web app is not built</h1>' +
    '<p>Run <code>npm run build:web</code> (npm start does it) and reload this page. The API answers under /api/v1.</p></body></html>',
);

/**
 * Serves the built web app from memory (read once at start; a few hundred kilobytes): its files by path, and
 * index.html for every other GET or HEAD outside /api/, /health and /metrics that names no file (the app's own routes, so that a reload
 * or a link from a mail opens the right screen). Paths with an extension that name no file are left alone (404).
 * Text files go gzipped to a browser that takes it. Every answer carries an ETag and the app's CSP.
 */
export function webApp(dir: string): (ctx: Koa.Context) => boolean {
  const files = existsSync(join(dir, 'index.html')) ? filesOf(dir) : null;
  const index = files?.get('/index.html') ?? null;
  return (ctx) => {
    // /metrics is the metrics port's alone (bootstrap/metrics.ts): the public port answers 404 there, never the app.
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || /^\/(api|health|metrics)(\/|$)/i.test(ctx.path)) return false;
    let file = files?.get(ctx.path) ?? null;
    if (!file) {
      if (extname(ctx.path) !== '') return false;
      if (!index) {
        ctx.status = 503;
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Content-Security-Policy', WEB_CSP);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = NOT_BUILT;
        return true;
      }
      file = index;
    }
    // The gzipped bytes are another representation, so they carry an ETag of their own (RFC 9110, 8.8.3).
    const gzip = file.gzip !== null && /\bgzip\b/.test(ctx.get('Accept-Encoding'));
    const etag = gzip ? `${file.etag.slice(0, -1)}-gz"` : file.etag;
    ctx.set('Content-Security-Policy', WEB_CSP);
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('ETag', etag);
    ctx.set('Vary', 'Accept-Encoding');
    ctx.type = file.type;
    if (ifNoneMatchHolds(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      return true;
    }
    ctx.status = 200;
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? file.gzip : file.body;
    return true;
  };
}
