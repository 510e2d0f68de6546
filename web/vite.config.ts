import { defineConfig } from 'vite';

// The web app: built into web/dist, which the service serves at / (adapters/http/web-app.ts). `npm run dev` runs
// Vite with its proxy to a service on :8080, so the session cookie and the API stay same-origin there too.
export default defineConfig({
  root: import.meta.dirname,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/health': 'http://127.0.0.1:8080' } },
});
