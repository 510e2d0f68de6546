import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The web app: built into web/dist, which the service serves at / (adapters/http/web-app.ts). `npm run dev` runs
// Vite with its proxy to a service on :8080, so the session cookie and the API stay same-origin there too.
//
// Installable and readable offline: a web manifest with icons, and a service worker made by Workbox that keeps the
// app's own files (precached at install) and the household's data the app last read (the week, the list, the
// recipes: network first, the kept copy when there is no network). Signing out deletes that copy
// (web/src/offline.ts, which names the same cache, and reads through it once after each sign-in and app start what
// the week and the list need, so a quick first sign-in leaves them kept too); changes made offline wait in IndexedDB.
const HOUSEHOLD_DATA_CACHE = 'household-data';

export default defineConfig({
  root: import.meta.dirname,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/health': 'http://127.0.0.1:8080' } },
  plugins: [
    VitePWA({
      // The app registers the worker itself once its first screen has shown (src/startup.ts), so that installing it
      // and copying the app into its cache do not slow that screen on a cheap phone.
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['icons/apple-touch-icon.png', 'icons/icon.svg'],
      manifest: {
        name: 'Middag',
        short_name: 'Middag',
        description: 'Planlegg ukas middager og handle dem sammen.',
        lang: 'nb',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f7f6f2',
        theme_color: '#2f6b3a',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['push.js'],
        // Every path of the app opens index.html from the precache; the API and the probes are never the app.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/health/, /^\/robots\.txt$/],
        // Web Push: showing what the service sends, and opening the list a tap is about.
        importScripts: ['/push.js'],
        clientsClaim: true,
        skipWaiting: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // What a member reads of their households; never the live stream, and never anything but a 200. Not the
            // household's download (.../export): a whole household, pictures and all, is no copy to keep for offline.
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              url.origin === self.location.origin &&
              (url.pathname === '/api/v1/me' || url.pathname.startsWith('/api/v1/households/')) &&
              !url.pathname.endsWith('/image') &&
              !url.pathname.endsWith('/export'),
            handler: 'NetworkFirst',
            options: {
              cacheName: HOUSEHOLD_DATA_CACHE,
              networkTimeoutSeconds: 4,
              cacheableResponse: { statuses: [200] },
              expiration: { maxEntries: 300, maxAgeSeconds: 14 * 24 * 60 * 60 },
            },
          },
        ],
      },
    }),
  ],
});
